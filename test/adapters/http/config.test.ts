/** The `server` section of the configuration: defaults, the example file, environment overrides, errors. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../../src/app/config/index.js';

describe('server config', () => {
  test('the example file gives the documented defaults (debug state off)', () => {
    const r = loadConfig('config/arena.example.json', {});
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.config.server, {
      host: '127.0.0.1',
      port: 8080,
      maxSessions: 256,
      idleTtlSeconds: 900,
      bodyLimitBytes: 65_536,
      debugState: false,
      maxSessionsPerClient: 16,
      compat: 'native',
    });
  });

  test('the share rule: one client address may hold 1/16 of the sessions unless maxSessionsPerClient says otherwise', () => {
    const perClient = (env: Record<string, string>) => {
      const r = loadConfig('config/arena.example.json', env);
      assert.ok(r.ok, JSON.stringify(r));
      return r.config.server.maxSessionsPerClient;
    };
    assert.equal(perClient({ ARENA_SERVER_MAX_SESSIONS: '1024' }), 64);
    assert.equal(perClient({ ARENA_SERVER_MAX_SESSIONS: '8' }), 1, 'at least one');
    assert.equal(
      perClient({ ARENA_SERVER_MAX_SESSIONS: '8', ARENA_SERVER_MAX_SESSIONS_PER_CLIENT: '8' }),
      8,
      'an explicit cap wins',
    );
  });

  test('ARENA_SERVER_* variables override it; GPU_ARENA_DEBUG_STATE=1 works as in the original', () => {
    const r = loadConfig('config/arena.example.json', {
      ARENA_SERVER_HOST: '0.0.0.0',
      ARENA_SERVER_PORT: '9000',
      ARENA_SERVER_MAX_SESSIONS: '8',
      ARENA_SERVER_IDLE_TTL_SECONDS: '60',
      ARENA_SERVER_BODY_LIMIT_BYTES: '2048',
      GPU_ARENA_DEBUG_STATE: '1',
      ARENA_SERVER_MAX_SESSIONS_PER_CLIENT: '4',
      ARENA_SERVER_COMPAT: 'original',
    });
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.config.server, {
      host: '0.0.0.0',
      port: 9000,
      maxSessions: 8,
      idleTtlSeconds: 60,
      bodyLimitBytes: 2048,
      debugState: true,
      maxSessionsPerClient: 4,
      compat: 'original',
    });
  });

  test('a bad value names the key and the variable', () => {
    const r = loadConfig('config/arena.example.json', { ARENA_SERVER_PORT: 'eighty' });
    assert.ok(!r.ok);
    assert.equal(r.error.code, 'invalid_config');
    assert.match(r.error.message, /server\.port \(ARENA_SERVER_PORT\)/);
    const zero = loadConfig('config/arena.example.json', { ARENA_SERVER_MAX_SESSIONS: '0' });
    assert.ok(!zero.ok);
    assert.match(zero.error.message, /server\.maxSessions/);
    const compat = loadConfig('config/arena.example.json', { ARENA_SERVER_COMPAT: 'openenv' });
    assert.ok(!compat.ok);
    assert.match(compat.error.message, /server\.compat \(ARENA_SERVER_COMPAT\)/);
  });
});
