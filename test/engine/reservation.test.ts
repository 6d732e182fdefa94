/**
 * What a reservation buys (docs/RULES.md §3.7, §5): a block reserved for a pending job of its owner is
 * shielded from capacity_failure; a reservation for the lab (no job) is not; an idle one still costs.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeRound } from '../../src/engine/index.js';
import type { MatchState } from '../../src/engine/index.js';
import { edit, fixture, must } from './helpers.js';

const failureAt0 = () => edit(fixture(), (d) => void (d.shockSchedule = [{ round: 0, kind: 'capacity_failure' }]));
/** Reserve every block of every lab for its first job, except `except`. */
function reserveAll(s: MatchState, except: string | null, jobId = (lab: string) => `j_${lab.slice(4)}_0` as string | null): MatchState {
  for (const lab of s.labIds) {
    const ids = Object.values(s.blocks).filter((b) => b.owner === lab && b.id !== except).map((b) => b.id);
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
    const { report } = closeRound(reserveAll(failureAt0(), null, () => null), { judge: null });
    assert.equal(report.shocks[0]!.blockIds.length, 1);
  });
});
