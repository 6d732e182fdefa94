/**
 * Sessions cannot leak over HTTP: 10,000 sessionless resets in a row (an unchanged client of the
 * original playing 10,000 episodes) leave exactly one session and never get a 503; own sessions are
 * capped per client address (429 saying what to do) while other addresses and the default session
 * still work.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { refused, ok, startServer, type Harness } from './harness.js';

let h: Harness;
before(async () => {
  h = await startServer({ maxSessions: 8, maxSessionsPerClient: 3 });
});
after(async () => {
  await h.close();
});

/** One JSON request from a chosen local address (127.0.0.x are all loopback on Linux). */
function from(
  localAddress: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(path, h.url),
      { method, localAddress, headers: payload ? { 'content-type': 'application/json' } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('session limits over HTTP', () => {
  test('10,000 sessionless resets in a row leave one session, never a 503 (the server holds 8)', async () => {
    const statuses = new Map<number, number>();
    let last = '';
    for (let i = 0; i < 10_000; i++) {
      const r = await h.client.request<{ session_id: string; observation: { task_id: string } }>(
        'POST',
        '/reset',
        `{"task_type":"single_trade","seed":${i}}`,
      );
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      if (r.ok) last = r.body.session_id;
    }
    assert.deepEqual([...statuses], [[200, 10_000]]);
    assert.equal(h.store.size, 1);
    const step = ok(
      await h.client.request<{ observation: { task_id: string } }>('POST', '/step', '{"action_type":"wait"}'),
    );
    assert.equal(step.observation.task_id, 'single_trade-9999', 'sessionless calls address the latest reset');
    const state = ok(await h.client.state({}));
    assert.equal(state.session_id, last);
  });

  test('per-client cap: a fourth own session from one address is 429 with what to do; another address and the default session still work', async () => {
    const mine: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await from('127.0.0.1', 'POST', '/reset', { seed: i, new_session: true });
      assert.equal(r.status, 200);
      mine.push(r.body.session_id as string);
    }
    const fourth = await from('127.0.0.1', 'POST', '/reset', { seed: 3, new_session: true });
    assert.equal(fourth.status, 429);
    const e = fourth.body.error as { code: string; message: string };
    assert.equal(e.code, 'too_many_client_sessions');
    assert.match(
      e.message,
      /\(127\.0\.0\.1\) has 3 sessions open.*server\.maxSessionsPerClient.*in place.*DELETE \/session\/:id/,
    );
    const selfPlay = await from('127.0.0.1', 'POST', '/reset', { task: 'market_round', seats: ['lab_0', 'lab_1'] });
    assert.equal(selfPlay.status, 429, 'self-play sessions count against their creator too');
    const other = await from('127.0.0.2', 'POST', '/reset', { seed: 4, new_session: true });
    assert.equal(other.status, 200, 'another address has its own allowance');
    const shared = await from('127.0.0.1', 'POST', '/reset', { seed: 5 });
    assert.equal(shared.status, 200, 'the sessionless default session is always open');
    assert.equal((shared.body.info as { session: string }).session, 'default');
    const inPlace = await from('127.0.0.1', 'POST', '/reset', { seed: 6, session_id: mine[0] });
    assert.equal(inPlace.status, 200, 'resetting one of its own in place needs no new place');
    assert.equal((await from('127.0.0.1', 'DELETE', `/session/${mine[1]!}`)).status, 200);
    assert.equal(
      (await from('127.0.0.1', 'POST', '/reset', { seed: 7, new_session: true })).status,
      200,
      'a deleted session frees a place',
    );
    assert.equal(refused(await h.client.request('GET', `/state?session_id=${mine[1]!}`)).code, 'unknown_session');
  });
});
