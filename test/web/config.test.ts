/** Config keys `web.*` (src/app/config): defaults, environment overrides, refusals naming the variable. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/app/config/index.js';

const load = (env: Record<string, string>) => loadConfig('/nonexistent-on-purpose.json', env);
const base = (env: Record<string, string>) => loadConfig(undefined, { ARENA_CONFIG: '', ...env });

describe('web config', () => {
  test('defaults: local address, no public URL (no vote links), no admin token, pseudonyms, stream caps', () => {
    const r = base({});
    assert.ok(r.ok, JSON.stringify(!r.ok && r.error));
    assert.deepEqual(r.config.web, {
      host: '127.0.0.1',
      port: 8090,
      publicUrl: null,
      linkSecret: null,
      linkTtlSeconds: 3600,
      adminToken: null,
      people: 'pseudonyms',
      minMatches: 1,
      maxStreams: 1000,
      maxStreamsPerAddress: 62,
      streamSeconds: 600,
      requestsPerMinute: 600,
      renderRequestsPerMinute: 60,
      pollMs: 250,
    });
  });

  test('the share rule: one address may hold 1/16 of the streams unless maxStreamsPerAddress says otherwise', () => {
    const share = (env: Record<string, string>) => {
      const r = base(env);
      assert.ok(r.ok, JSON.stringify(!r.ok && r.error));
      return r.config.web.maxStreamsPerAddress;
    };
    assert.equal(share({ ARENA_WEB_MAX_STREAMS: '320' }), 20);
    assert.equal(share({ ARENA_WEB_MAX_STREAMS: '10' }), 1, 'at least one');
    assert.equal(
      share({ ARENA_WEB_MAX_STREAMS: '320', ARENA_WEB_MAX_STREAMS_PER_ADDRESS: '100' }),
      100,
      'an explicit cap (a reverse proxy: every client has its address) wins',
    );
  });

  test('environment overrides', () => {
    const r = base({
      ARENA_WEB_PORT: '9000',
      ARENA_WEB_PUBLIC_URL: 'https://arena.example.org',
      ARENA_WEB_ADMIN_TOKEN: 'x'.repeat(20),
      ARENA_WEB_PEOPLE: 'names',
      ARENA_WEB_MAX_STREAMS_PER_ADDRESS: '50',
    });
    assert.ok(r.ok, JSON.stringify(!r.ok && r.error));
    assert.equal(r.config.web.port, 9000);
    assert.equal(r.config.web.publicUrl, 'https://arena.example.org');
    assert.equal(r.config.web.people, 'names');
    assert.equal(r.config.web.maxStreamsPerAddress, 50);
  });

  test('bad values are refused, naming the variable', () => {
    for (const [k, v] of [
      ['ARENA_WEB_PUBLIC_URL', 'ftp://x'],
      ['ARENA_WEB_ADMIN_TOKEN', 'short'],
      ['ARENA_WEB_PEOPLE', 'everyone'],
      ['ARENA_WEB_POLL_MS', '1'],
    ] as const) {
      const r = base({ [k]: v });
      assert.equal(r.ok, false, `${k}=${v}`);
      assert.match(!r.ok ? r.error.message : '', new RegExp(k), `${k} named`);
    }
    assert.equal(load({}).ok, false, 'a named file that is missing');
  });
});
