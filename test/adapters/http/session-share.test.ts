/**
 * The share rule for HTTP API sessions (config `server.maxSessionsPerClient`, default 1/16 of
 * `server.maxSessions`): a server built from the configuration as `npm run serve` builds it; one address
 * gets its share and then 429, and only 16 addresses together fill the server (then 503). Addresses are
 * 127.0.0.x (all loopback on Linux).
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../../src/app/config/index.js';
import { startServer, type Harness } from './harness.js';

let h: Harness;
before(async () => {
  const cfg = loadConfig('config/arena.example.json', { ARENA_SERVER_MAX_SESSIONS: '32' });
  assert.ok(cfg.ok, JSON.stringify(cfg));
  h = await startServer(cfg.config.server);
});
after(() => h.close());

/** POST /reset for a session of its own, from `localAddress`; the status and error code. */
function open(localAddress: string): Promise<{ status: number; code: string | null }> {
  const payload = JSON.stringify({ seed: 1, new_session: true });
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL('/reset', h.url),
      { method: 'POST', localAddress, headers: { 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { error?: { code: string } };
          resolve({ status: res.statusCode ?? 0, code: body.error?.code ?? null });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('HTTP API sessions: one address holds at most 1/16 of them', () => {
  test('32 sessions: 2 per address; the 16 addresses it takes to fill the server each get theirs', async () => {
    assert.deepEqual(
      [await open('127.0.0.2'), await open('127.0.0.2')].map((r) => r.status),
      [200, 200],
    );
    assert.deepEqual(
      await open('127.0.0.2'),
      { status: 429, code: 'too_many_client_sessions' },
      'a third from one address',
    );
    for (let a = 3; a <= 17; a++) {
      assert.deepEqual(
        [(await open(`127.0.0.${a}`)).status, (await open(`127.0.0.${a}`)).status],
        [200, 200],
        `address 127.0.0.${a}`,
      );
    }
    assert.equal(h.store.size, 32);
    assert.deepEqual(
      await open('127.0.0.18'),
      { status: 503, code: 'too_many_sessions' },
      'full only once 16 addresses hold their share',
    );
  });
});
