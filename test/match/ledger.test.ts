import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyAction, closeRound, createMatch, labIdsFor, observe, rng } from '../../src/engine/index.js';
import { POLICIES } from '../../src/engine/policies/index.js';
import { TASK_NAMES, type MatchState, type PolicyName } from '../../src/engine/types.js';
import { emptyLedger, ledgerClose, ledgerStep, ledgerSum, seatEntries, type Ledger } from '../../src/match/ledger.js';

/**
 * Plays one match: lab_0 is "driven" (its policy's actions go through applyAction as steps, with some
 * malformed, repeated and early-finish actions mixed in), every other seat is scripted.
 */
function play(
  task: (typeof TASK_NAMES)[number],
  seed: number,
  driver: PolicyName,
  others: PolicyName,
): { state: MatchState; ledger: Ledger } {
  const labs = labIdsFor(task, seed);
  const scripted: Record<string, PolicyName> = {};
  for (const lab of labs.slice(1)) scripted[lab] = others;
  let state = createMatch({ task, seed, scripted });
  let ledger = emptyLedger();
  let seq = 1;
  const policy = POLICIES.find((p) => p.name === driver)!.policy;
  const chaos = rng(seed, 0, 'ledger-test');
  while (!state.over) {
    const lab = 'lab_0';
    if (!state.labs[lab]!.finished) {
      const actions: unknown[] = [
        ...policy(observe(state, lab), { rng: rng(seed, state.round, 'driver'), holdout: false }),
      ];
      const roll = chaos();
      if (roll < 0.1) actions.push('{not json');
      else if (roll < 0.2 && actions.length > 0) actions.push(actions[0], actions[0]);
      else if (roll < 0.25) actions.push({ action_type: 'finish' });
      for (const a of actions) {
        const round = state.round;
        const out = applyAction(state, lab, a);
        state = out.state;
        const type =
          typeof a === 'object' && a !== null ? String((a as { action_type?: unknown }).action_type) : 'malformed';
        ledger = ledgerStep(ledger, seq++, round, lab, type, out.result);
        if (state.over || state.labs[lab]!.finished) break;
      }
    }
    if (state.over) break;
    const closed = closeRound(state);
    state = closed.state;
    ledger = ledgerClose(ledger, seq++, closed.report);
  }
  return { state, ledger };
}

describe('reward ledger', () => {
  test("each seat's entries sum to its cumulative reward (every task, every policy, many seeds)", () => {
    let matches = 0;
    let entries = 0;
    const columns = new Set<string>();
    for (const task of TASK_NAMES) {
      for (const [i, info] of POLICIES.entries()) {
        const others = POLICIES[(i + 3) % POLICIES.length]!.name;
        for (let seed = 0; seed < 6; seed++) {
          const { state, ledger } = play(task, seed * 7 + i, info.name, others);
          matches += 1;
          entries += ledger.entries.length;
          for (const lab of state.labIds) {
            const mine = seatEntries(ledger, lab);
            for (const e of mine) columns.add(e.column);
            const total = state.seats[lab]!.cumulativeReward;
            assert.ok(
              Math.abs(ledgerSum(mine) - total) < 1e-6,
              `${task} ${info.name} seed ${seed} ${lab}: ledger ${ledgerSum(mine)} vs cumulative ${total}`,
            );
            assert.ok(
              !mine.some((e) => e.source.kind === 'unexplained'),
              `${task} ${info.name} ${lab}: unexplained reward`,
            );
          }
          assert.deepEqual(Object.values(ledger.pending).flat(), [], 'every earned entry is paid by the end');
        }
      }
    }
    assert.ok(matches >= 3 * POLICIES.length * 6);
    assert.ok(entries > 1000, `only ${entries} entries`);
    // The matches exercise most columns (so the sum is not trivially 0 = 0).
    for (const c of [
      'job_utility',
      'deal_quality',
      'budget_efficiency',
      'invalid_action_penalty',
      'spam_penalty',
      'negotiation_efficiency',
    ])
      assert.ok(columns.has(c), `no ${c} entry`);
  });
});
