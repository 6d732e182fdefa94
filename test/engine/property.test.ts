/**
 * Property-based tests (fast-check): random and hostile action sequences from every seat on every task,
 * with round closes interleaved. After every step: the ledger balances, blocks have one lab owner and are
 * used at most once, budgets ≥ 0, every number is finite, rewards are bounded, Σ step + close rewards of
 * each externally driven seat equals its cumulative reward; at every close: observations stay private.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyAction, closeRound, createMatch, labIdsFor, POLICY_NAMES, TASK_NAMES } from '../../src/engine/index.js';
import type { MatchState, PolicyName, TaskName } from '../../src/engine/index.js';
import { assertInvariants } from './helpers.js';
import { assertPrivate } from './privacy.js';
import { buildAction, step } from './arbitraries.js';
import type { Step } from './arbitraries.js';

/**
 * Sequences per task: 3 × 3,400 = 10,200 in the default run; `npm run bench:fuzz` sets
 * ARENA_FUZZ_RUNS_PER_TASK (default there 33,334: 100,002 sequences), outside CI's time.
 */
const RUNS_PER_TASK = Number(process.env['ARENA_FUZZ_RUNS_PER_TASK'] ?? '') || 3400;
const MAX_STEPS = 20;

function run(task: TaskName, seed: number, scriptedPolicy: PolicyName | null, steps: Step[]): void {
  const labs = labIdsFor(task, seed);
  const scripted: Record<string, PolicyName> = scriptedPolicy ? { [labs[labs.length - 1]!]: scriptedPolicy } : {};
  let s: MatchState = createMatch({ task, seed, scripted });
  const sums: Record<string, number> = Object.fromEntries(labs.map((l) => [l, 0]));
  const check = () => {
    assertInvariants(s);
    for (const lab of labs) {
      if (scripted[lab]) continue;
      assert.ok(
        Math.abs(sums[lab]! - s.seats[lab]!.cumulativeReward) < 1e-6,
        `${lab}: Σ rewards ${sums[lab]} ≠ cumulative ${s.seats[lab]!.cumulativeReward}`,
      );
    }
  };
  for (const st of steps) {
    if (st.kind !== 'close') {
      const lab =
        st.seat < labs.length || st.kind === 'smart' || st.seat === 4 ? labs[st.seat % labs.length]! : 'lab_7';
      const out = applyAction(s, lab, st.kind === 'act' ? st.action : buildAction(s, lab, st.smart));
      const r = out.result.reward.normalized_reward;
      assert.ok(r >= -1 && r <= 1, `step reward ${r}`);
      if (!out.result.ok) assert.equal(out.result.reward.normalized_reward <= 0, true, 'a failed action earns nothing');
      if (lab in sums) sums[lab]! += r;
      s = out.state;
    } else {
      const { state, report } = closeRound(s, st.judge === 'rule' ? {} : { judge: null });
      s = state;
      for (const lab of labs) {
        const r = report.rewards[lab]!.normalized_reward;
        assert.ok(r >= -1 && r <= 1, `close reward ${r}`);
        sums[lab]! += r;
      }
      for (const lab of labs) assertPrivate(s, lab);
    }
    check();
  }
  for (const lab of labs) assertPrivate(s, lab);
}

describe('property: hostile sequences keep every invariant', () => {
  for (const task of TASK_NAMES) {
    test(`${task}: ${RUNS_PER_TASK} random sequences`, () => {
      fc.assert(
        fc.property(
          fc.nat({ max: 1_000_000 }),
          fc.option(fc.constantFrom(...POLICY_NAMES), { freq: 4 }),
          fc.array(step, { minLength: 1, maxLength: MAX_STEPS }),
          (seed, policy, steps) => run(task, seed, policy, steps),
        ),
        { numRuns: RUNS_PER_TASK },
      );
    });
  }
});
