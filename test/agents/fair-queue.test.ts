/**
 * A fair share of the model per match: the client's process-wide limit (`llm.maxConcurrent`) is shared
 * round-robin between matches (src/llm/fair-queue.ts), so a busy match cannot starve another, and a match
 * alone may use every slot. Order only (which call starts next), never time.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { FairQueue } from '../../src/llm/fair-queue.js';
import { startOpenAiEmulator, type OpenAiEmulator } from '../emulators/openai.js';
import { waitUntil } from '../support/wait.js';
import { emuClient } from './helpers.js';

/** A task that starts when the queue runs it and ends when the test says so. */
function gated(name: string, started: string[]): { run: () => Promise<string>; finish: () => void } {
  let finish: () => void = () => {};
  const done = new Promise<void>((r) => (finish = r));
  return {
    run: async () => {
      started.push(name);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

describe('a fair share of the model per match', () => {
  test('a match alone uses every slot; when another match waits, freed slots alternate between them', async () => {
    const started: string[] = [];
    const q = new FairQueue(2);
    const a = ['a1', 'a2', 'a3', 'a4'].map((n) => gated(n, started));
    const runs = a.map((t) => q.run('A', t.run));
    await waitUntil('two of A to start', () => started.length === 2);
    assert.deepEqual(started, ['a1', 'a2'], 'A alone takes both slots');
    const b = ['b1', 'b2'].map((n) => gated(n, started));
    runs.push(...b.map((t) => q.run('B', t.run)));
    assert.equal(q.running, 2);
    assert.equal(q.queued, 4);
    a[0]!.finish();
    await waitUntil('the next start', () => started.length === 3);
    assert.equal(started[2], 'b1', "B's first call goes before A's third: B waited");
    a[1]!.finish();
    await waitUntil('the next start', () => started.length === 4);
    assert.equal(started[3], 'a3');
    b[0]!.finish();
    await waitUntil('the next start', () => started.length === 5);
    assert.equal(started[4], 'b2');
    for (const t of [...a, ...b]) t.finish();
    assert.deepEqual(
      await Promise.all(runs),
      ['a1', 'a2', 'a3', 'a4', 'b1', 'b2'],
      'every call resolves with its own result',
    );
    await waitUntil('the queue to empty', () => q.running + q.queued === 0);
  });

  test('a failing call rejects its own caller only and frees its slot', async () => {
    const q = new FairQueue(1);
    const bad = q.run('A', async () => Promise.reject(new Error('boom')));
    const good = q.run('A', async () => 'ok');
    await assert.rejects(bad, /boom/);
    assert.equal(await good, 'ok');
  });

  describe('through the LLM client and the emulator', () => {
    let emu: OpenAiEmulator;
    /** The replies held so far; `release` answers them, later requests wait for the next release. */
    const deferred = () => {
      let resolve: () => void = () => {};
      const promise = new Promise<void>((r) => (resolve = r));
      return { promise, resolve };
    };
    let held = deferred();
    const release = () => {
      const go = held;
      held = deferred();
      go.resolve();
    };
    before(async () => {
      emu = await startOpenAiEmulator({ responder: () => ({ content: '{"ok":true}', until: held.promise }) });
    });
    after(() => emu.close());

    test("with llm.maxConcurrent 2, match B's call reaches the model before match A's third", async () => {
      const client = emuClient(emu, { maxConcurrent: 2, responseFormat: 'json_schema' });
      const ask = (matchId: string, model: string) =>
        client.structured({
          role: 'agent',
          model,
          messages: [{ role: 'user', content: 'hi' }],
          schema: z.object({ ok: z.boolean() }),
          name: 'x',
          matchId,
        });
      const n0 = emu.chatRequests().length;
      const calls = [ask('mA', 'a'), ask('mA', 'a'), ask('mA', 'a'), ask('mA', 'a')];
      await waitUntil('two calls at the model', () => emu.chatRequests().length - n0 === 2);
      calls.push(ask('mB', 'b'));
      release();
      await waitUntil('all five calls at the model', async () => {
        if (emu.chatRequests().length - n0 < 5) release();
        return emu.chatRequests().length - n0 === 5;
      });
      release();
      const results = await Promise.all(calls);
      assert.ok(results.every((r) => r.ok));
      const order = emu
        .chatRequests()
        .slice(n0)
        .map((r) => r.body?.model);
      assert.deepEqual(order.slice(0, 2), ['a', 'a']);
      assert.equal(order[2], 'b', `B's call is the next to go out: ${order.join(',')}`);
    });
  });
});
