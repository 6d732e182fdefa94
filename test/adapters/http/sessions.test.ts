/**
 * The session store on its own: serialisation per session, independence across sessions, the default
 * session that sessionless resets replace, the per-client and global caps, idle TTL, lifecycle events.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionStore, type SessionEvent } from '../../../src/adapters/http/sessions.js';
import { SingleSeatPlay } from '../../../src/adapters/http/play.js';

const play = () =>
  new SingleSeatPlay(
    { task: 'single_trade', seed: 1, holdout: false, actionsPerRound: 1, invalidActions: 'reject', judgeMode: null },
    'lab_0',
  );
const tick = () => new Promise<void>((r) => setImmediate(r));

describe('SessionStore', () => {
  test('calls on one session never interleave, even when they await; other sessions run meanwhile', async () => {
    const store = new SessionStore({ maxSessions: 4, maxSessionsPerClient: 4, idleTtlMs: 1000 });
    const a = store.add(play(), 'c1');
    const b = store.add(play(), 'c1');
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
    const store = new SessionStore({ maxSessions: 4, maxSessionsPerClient: 4, idleTtlMs: 1000 });
    const s = store.add(play(), 'c1');
    await assert.rejects(
      store.run(s, () => Promise.reject(new Error('boom'))),
      /boom/,
    );
    assert.equal(await store.run(s, () => 'next'), 'next');
  });

  test('a call queued behind another on a session deleted meanwhile is a 404, not a call on a dead session', async () => {
    const store = new SessionStore({ maxSessions: 4, maxSessionsPerClient: 4, idleTtlMs: 1000 });
    const s = store.add(play(), 'c1');
    let ran = false;
    const first = store.run(s, async () => {
      await tick();
      store.delete(s.id);
    });
    const second = store.run(s, () => {
      ran = true;
    });
    await first;
    await assert.rejects(
      second,
      (e: { code?: string; status?: number }) => e.code === 'unknown_session' && e.status === 404,
    );
    assert.equal(ran, false);
    assert.equal(store.size, 0);
  });

  test('deleted and expired sessions are gone with their tokens; a self-play session is never the default one', () => {
    let now = 0;
    const store = new SessionStore({ maxSessions: 4, maxSessionsPerClient: 4, idleTtlMs: 1000, now: () => now });
    const single = store.resetDefault(play(), 'c1');
    const self = store.add(play(), 'c1', ['lab_0', 'lab_1']);
    assert.equal(store.get(undefined).id, single.id);
    const token = self.tokens.get('lab_1')!;
    assert.equal(store.byToken(token).seat, 'lab_1');
    assert.equal(store.byAdminToken(self.adminToken!).id, self.id);
    assert.throws(
      () => store.byAdminToken(token),
      (e: { code?: string; status?: number }) => e.code === 'admin_token_required' && e.status === 403,
      'a seat token is no admin token',
    );
    now = 2000;
    assert.equal(store.sweep(), 2);
    assert.equal(store.size, 0);
    assert.equal(store.openBy('c1'), 0, 'expired sessions no longer count against their client');
    assert.throws(
      () => store.byToken(token),
      (e: { code?: string }) => e.code === 'unknown_token',
    );
    assert.throws(
      () => store.byAdminToken(self.adminToken!),
      (e: { code?: string }) => e.code === 'admin_token_required',
    );
    assert.throws(
      () => store.get(undefined),
      (e: { code?: string }) => e.code === 'unknown_session',
    );
  });

  test('global cap, idle expiry on the injected clock', () => {
    let now = 0;
    const store = new SessionStore({ maxSessions: 2, maxSessionsPerClient: 2, idleTtlMs: 1000, now: () => now });
    const a = store.add(play(), 'c1');
    now = 600;
    const b = store.add(play(), 'c2');
    const full = (e: Error & { code?: string; status?: number }) =>
      e.code === 'too_many_sessions' && e.status === 503 && /DELETE \/session\/:id/.test(e.message);
    assert.throws(() => store.add(play(), 'c3'), full);
    assert.throws(() => store.resetDefault(play(), 'c3'), full, 'no default session yet and the server is full');
    now = 1500;
    assert.throws(
      () => store.get(a.id),
      (e: Error & { code?: string }) => e.code === 'unknown_session' && /expired after 1 s idle/.test(e.message),
    );
    assert.equal(store.get(b.id).id, b.id, 'b was used at 600: still alive at 1500');
    assert.ok(store.add(play(), 'c3'), 'the expired one made room');
    assert.throws(
      () => store.get('nope'),
      (e: Error) => /never created/.test(e.message),
    );
  });

  test('each sessionless reset replaces the default session: one session whatever their number, the old id says why it ended', () => {
    const events: SessionEvent[] = [];
    const store = new SessionStore({
      maxSessions: 2,
      maxSessionsPerClient: 1,
      idleTtlMs: 1000,
      onEvent: (e) => events.push(e),
    });
    const first = store.resetDefault(play(), 'c1');
    for (let i = 0; i < 50; i++) store.resetDefault(play(), i % 2 === 0 ? 'c1' : 'c2');
    assert.equal(store.size, 1);
    assert.equal(store.openBy('c1'), 0, 'the default session counts against no client');
    assert.throws(
      () => store.get(first.id),
      (e: Error & { code?: string }) =>
        e.code === 'unknown_session' && /sessionless POST \/reset replaced it/.test(e.message),
    );
    assert.ok(store.add(play(), 'c1'), 'an own session beside the default one');
    assert.equal(store.size, 2);
    assert.ok(store.resetDefault(play(), 'c2'), 'replacing the default session needs no room when the server is full');
    assert.equal(events.filter((e) => e.event === 'opened').length, 53);
    assert.equal(events.filter((e) => e.event === 'replaced').length, 51);
    assert.deepEqual(events.at(-1), {
      event: 'opened',
      session: store.get(undefined).id,
      client: 'c2',
      kind: 'default',
      open: 2,
    });
  });

  test('the per-client cap: 429 saying what to do; other clients unaffected; a deleted session frees a place', () => {
    const store = new SessionStore({ maxSessions: 10, maxSessionsPerClient: 3, idleTtlMs: 1000 });
    const mine = [
      store.add(play(), '10.0.0.1'),
      store.add(play(), '10.0.0.1'),
      store.add(play(), '10.0.0.1', ['lab_0', 'lab_1']),
    ];
    assert.throws(
      () => store.add(play(), '10.0.0.1'),
      (e: Error & { code?: string; status?: number }) =>
        e.status === 429 &&
        e.code === 'too_many_client_sessions' &&
        /10\.0\.0\.1/.test(e.message) &&
        /DELETE \/session\/:id/.test(e.message) &&
        /in place/.test(e.message),
    );
    assert.ok(store.add(play(), '10.0.0.2'), 'another address has its own allowance');
    assert.ok(store.resetDefault(play(), '10.0.0.1'), 'the default session is still open to a capped client');
    store.delete(mine[0]!.id);
    assert.equal(store.openBy('10.0.0.1'), 2);
    assert.ok(store.add(play(), '10.0.0.1'));
  });
});
