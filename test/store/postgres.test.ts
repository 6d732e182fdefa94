/**
 * The conformance suite on PostgreSQL: every test runs in its own fresh schema of the TEST_DATABASE_URL
 * database (dropped afterwards), so reruns never collide. .ci/run sets TEST_DATABASE_URL by sourcing
 * .ci/postgres.sh; without it this file reports a skipped test, never a silent pass.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { openPostgresStore, openStore, StoreError } from '../../src/store/index.js';
import { runConformance } from './conformance.js';
import { pgAdmin, withPostgres } from '../support/postgres.js';

const runId = `${process.pid}_${randomBytes(3).toString('hex')}`;
let n = 0;

withPostgres('postgres conformance', (url) => {
  runConformance('postgres', {
    create: async () => `arena_t_${runId}_${n++}`,
    open: (schema) => openPostgresStore({ connectionString: url, schema, maxConnections: 4 }),
    destroy: (schema) => pgAdmin(`drop schema if exists ${schema} cascade`),
  });

  test('postgres: several processes opening a fresh schema at once migrate it once', async () => {
    const schema = `arena_t_${runId}_mig`;
    const stores = await Promise.all(
      Array.from({ length: 4 }, () => openPostgresStore({ connectionString: url, schema, maxConnections: 2 })),
    );
    try {
      const created = await Promise.all(
        stores.map((s, i) =>
          s.createMatch({ id: `m${i}`, channelId: 'c', platform: 'console', createdAt: '2025-01-01T00:00:00.000Z' }),
        ),
      );
      assert.equal(created.filter((r) => r.ok).length, 1, 'one schema, one active match per channel');
    } finally {
      for (const s of stores) await s.close();
      await pgAdmin(`drop schema if exists ${schema} cascade`);
    }
  });

  test('postgres: openStore picks PostgreSQL for a postgres:// URL; bad schema names are bad_config', async () => {
    const schema = `arena_t_${runId}_open`;
    await pgAdmin(`create schema ${schema}`);
    try {
      const withPath = new URL(url);
      withPath.searchParams.set('options', `-c search_path=${schema}`);
      const s = await openStore({ databaseUrl: withPath.toString() });
      try {
        assert.equal(s.dialect, 'postgres');
        assert.ok(
          (await s.createMatch({ id: 'm', channelId: 'c', platform: 'slack', createdAt: '2025-01-01T00:00:00.000Z' }))
            .ok,
        );
        assert.equal((await s.getMatch('m'))?.platform, 'slack');
      } finally {
        await s.close();
      }
    } finally {
      await pgAdmin(`drop schema if exists ${schema} cascade`);
    }
    await assert.rejects(
      openPostgresStore({ connectionString: url, schema: 'Robert"; drop table x' }),
      (e: unknown) => e instanceof StoreError && e.code === 'bad_config',
    );
  });
});
