/**
 * The engine checks a person's action under the match's lock, against the state it changes: two presses
 * of Accept at once log one accept and answer the second with a private error, and nothing is penalised.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alice, bob, started } from './harness.js';

test('two simultaneous accepts: one logged, the other a clear error, no invalid-action penalty', async () => {
  const a = await started();
  const r0 = await a.run(alice, 'offer to:lab_1 pay:2');
  assert.equal(r0.error, undefined);
  const before = await a.state();
  const [x, y] = await Promise.all([a.run(bob, 'accept offer:o_1'), a.run(bob, 'accept offer:o_1')]);
  const errors = [x, y].filter((r) => r.error);
  assert.equal(errors.length, 1, 'exactly one press fails');
  assert.equal(errors[0]!.error!.code, 'inactive_offer');
  assert.ok(
    errors[0]!.private.every((p) => p.userId === bob.userId),
    'the error is private to the presser',
  );
  const events = await a.store.load(a.matchId!);
  const accepts = events.filter(
    (e) => e.body.type === 'action' && (e.body.action as { action_type?: string }).action_type === 'accept_offer',
  );
  assert.equal(accepts.length, 1, 'one accept in the log');
  const after = await a.state();
  assert.equal(after.seats.lab_1!.invalidActions, before.seats.lab_1!.invalidActions);
  assert.equal(
    after.seats.lab_1!.roundReward.invalid_action_penalty,
    before.seats.lab_1!.roundReward.invalid_action_penalty,
  );
  await a.close();
});
