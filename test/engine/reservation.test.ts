/**
 * What a reservation buys (docs/RULES.md §3.7, §5): a block reserved for a pending job of its owner is
 * shielded from capacity_failure; a reservation for the lab (no job) is not; an idle one still costs.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyAction, closeRound, createMatch, observe, rng } from '../../src/engine/index.js';
import type { MatchState } from '../../src/engine/index.js';
import { defaultOpponents } from '../../src/engine/gym.js';
import { getPolicy } from '../../src/engine/policies/index.js';
import { edit, fixture, must } from './helpers.js';

const failureAt0 = () => edit(fixture(), (d) => void (d.shockSchedule = [{ round: 0, kind: 'capacity_failure' }]));
/** Reserve every block of every lab for its first job, except `except`. */
function reserveAll(
  s: MatchState,
  except: string | null,
  jobId = (lab: string) => `j_${lab.slice(4)}_0` as string | null,
): MatchState {
  for (const lab of s.labIds) {
    const ids = Object.values(s.blocks)
      .filter((b) => b.owner === lab && b.id !== except)
      .map((b) => b.id);
    s = must(s, lab, { action_type: 'reserve_capacity', block_ids: ids, job_id: jobId(lab) });
  }
  return s;
}

describe('reservations and capacity failures', () => {
  test('the failure can only hit capacity not reserved for a job', () => {
    for (const spare of ['b_0_2', 'b_1_0', 'b_2_1']) {
      const { state, report } = closeRound(reserveAll(failureAt0(), spare), { judge: null });
      assert.deepEqual(report.shocks[0]!.blockIds, [spare]);
      assert.equal(state.blocks[spare]!.status, 'failed');
    }
  });
  test('with every block reserved for a job, the failure hits nothing', () => {
    const { state, report } = closeRound(reserveAll(failureAt0(), null), { judge: null });
    assert.deepEqual(report.shocks[0]!.blockIds, []);
    assert.match(report.shocks[0]!.text, /reserved for jobs/);
    assert.ok(Object.values(state.blocks).every((b) => b.status !== 'failed'));
  });
  test('a reservation for the lab (no job) does not shield', () => {
    const { report } = closeRound(
      reserveAll(failureAt0(), null, () => null),
      { judge: null },
    );
    assert.equal(report.shocks[0]!.blockIds.length, 1);
  });
});

describe('idle reservations in the reward ledger', () => {
  // Blocks are released at settlement through the close's draft. When that draft had already copied a
  // block (a shock earlier in the same close wrote it), the entry used to read the job id after clearing it.
  test('every idle_reservation entry names the job the block was reserved for (null: reserved for the lab)', () => {
    const policy = getPolicy('reserve_only');
    let entries = 0;
    let named = 0;
    for (const task of ['market_round', 'coalition_market'] as const) {
      for (let seed = 0; seed < 120; seed++) {
        let s = createMatch({ task, seed, scripted: defaultOpponents(task, seed, 'lab_0') });
        while (!s.over) {
          const action = policy(observe(s, 'lab_0'), {
            rng: rng(seed, s.round, 'policy:lab_0'),
            holdout: false,
          })[0] ?? { action_type: 'wait' };
          s = applyAction(s, 'lab_0', action).state;
          // What lab_0's blocks are reserved for as the round closes (no other seat can change it).
          const before = new Map(
            Object.values(s.blocks)
              .filter((b) => b.owner === 'lab_0')
              .map((b) => [b.id, b.reservedFor]),
          );
          const { state, report } = closeRound(s);
          for (const e of report.entries ?? []) {
            if (e.lab !== 'lab_0' || e.source.kind !== 'idle_reservation') continue;
            entries++;
            const holder = before.get(e.source.blockId);
            const expected = holder !== undefined && holder !== null && Object.hasOwn(s.jobs, holder) ? holder : null;
            if (expected !== null) named++;
            assert.equal(e.source.jobId, expected, `${task} seed ${seed} round ${report.round}: ${JSON.stringify(e)}`);
          }
          s = state;
        }
      }
    }
    assert.ok(
      entries > 1000 && named > 500,
      `reserve_only leaves reservations idle (${entries} entries, ${named} for a job)`,
    );
  });
});
