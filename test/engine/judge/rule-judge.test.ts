import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { JUDGE_BONUS_MAX, decide, ruleJudge, scorePitch } from '../../../src/engine/judge/index.js';
import { makeState, pitch, withPitches } from './fixtures.js';

const state = makeState();
const score = (text: string, lab = 'lab_0', jobIds: string[] = []) => scorePitch(state, pitch(lab, text, jobIds));

describe('scorePitch: claims checked against the state', () => {
  test('a truthful specific pitch verifies every claim', () => {
    const s = score('j_0_1 needs 8 GPU-hours by round 3; min reliability 0.85.');
    assert.deepEqual(s.parts, { need: s.parts.need, verifiedClaims: 1, fabricatedClaims: 0, specificity: 1 });
    assert.ok(s.parts.need > 0 && s.score > 0.7, JSON.stringify(s));
  });

  test('a fabricated job id is penalised', () => {
    const honest = score('j_0_1 needs 8 GPU-hours by round 3');
    const fake = score('j_0_9 needs 8 GPU-hours by round 3');
    assert.ok(fake.parts.fabricatedClaims > 0);
    assert.ok(fake.score < honest.score - 0.25, `${fake.score} vs ${honest.score}`);
  });

  test("another lab's job id is fabricated for this lab", () => {
    assert.ok(score('j_1_0 needs our help').parts.fabricatedClaims > 0);
    assert.equal(score('j_1_0 needs 4 more GPU-hours by round 2', 'lab_1').parts.fabricatedClaims, 0);
  });

  test('wrong hours are penalised; required, unmet and total hours are verified', () => {
    assert.ok(score('j_0_1 needs 7 GPU-hours').parts.fabricatedClaims > 0);
    assert.ok(score('j_0_1 needs 16 GPU-hours').parts.fabricatedClaims > 0);
    assert.equal(score('we need 12 GPU-hours in total').parts.fabricatedClaims, 0); // 4 + 8
    const unmet = score('j_1_0 still needs 4 more GPU-hours (6 in all)', 'lab_1'); // 6 required, 2 allocated
    assert.equal(unmet.parts.fabricatedClaims, 0);
    assert.equal(unmet.parts.verifiedClaims, 1);
  });

  test('wrong deadlines and reliability needs are penalised', () => {
    assert.ok(score('j_0_1 is due by round 6').parts.fabricatedClaims > 0);
    // Chat shows rounds 1-based: "round 4" for the engine's deadlineRound 3 is true, not fabricated.
    assert.equal(score('j_0_1 is due by round 4').parts.fabricatedClaims, 0);
    assert.ok(score('j_0_1 needs reliability 0.95').parts.fabricatedClaims > 0);
    assert.equal(score('j_0_1 is due by round 3, reliability 0.85').parts.fabricatedClaims, 0);
  });

  test('offer and coalition ids are verified against the pitcher', () => {
    assert.equal(score('see my offer o_1').parts.verifiedClaims, 1); // lab_0 sent o_1
    assert.equal(score('see offer o_1', 'lab_1').parts.verifiedClaims, 1); // lab_1 received it
    assert.ok(score('see offer o_2').parts.fabricatedClaims > 0); // lab_1 → lab_2
    assert.ok(score('see offer o_99').parts.fabricatedClaims > 0);
    assert.equal(score('our coalition c_1', 'lab_2').parts.verifiedClaims, 1);
    assert.ok(score('our coalition c_1').parts.fabricatedClaims > 0); // lab_0 is not a member
    assert.ok(score('our coalition c_7', 'lab_1').parts.fabricatedClaims > 0);
  });

  test("block ids: own and offered blocks verify, other labs' blocks are neutral, unknown ones fabricated", () => {
    assert.equal(score('our b_0_0').parts.verifiedClaims, 1);
    const other = score('we would like b_2_1');
    assert.deepEqual([other.parts.verifiedClaims, other.parts.fabricatedClaims], [0, 0]);
    assert.ok(score('we would like b_9_9').parts.fabricatedClaims > 0);
  });

  test('a pitch without checkable claims scores on need, below one with verified specifics', () => {
    const vague = score('Please, our work really matters and we need compute soon.');
    const specific = score('j_0_0 needs 4 GPU-hours by round 2 and j_0_1 needs 8 GPU-hours by round 3.');
    assert.ok(vague.parts.need > 0 && vague.score > 0);
    assert.equal(vague.parts.verifiedClaims, 0);
    assert.ok(specific.score > vague.score + 0.2, `${specific.score} vs ${vague.score}`);
  });

  test('need is the true need of the argued jobs and never more than the lab has', () => {
    const all = score('we need capacity');
    const one = score('we need capacity for j_0_0', 'lab_0');
    const none = scorePitch(
      { ...state, jobs: { ...state.jobs, j_2_0: { ...state.jobs.j_2_0!, outcome: 'completed' } } },
      pitch('lab_2', 'we desperately need everything you have'),
    );
    assert.ok(one.parts.need < all.parts.need);
    assert.equal(none.parts.need, 0);
  });

  test('structured jobIds count like the same id in the text', () => {
    const inText = score('j_0_1 needs 8 GPU-hours by round 3');
    const structured = score('this job needs 8 GPU-hours by round 3', 'lab_0', ['j_0_1']);
    assert.deepEqual(structured, inText);
  });

  test('shotgun claims lose: listing every hour value', () => {
    const shotgun = score(Array.from({ length: 12 }, (_, i) => `${i + 1} GPU-hours`).join(', '));
    assert.ok(shotgun.parts.fabricatedClaims === 1 && shotgun.score < score('we need compute').score);
  });

  test('every part and the score stay in [0, 1]', () => {
    for (const t of ['', 'x', 'j_0_1 '.repeat(200), 'j_9_9 o_9 c_9 b_9_9 99 GPU-hours by round 9 reliability 0.1']) {
      const s = score(t);
      for (const v of [s.score, ...Object.values(s.parts)]) assert.ok(v >= 0 && v <= 1, `${t}: ${v}`);
    }
  });
});

describe('decide', () => {
  const pitches = [
    pitch('lab_0', 'j_0_1 needs 8 GPU-hours by round 3; reliability 0.85'),
    pitch('lab_1', 'we need compute, it matters'),
    pitch('lab_2', 'j_2_0 needs 640 GPU-hours by round 1'),
  ];

  test('no pitch, no decision; other rounds and finished seats are not judged', () => {
    assert.equal(decide(state, []), null);
    assert.equal(ruleJudge.judge(state), null);
    assert.equal(decide(state, [pitch('lab_0', 'j_0_1 needs 8 GPU-hours', [], 0)]), null);
    const finished = { ...state, labs: { ...state.labs, lab_0: { ...state.labs.lab_0!, finished: true } } };
    assert.equal(decide(finished, [pitch('lab_0', 'j_0_1 needs 8 GPU-hours')]), null);
  });

  test('the highest score wins; bonus = clamp(0.05 + margin/2, 0.05, 0.15)', () => {
    const d = decide(state, pitches)!;
    assert.equal(d.judgeId, 'rule_judge_v2');
    assert.equal(d.round, 1);
    assert.equal(d.winner, 'lab_0');
    assert.deepEqual(
      d.scores.map((s) => s.lab),
      ['lab_0', 'lab_1', 'lab_2'],
    );
    const [a, b] = [...d.scores.map((s) => s.score)].sort((x, y) => y - x);
    assert.equal(d.bonus, Math.round(Math.min(JUDGE_BONUS_MAX, Math.max(0.05, 0.05 + (a! - b!) / 2)) * 1e4) / 1e4);
    assert.ok(d.bonus >= 0.05 && d.bonus <= JUDGE_BONUS_MAX);
  });

  test('a single pitcher is compared with 0', () => {
    const d = decide(state, [pitch('lab_1', 'j_1_0 still needs 4 more GPU-hours', ['j_1_0'])])!;
    assert.equal(d.winner, 'lab_1');
    assert.equal(d.bonus, JUDGE_BONUS_MAX); // 0.05 + score/2 > 0.15 for any score > 0.2
  });

  test('a claim-free plea or a pitch with a lie cannot win, even alone', () => {
    const plea = decide(state, [pitch('lab_1', 'we need compute, it matters')])!;
    assert.ok(plea.scores[0]!.score > 0, 'it still gets a score');
    assert.equal(plea.winner, null);
    assert.equal(plea.bonus, 0);
    const liar = decide(state, [pitch('lab_1', 'j_1_0 still needs 4 more GPU-hours and j_1_7 needs 99 GPU-hours')])!;
    assert.equal(liar.winner, null);
  });

  test('the latest pitch of a seat is the one judged', () => {
    const d = decide(state, [pitch('lab_0', 'j_0_9 needs 99 GPU-hours'), pitch('lab_0', 'j_0_1 needs 8 GPU-hours')])!;
    assert.equal(d.scores.length, 1);
    assert.equal(d.scores[0]!.parts.fabricatedClaims, 0);
  });

  test('ruleJudge.judge reads state.pitches', () => {
    const s = withPitches(state, pitches);
    assert.equal(ruleJudge.id, 'rule_judge_v2');
    assert.deepEqual(ruleJudge.judge(s), decide(s, pitches));
  });

  test('deterministic: same state, same decision, byte for byte', () => {
    const s = withPitches(state, pitches);
    assert.equal(JSON.stringify(ruleJudge.judge(s)), JSON.stringify(ruleJudge.judge(structuredClone(s))));
  });

  test('exact ties are broken by the seeded draw, reproducibly and not always for the same seat', () => {
    // lab_1 and lab_2 with identical need facts and identical vague pitches.
    const tieState = (seed: number) => {
      const s = makeState(seed);
      s.jobs = {
        j_1_0: { ...s.jobs.j_1_0!, gpuHoursRequired: 4, allocatedHours: 0, deadlineRound: 3, urgencyMultiplier: 1.4 },
        j_2_0: { ...s.jobs.j_2_0!, gpuHoursRequired: 4, allocatedHours: 0, deadlineRound: 3, urgencyMultiplier: 1.4 },
      };
      return withPitches(s, [pitch('lab_1', 'j_1_0 needs 4 GPU-hours'), pitch('lab_2', 'j_2_0 needs 4 GPU-hours')]);
    };
    const winners = new Set<string>();
    for (let seed = 0; seed < 20; seed++) {
      const d = ruleJudge.judge(tieState(seed))!;
      assert.equal(d.scores[0]!.score, d.scores[1]!.score);
      assert.equal(d.bonus, 0.05);
      assert.deepEqual(ruleJudge.judge(tieState(seed)), d);
      winners.add(d.winner!);
    }
    assert.deepEqual([...winners].sort(), ['lab_1', 'lab_2']);
  });

  test('nobody wins when every pitch scores 0', () => {
    const d = decide(state, [pitch('lab_0', 'j_9_9 needs 640 GPU-hours by round 0, offer o_77')])!;
    assert.equal(d.winner, null);
    assert.equal(d.bonus, 0);
  });

  test('reasons are one line and hold no private value (only claim counts)', () => {
    const d = decide(state, pitches)!;
    const privateValues = Object.values(state.jobs).flatMap((j) => [
      j.id,
      String(j.gpuHoursRequired),
      String(j.minReliability),
    ]);
    for (const r of [d.reason, ...d.scores.map((s) => s.reason)]) {
      assert.ok(!r.includes('\n'));
      const rest = r.replace(/\d+ (verified claims?|fabricated|unsupported)/g, '');
      assert.ok(!/\d/.test(rest), `digits outside counts: ${r}`);
      assert.ok(!/[jbco]_\d/.test(r), `an id in: ${r}`);
      for (const v of privateValues) if (v.includes('_')) assert.ok(!r.includes(v));
    }
    assert.match(d.reason, /^Lab A wins/);
  });
});

describe('scorePitch: true statements about capacity', () => {
  test('sizes and reliabilities of its own or offered blocks are neutral when said about blocks', () => {
    const s = score('Our spare block b_0_1 has 2 GPU-hours at reliability 0.81; we want b_1_0 (0.95 reliability).');
    assert.equal(s.parts.fabricatedClaims, 0);
  });
  test('the same numbers said as a job need are fabricated', () => {
    assert.ok(score('j_0_1 needs reliability 0.95').parts.fabricatedClaims > 0);
  });
});
