/**
 * What an interaction carries for its caller, and what goes back to the inbox when the answer fails: the
 * held posts and the caller's new ones, in order, but only for a failure that may pass (a rejected payload
 * would fail again at every later interaction of that person).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ButtonIds } from '../../../src/adapters/discord/render.js';
import { MemoryInbox } from '../../../src/adapters/discord/inbox.js';
import { answer, planMessages, transientAnswerError, type Repliable } from '../../../src/adapters/discord/deliver.js';
import { mergeReplies } from '../../../src/chat/reply.js';

test('planMessages carries the held posts then the new ones; others go to their inboxes', async () => {
  const inbox = new MemoryInbox();
  await inbox.add('c1', [{ userId: 'u1', text: 'held from the round close' }]);
  const plan = await planMessages(
    {
      public: [{ text: 'public' }],
      private: [
        { userId: 'u1', text: 'your new post' },
        { userId: 'u2', text: "someone else's" },
      ],
    },
    'u1',
    'c1',
    inbox,
    new ButtonIds(),
  );
  assert.deepEqual(
    plan.taken.map((p) => p.text),
    ['held from the round close', 'your new post'],
  );
  assert.equal(plan.mine.length, 2);
  assert.deepEqual(
    (await inbox.take('u2', 'c1')).map((p) => p.text),
    ["someone else's"],
  );
  assert.deepEqual(await inbox.take('u1', 'c1'), [], 'taken for this answer');
  // Held per channel: a command in another channel neither shows nor takes them.
  await inbox.add('c1', [{ userId: 'u1', text: 'Lab A offers you o_1 (channel c1)' }]);
  const elsewhere = await planMessages(
    { public: [{ text: 'status in c2' }], private: [] },
    'u1',
    'c2',
    inbox,
    new ButtonIds(),
  );
  assert.deepEqual(elsewhere.taken, [], "channel c1's post is not shown in c2");
  assert.deepEqual(
    (await inbox.take('u1', 'c1')).map((p) => p.text),
    ['Lab A offers you o_1 (channel c1)'],
  );
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

/** A stand-in interaction that records what was sent, in order (the calls discord.js would make). */
function recorder(deferred: boolean) {
  const calls: string[] = [];
  const text = (p: { content?: string; embeds?: { description?: string }[]; flags?: number }) =>
    `${p.flags ? 'ephemeral' : 'public'}: ${p.embeds?.[0]?.description ?? p.content ?? ''}`;
  const i = {
    deferred,
    replied: false,
    reply: async (p: never) => void calls.push(`reply ${text(p)}`),
    editReply: async (p: never) => void calls.push(`editReply ${text(p)}`),
    deleteReply: async () => void calls.push('deleteReply'),
    followUp: async (p: never) => void calls.push(`followUp ${text(p)}`),
  };
  return { i: i as unknown as Repliable, calls };
}

test('answer keeps the reply order: the caller\'s "Allocated …" before the round close it set off', async () => {
  const reply = mergeReplies(
    { public: [], private: [{ userId: 'u1', text: 'Allocated b_0_1 to j_0_0.' }] },
    {
      public: [{ text: 'Round 3 closed' }, { text: 'Round 4 is open' }],
      private: [{ userId: 'u1', text: 'your round 3 reward' }],
    },
  );
  for (const deferred of [true, false]) {
    const plan = await planMessages(reply, 'u1', 'c1', new MemoryInbox(), new ButtonIds());
    const { i, calls } = recorder(deferred);
    await answer(i, plan);
    const sent = [
      'ephemeral: Allocated b_0_1 to j_0_0.',
      'public: Round 3 closed',
      'public: Round 4 is open',
      'ephemeral: your round 3 reward',
    ];
    // A deferred (public) placeholder cannot become ephemeral: it is deleted and everything follows in order.
    assert.deepEqual(
      calls,
      deferred
        ? ['deleteReply', ...sent.map((x) => `followUp ${x}`)]
        : [`reply ${sent[0]}`, ...sent.slice(1).map((x) => `followUp ${x}`)],
    );
  }
  // Posts held in the inbox follow the command's own public answer (they are the "My private update").
  const inbox = new MemoryInbox();
  await inbox.add('c1', [{ userId: 'u1', text: 'briefing held since the start' }]);
  const held = await planMessages(
    mergeReplies({ public: [{ text: 'status: round 1/5' }], private: [] }),
    'u1',
    'c1',
    inbox,
    new ButtonIds(),
  );
  const h = recorder(false);
  await answer(h.i, held);
  assert.deepEqual(h.calls, ['reply public: status: round 1/5', 'followUp ephemeral: briefing held since the start']);
  // Without an order (a reply never merged), public posts come first, as before.
  const plain = await planMessages(
    { public: [{ text: 'Round 3 closed' }], private: [{ userId: 'u1', text: 'mine' }] },
    'u1',
    'c1',
    new MemoryInbox(),
    new ButtonIds(),
  );
  const { i, calls } = recorder(true);
  await answer(i, plain);
  assert.deepEqual(calls, ['editReply public: Round 3 closed', 'followUp ephemeral: mine']);
});
