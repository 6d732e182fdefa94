/**
 * The judge shows its work (docs/RULES.md §6.6): per-claim rulings that agree with the score's
 * counts, the author's truth, and the visible cost of fabricated claims at the round close.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkPitch, checkRound, PitchChecksSchema, storedChecks } from '../../../src/engine/judge/explain.js';
import { scorePitch } from '../../../src/engine/judge/index.js';
import { applyAction, closeRound, createMatch } from '../../../src/engine/index.js';
import { FABRICATION_COST } from '../../../src/engine/pitch-bonus.js';
import { ATTACKS, attackPitch, honestPitch } from '../../../src/eval/bench-judge-corpus.js';
import { makeState, pitch } from './fixtures.js';

const state = makeState();

describe('per-claim rulings', () => {
  test('truthful, fabricated and mixed pitches, claim by claim', () => {
    const truthful = checkPitch(state, pitch('lab_0', 'j_0_1 needs 8 GPU-hours by round 3, min reliability 0.85.'));
    assert.deepEqual(
      truthful.claims.map((c) => [c.claim.kind, c.ruling, c.why, c.jobId]),
      [
        ['job', 'verified', 'named', 'j_0_1'],
        ['hours', 'verified', 'named', 'j_0_1'],
        ['deadline', 'verified', 'named', 'j_0_0'], // round 3 is j_0_0's deadline counted from 1 (also j_0_1's from 0): the first matches
        ['reliability', 'verified', 'named', 'j_0_1'],
      ],
    );
    const fabricated = checkPitch(state, pitch('lab_0', 'j_0_9 needs 64 GPU-hours; see offer o_77.'));
    assert.deepEqual(
      fabricated.claims.map((c) => [c.claim.kind, c.ruling, c.why]),
      [
        ['job', 'fabricated', 'not_own_job'],
        ['offer', 'fabricated', 'not_own_offer'],
        ['hours', 'fabricated', 'no_match'],
      ],
    );
    const mixed = checkPitch(
      state,
      pitch('lab_0', 'j_0_1 needs 8 GPU-hours, but j_0_0 needs 40 GPU-hours; we want b_2_0, and round 5 matters.'),
    );
    assert.deepEqual(
      mixed.claims.map((c) => c.ruling).sort(),
      ['fabricated', 'neutral', 'unsupported', 'verified', 'verified', 'verified'].sort(),
    );
    assert.deepEqual([mixed.verified, mixed.fabricated, mixed.unsupported], [3, 1, 1]);
    assert.deepEqual(
      mixed.truth.map((j) => [j.id, j.unmetHours, j.deadlineRound]),
      [
        ['j_0_0', 4, 2],
        ['j_0_1', 8, 3],
      ],
    );
  });

  test('counts equal the score the judge used, on generated worlds (every corpus pitch, 3 tasks × 5 seeds)', () => {
    for (const task of ['single_trade', 'market_round', 'coalition_market'] as const) {
      for (let seed = 0; seed < 5; seed++) {
        const s = createMatch({ task, seed, scripted: {} });
        for (const p of [honestPitch(s, 'lab_0'), ...ATTACKS.map((a) => attackPitch(s, 'lab_0', 'lab_1', a))]) {
          const pp = { lab: 'lab_0', round: s.round, text: p.text, jobIds: p.jobIds, replyTo: null };
          const c = checkPitch(s, pp);
          const parts = scorePitch(s, pp).parts;
          const n = c.verified + c.fabricated + c.unsupported;
          assert.equal(parts.verifiedClaims, n > 0 ? Math.round((c.verified / n) * 1e4) / 1e4 : 0, p.text);
          assert.equal(parts.fabricatedClaims, Math.min(1, c.fabricated / 2), p.text);
          assert.equal(
            c.fabricated > 0,
            c.claims.some((x) => x.ruling === 'fabricated'),
            p.text,
          );
          assert.equal(
            c.verified > 0,
            c.claims.some((x) => x.ruling === 'verified'),
            p.text,
          );
        }
      }
    }
  });

  test('stored checks round-trip through JSON and the schema; junk is refused', () => {
    const s = {
      ...state,
      pitches: [pitch('lab_0', 'j_0_1 needs 8 GPU-hours.'), pitch('lab_1', 'j_1_9 needs 99 GPU-hours.')],
    };
    const checks = checkRound(s);
    assert.equal(checks.length, 2);
    assert.deepEqual(storedChecks(JSON.parse(JSON.stringify({ checks }))), checks);
    assert.equal(PitchChecksSchema.safeParse([{ lab: 'x' }]).success, false);
    assert.equal(storedChecks({ checks: 'nope' }), null);
  });
});

describe('a fabricated claim costs judge_argument at the close that judges it (rules v3)', () => {
  test('0 for a truthful pitch, −0.05 for one fabricated claim, −0.10 for three; a ledger entry says why', () => {
    let s = createMatch({ task: 'market_round', seed: 4, scripted: {} });
    const texts: Record<string, string> = {
      lab_0: honestPitch(s, 'lab_0').text,
      lab_1: `${honestPitch(s, 'lab_1').text} Also j_1_9 is ours.`,
      lab_2: 'j_2_9 needs 640 GPU-hours, see offer o_77 and block b_9_9.',
    };
    for (const [lab, text] of Object.entries(texts))
      s = applyAction(s, lab, { action_type: 'make_pitch', message: text, job_ids: [] }).state;
    const { report } = closeRound(s);
    assert.equal(report.rewards.lab_0!.judge_argument, 0);
    assert.equal(report.rewards.lab_1!.judge_argument, -FABRICATION_COST);
    assert.equal(report.rewards.lab_2!.judge_argument, -2 * FABRICATION_COST);
    assert.ok(report.rewards.lab_2!.normalized_reward <= -0.1);
    const entries =
      (report as { entries?: { lab: string; source: { kind: string; claims?: number } }[] }).entries ?? [];
    assert.deepEqual(
      entries.filter((e) => e.source.kind === 'fabricated_pitch').map((e) => [e.lab, e.source.claims]),
      [
        ['lab_1', 1],
        ['lab_2', 2],
      ],
    );
  });
});
