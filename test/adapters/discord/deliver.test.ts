/**
 * What an interaction carries for its caller, and what goes back to the inbox when the answer fails: the
 * held posts and the caller's new ones, in order, but only for a failure that may pass (a rejected payload
 * would fail again at every later interaction of that person).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ButtonIds } from '../../../src/adapters/discord/render.js';
import { MemoryInbox } from '../../../src/adapters/discord/inbox.js';
import { planMessages, transientAnswerError } from '../../../src/adapters/discord/deliver.js';

test('planMessages carries the held posts then the new ones; others go to their inboxes', async () => {
  const inbox = new MemoryInbox();
  await inbox.add([{ userId: 'u1', text: 'held from the round close' }]);
  const plan = await planMessages(
    { public: [{ text: 'public' }], private: [{ userId: 'u1', text: 'your new post' }, { userId: 'u2', text: "someone else's" }] },
    'u1',
    inbox,
    new ButtonIds(),
  );
  assert.deepEqual(plan.taken.map((p) => p.text), ['held from the round close', 'your new post']);
  assert.equal(plan.mine.length, 2);
  assert.deepEqual((await inbox.take('u2')).map((p) => p.text), ["someone else's"]);
  assert.deepEqual(await inbox.take('u1'), [], 'taken for this answer');
});

test('transientAnswerError: network, 5xx, 429 and expired interactions may pass; a rejected payload does not', () => {
  assert.equal(transientAnswerError(new Error('socket hang up')), true);
  assert.equal(transientAnswerError({ status: 503 }), true);
  assert.equal(transientAnswerError({ status: 429 }), true);
  assert.equal(transientAnswerError({ status: 404, code: 10062 }), true);
  assert.equal(transientAnswerError({ status: 400, code: 40060 }), true);
  assert.equal(transientAnswerError({ status: 400, code: 50035 }), false);
  assert.equal(transientAnswerError({ status: 403, code: 50001 }), false);
});
