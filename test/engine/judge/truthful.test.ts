/**
 * Fair by construction (docs/RULES.md §6.1, rules v4): a seat that pitches only true facts about its own
 * pending jobs, then acts legally in the same round (allocating to the very job it argued for, trading,
 * reserving), is never charged for fabrication and never has a claim marked fabricated. The claims are
 * judged against the seat's facts when the pitch was made, so nothing done afterwards can turn them false.
 * Under rules v3 the same play was fined (the judge read the state at the close): the last test shows it.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  applyAction,
  closeRound,
  createMatch,
  labIdsFor,
  observe,
  rng,
  runScripted,
  TASK_NAMES,
} from '../../../src/engine/index.js';
import type { MatchState, PolicyName, RulesVersion, TaskName } from '../../../src/engine/index.js';
import { checkPitch, checkRound } from '../../../src/engine/judge/index.js';
import { pendingJobs } from '../../../src/engine/judge/facts.js';
import { getPolicy } from '../../../src/engine/policies/index.js';

const ARCHETYPES: PolicyName[] = ['cooperative', 'selfish', 'deadline_panicked', 'deceptive', 'retaliatory'];

/** A pitch of only true facts about `lab`'s pending job (id, unmet hours, deadline, reliability), or null. */
function truthfulPitch(s: MatchState, lab: string, pick: number): { text: string; job: string } | null {
  const pending = pendingJobs(s, lab);
  if (pending.length === 0) return null;
  const j = pending[pick % pending.length]!;
  const parts = [
    `${j.id} still needs ${j.unmetHours} GPU-hours`,
    `it is due at the end of round ${j.deadlineRound + 1}`,
    `it needs reliability ${j.minReliability.toFixed(2)}`,
  ];
  return { text: `${parts.join('; ')}.`, job: j.id };
}

/** Allocate every usable own block meeting the job's reliability to it (fills it when the lab can). */
function fillJob(s: MatchState, lab: string, job: string): MatchState {
  const j = s.jobs[job]!;
  const blocks = Object.values(s.blocks).filter(
    (b) =>
      b.owner === lab && (b.status === 'available' || b.status === 'reserved') && b.reliability >= j.minReliability,
  );
  if (blocks.length === 0) return s;
  return applyAction(s, lab, { action_type: 'allocate_to_job', job_id: job, block_ids: blocks.map((b) => b.id) }).state;
}

interface Tally {
  rounds: number;
  filledAfter: number;
  fined: number;
  fabricatedClaims: number;
}

/** Play one match: lab_0 pitches truthfully every round, then acts; returns what the judge did to it. */
function play(task: TaskName, seed: number, rules: RulesVersion, choices: readonly number[]): Tally {
  const labs = labIdsFor(task, seed);
  const scripted: Record<string, PolicyName> = {};
  labs.slice(1).forEach((l, i) => (scripted[l] = ARCHETYPES[(seed + i) % ARCHETYPES.length]!));
  let s = createMatch({ task, seed, scripted, rules });
  const t: Tally = { rounds: 0, filledAfter: 0, fined: 0, fabricatedClaims: 0 };
  let k = 0;
  while (!s.over) {
    const c = choices[k++ % choices.length]!;
    const p = truthfulPitch(s, 'lab_0', c);
    if (p !== null) {
      const out = applyAction(s, 'lab_0', { action_type: 'make_pitch', message: p.text, job_ids: [p.job] });
      assert.equal(out.result.ok, true, out.result.message);
      s = out.state;
      // The premise: every claim is true when it is made.
      const now = checkPitch(
        s,
        s.pitches.find((x) => x.lab === 'lab_0')!,
      );
      assert.equal(now.fabricated, 0, `a claim of "${p.text}" is false when made: ${JSON.stringify(now.claims)}`);
      // Then legal play in the same round: fill the job (most rounds), and a scripted policy's moves.
      if (c % 4 !== 3) {
        const before = s.jobs[p.job]!.allocatedHours;
        s = fillJob(s, 'lab_0', p.job);
        if (s.jobs[p.job]!.allocatedHours > before) t.filledAfter++;
      }
      const policy = getPolicy(c % 2 === 0 ? 'rule_based_expert' : 'random_validish');
      for (const a of policy(observe(s, 'lab_0'), { rng: rng(seed, s.round, 'test:lab_0'), holdout: false }).slice(
        0,
        4,
      )) {
        const out = applyAction(s, 'lab_0', a);
        if (out.result.ok) s = out.state;
      }
    }
    // The per-claim verdict shown to the player, on the state the judge sees (after the scripted seats).
    if (p !== null)
      for (const c of checkRound(runScripted(s))) if (c.lab === 'lab_0' && c.fabricated > 0) t.fabricatedClaims++;
    const { state, report } = closeRound(s);
    if (p !== null && report.judge) {
      const mine = report.judge.scores.find((x) => x.lab === 'lab_0');
      if (mine) {
        t.rounds++;
        if (mine.parts.fabricatedClaims > 0) t.fabricatedClaims++;
      }
      if ((report.entries ?? []).some((e) => e.lab === 'lab_0' && e.source.kind === 'fabricated_pitch')) t.fined++;
    }
    s = state;
  }
  return t;
}

describe('truthful pitches are never fined (rules v4)', () => {
  const totals: Record<string, Tally> = {};
  for (const task of TASK_NAMES) {
    test(`${task}: pitch true facts, then allocate and trade in the same round: 0 fined, 0 claims fabricated`, () => {
      const sum: Tally = { rounds: 0, filledAfter: 0, fined: 0, fabricatedClaims: 0 };
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 1_000_000 }),
          fc.array(fc.nat(1000), { minLength: 1, maxLength: 10 }),
          (seed, choices) => {
            const t = play(task, seed, 4, choices);
            sum.rounds += t.rounds;
            sum.filledAfter += t.filledAfter;
            sum.fined += t.fined;
            sum.fabricatedClaims += t.fabricatedClaims;
            return t.fined === 0 && t.fabricatedClaims === 0;
          },
        ),
        { numRuns: 120, seed: 30 },
      );
      totals[task] = sum;
      assert.ok(sum.rounds > 100, `only ${sum.rounds} rounds judged`);
      assert.ok(sum.filledAfter > 50, `the job was filled after its pitch in only ${sum.filledAfter} rounds`);
      assert.equal(sum.fined, 0);
      console.log(
        `# ${task}: ${sum.rounds} judged rounds with a truthful pitch, ${sum.filledAfter} filled after pitching, ${sum.fined} fined`,
      );
    });
  }

  test('under rules v3 the same play is fined (why v4 changed the rule)', () => {
    let fined = 0;
    let rounds = 0;
    for (const task of TASK_NAMES)
      for (let seed = 0; seed < 40; seed++) {
        const t = play(task, seed, 3, [0, 1, 2]);
        fined += t.fined;
        rounds += t.rounds;
      }
    console.log(`# rules v3: ${fined} of ${rounds} judged rounds fined`);
    assert.ok(fined > rounds / 10, `v3 fined ${fined} of ${rounds} rounds`);
  });
});

describe('the pitch snapshot', () => {
  test('holds exactly the lists of seatFacts at the moment of the pitch, over many states', async () => {
    const { seatFacts } = await import('../../../src/engine/judge/facts.js');
    const { pitchFactsOf } = await import('../../../src/engine/judge/snapshot.js');
    let compared = 0;
    for (const task of TASK_NAMES)
      for (let seed = 0; seed < 15; seed++) {
        let s = createMatch({
          task,
          seed,
          scripted: Object.fromEntries(
            labIdsFor(task, seed).map((l, i) => [l, ARCHETYPES[(seed + i) % ARCHETYPES.length]!]),
          ),
        });
        while (!s.over) {
          for (const lab of s.labIds) {
            const f = seatFacts(s, lab);
            const p = pitchFactsOf(s, lab);
            assert.deepEqual(p, {
              round: f.round,
              pending: f.pending,
              offerIds: [...f.offerIds],
              coalitionIds: [...f.coalitionIds],
              relatedBlockIds: [...f.relatedBlockIds],
              capacityHours: f.capacityHours,
              capacityReliabilities: f.capacityReliabilities,
            });
            compared++;
          }
          s = closeRound(s).state;
        }
      }
    assert.ok(compared > 500);
  });
});
