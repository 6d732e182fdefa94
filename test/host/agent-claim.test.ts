/**
 * An LLM seat's turn runs in one process only: two hosts resuming the same match (e.g. Discord shards started
 * at once, on one database) claim the turn in the store, so the model is asked once and its actions land
 * once; a host that lost the claim takes the turn over only if the claimant died before the seat was done.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SeatAgent } from '../../src/agents/seat.js';
import { FakeClock } from '../../src/host/index.js';
import { TURN_TAKEOVER_MARGIN_MS } from '../../src/host/agent-turn.js';
import { openStore } from '../../src/store/index.js';
import { harness, person, tempDb, unwrap } from './helpers.js';

const ada = person('ada');
const TIMEOUT = 30_000;

/** An agent that counts its calls and answers only when released. */
function gatedAgent() {
  let calls = 0;
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => (release = r));
  const agent: SeatAgent = {
    act: async () => {
      calls++;
      await gate;
      return [{ action_type: 'send_message', message: 'one turn, one message' }];
    },
  };
  return { agent, calls: () => calls, release: () => release() };
}

const messagesOf = async (h: Awaited<ReturnType<typeof harness>>, id: string) =>
  ((await h.host.current(id))?.state?.messages ?? []).filter((m) => m.text === 'one turn, one message').length;

describe('agent turns across processes', () => {
  test('a second host resuming the match does not ask the model again while the first one holds the turn', async () => {
    const db = tempDb();
    const clock = new FakeClock();
    const a = gatedAgent();
    const b = gatedAgent();
    try {
      const one = await harness({
        store: await openStore({ sqlitePath: db.path }),
        clock,
        agentFor: () => a.agent,
        agentTimeoutMs: TIMEOUT,
      });
      unwrap(await one.host.create('c1', 'console', ada, { task: 'single_trade', seed: 3, roundSeconds: 0 }));
      unwrap(await one.host.join('c1', ada, 'lab_0'));
      unwrap(await one.host.assign('c1', ada, 'lab_1', { kind: 'llm', model: 'fake' }));
      unwrap(await one.host.start('c1', ada));
      await new Promise((r) => setImmediate(r));
      assert.equal(a.calls(), 1, 'the first host asked the model');

      const two = await harness({
        store: await openStore({ sqlitePath: db.path }),
        clock,
        agentFor: () => b.agent,
        agentTimeoutMs: TIMEOUT,
      });
      assert.equal(await two.host.restore(), 1);
      a.release();
      await one.host.idle();
      await clock.advance(TIMEOUT + TURN_TAKEOVER_MARGIN_MS);
      await two.host.idle();
      assert.equal(b.calls(), 0, 'the second host never asked the model: the seat was done when it looked again');
      assert.equal(await messagesOf(two, 'c1'), 1, "the turn's actions landed once");
      await one.host.stop();
      await two.host.stop();
    } finally {
      db.cleanup();
    }
  });

  test('a host takes the turn over when the claimant died before the seat was done', async () => {
    const db = tempDb();
    const clock = new FakeClock();
    const a = gatedAgent();
    const b = gatedAgent();
    b.release();
    try {
      const store1 = await openStore({ sqlitePath: db.path });
      const one = await harness({ store: store1, clock, agentFor: () => a.agent, agentTimeoutMs: TIMEOUT });
      unwrap(await one.host.create('c2', 'console', ada, { task: 'single_trade', seed: 3, roundSeconds: 0 }));
      unwrap(await one.host.join('c2', ada, 'lab_0'));
      unwrap(await one.host.assign('c2', ada, 'lab_1', { kind: 'llm', model: 'fake' }));
      unwrap(await one.host.start('c2', ada));
      await new Promise((r) => setImmediate(r));
      assert.equal(a.calls(), 1);
      // The first process dies with the turn claimed and unanswered.
      void one.host.stop();
      await store1.close().catch(() => {});

      const two = await harness({
        store: await openStore({ sqlitePath: db.path }),
        clock,
        agentFor: () => b.agent,
        agentTimeoutMs: TIMEOUT,
      });
      assert.equal(await two.host.restore(), 1);
      await new Promise((r) => setImmediate(r));
      assert.equal(b.calls(), 0, 'not while the claimant might still answer');
      await clock.advance(TIMEOUT + TURN_TAKEOVER_MARGIN_MS);
      await two.host.idle();
      assert.equal(b.calls(), 1, 'taken over after the timeout and the margin');
      const m = (await two.host.current('c2'))!;
      assert.ok(m.done.includes('lab_1'), 'the seat is done');
      assert.equal(await messagesOf(two, 'c2'), 1);
      await two.host.stop();
    } finally {
      db.cleanup();
    }
  });
});
