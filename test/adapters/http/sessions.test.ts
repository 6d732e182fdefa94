/** The session store on its own: serialisation per session, independence across sessions, cap and idle TTL. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionStore } from '../../../src/adapters/http/sessions.js';
import { SingleSeatPlay } from '../../../src/adapters/http/play.js';

const play = () => new SingleSeatPlay({ task: 'single_trade', seed: 1, holdout: false, actionsPerRound: 1, invalidActions: 'reject', judgeMode: null }, 'lab_0');
const tick = () => new Promise<void>((r) => setImmediate(r));

describe('SessionStore', () => {
  test('calls on one session never interleave, even when they await; other sessions run meanwhile', async () => {
    const store = new SessionStore({ maxSessions: 4, idleTtlMs: 1000 });
    const a = store.add(play());
    const b = store.add(play());
    const log: string[] = [];
    const job = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      await tick();
      log.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([store.run(a, job('a1')), store.run(a, job('a2')), store.run(b, job('b1'))]);
    assert.deepEqual(results, ['a1', 'a2', 'b1']);
    const i = (s: string) => log.indexOf(s);
    assert.ok(i('a1 end') < i('a2 start'), log.join(', '));
    assert.ok(i('b1 start') < i('a1 end'), `b runs while a1 waits: ${log.join(', ')}`);
  });

  test('a failing call does not block the next one on the session', async () => {
    const store = new SessionStore({ maxSessions: 4, idleTtlMs: 1000 });
    const s = store.add(play());
    await assert.rejects(store.run(s, () => Promise.reject(new Error('boom'))), /boom/);
    assert.equal(await store.run(s, () => 'next'), 'next');
  });

  test('a call queued behind another on a session deleted meanwhile is a 404, not a call on a dead session', async () => {
    const store = new SessionStore({ maxSessions: 4, idleTtlMs: 1000 });
    const s = store.add(play());
    let ran = false;
    const first = store.run(s, async () => {
      await tick();
      store.delete(s.id);
    });
    const second = store.run(s, () => {
      ran = true;
    });
    await first;
    await assert.rejects(second, (e: { code?: string; status?: number }) => e.code === 'unknown_session' && e.status === 404);
    assert.equal(ran, false);
    assert.equal(store.size, 0);
  });

  test('deleted and expired sessions are gone with their tokens; a self-play session is never the default one', () => {
    let now = 0;
    const store = new SessionStore({ maxSessions: 4, idleTtlMs: 1000, now: () => now });
    const single = store.add(play());
    const self = store.add(play(), ['lab_0', 'lab_1']);
    assert.equal(store.get(undefined).id, single.id);
    const token = self.tokens.get('lab_1')!;
    assert.equal(store.byToken(token).seat, 'lab_1');
    now = 2000;
    assert.equal(store.sweep(), 2);
    assert.equal(store.size, 0);
    assert.throws(() => store.byToken(token), (e: { code?: string }) => e.code === 'unknown_token');
    assert.throws(() => store.get(undefined), (e: { code?: string }) => e.code === 'unknown_session');
  });

  test('cap, idle expiry on the injected clock, and the default (latest) session', () => {
    let now = 0;
    const store = new SessionStore({ maxSessions: 2, idleTtlMs: 1000, now: () => now });
    const a = store.add(play());
    now = 600;
    const b = store.add(play());
    assert.throws(() => store.add(play()), (e: { code?: string; status?: number }) => e.code === 'too_many_sessions' && e.status === 503);
    assert.equal(store.get(undefined).id, b.id, 'sessionless calls address the latest reset');
    now = 1500;
    assert.throws(() => store.get(a.id), (e: Error & { code?: string }) => e.code === 'unknown_session' && /expired after 1 s idle/.test(e.message));
    assert.equal(store.get(b.id).id, b.id, 'b was used at 600: still alive at 1500');
    assert.ok(store.add(play()), 'the expired one made room');
    assert.throws(() => store.get('nope'), (e: Error) => /never created/.test(e.message));
  });
});
