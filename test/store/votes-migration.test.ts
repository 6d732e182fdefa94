/**
 * Migration 0003 keeps the votes recorded under schema 0002 readable (`listLegacyVotes`) and replaces the
 * per-round key with the pairwise one, on SQLite and on PostgreSQL (with TEST_DATABASE_URL; without it the PostgreSQL test is reported as skipped
 * outside CI and fails under CI: test/support/postgres.ts).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration } from 'kysely';
import { MIGRATIONS, openPostgresStore, openSqliteStore, type EventStore } from '../../src/store/index.js';
import { retryOnVanishedSchema } from '../../src/store/migrations.js';
import { freshSchema, pgAdmin, withPostgres } from '../support/postgres.js';

const until0002: Record<string, Migration> = { '0001_matches_events_claims': MIGRATIONS['0001_matches_events_claims']!, '0002_votes': MIGRATIONS['0002_votes']! };

/** Bring `db` to schema 0002 and record one match with two old-style votes. */
async function legacyDatabase(db: Kysely<unknown>, options: { migrationTableSchema?: string } = {}): Promise<void> {
  // Other test files drop their schemas meanwhile; the store's own retry covers that race (migrations.ts).
  await retryOnVanishedSchema(async () => {
    const r = await new Migrator({ db, provider: { getMigrations: async () => until0002 }, ...options }).migrateToLatest();
    if (r.error !== undefined) throw r.error;
  }, options.migrationTableSchema ?? 'main');
  await sql`insert into matches (id, channel_id, platform, status, created_at) values ('m', 'c', 'console', 'over', '2025-01-01T00:00:00.000Z')`.execute(db);
  await sql`insert into votes (match_id, round, voter_id, lab, created_at) values ('m', 0, 'discord:1', 'lab_1', '2025-01-01T00:00:01.000Z'), ('m', 1, 'discord:1', 'lab_0', '2025-01-01T00:00:02.000Z')`.execute(db);
}

async function checkUpgraded(store: EventStore): Promise<void> {
  assert.deepEqual(await store.listLegacyVotes('m'), [
    { matchId: 'm', round: 0, voterId: 'discord:1', lab: 'lab_1', createdAt: '2025-01-01T00:00:01.000Z' },
    { matchId: 'm', round: 1, voterId: 'discord:1', lab: 'lab_0', createdAt: '2025-01-01T00:00:02.000Z' },
  ]);
  assert.deepEqual(await store.listVotes({ matchId: 'm' }), [], 'old rows are not pairwise votes');
  const v = { matchId: 'm', round: 0, ballotId: 'v_1', pair: 1, pitchA: 'p0_lab_0', pitchB: 'p0_lab_1', choice: 'a' as const, shownFirst: 'p0_lab_0', voterId: 'discord:1', seated: false, createdAt: '2025-01-01T00:00:03.000Z', anonymous: true };
  assert.ok((await store.recordVote(v)).ok, 'the same voter and round can vote on a pair: the per-round key is gone');
  assert.ok((await store.recordVote({ ...v, pair: 2, pitchB: 'p0_lab_2' })).ok, 'and on a second pair of the round');
  assert.equal((await store.recordVote(v)).ok, false, 'the pairwise key holds');
}

const root = mkdtempSync(join(tmpdir(), 'arena-votes-mig-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('sqlite: 0003 keeps 0002 votes readable and replaces the per-round key', async () => {
  const path = join(root, 'legacy.db');
  const raw = new Database(path);
  raw.pragma('foreign_keys = ON');
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: raw }) });
  await legacyDatabase(db);
  await db.destroy();
  const store = await openSqliteStore(path);
  try {
    await checkUpgraded(store);
  } finally {
    await store.close();
  }
});

withPostgres('postgres: 0003 keeps 0002 votes readable and replaces the per-round key', (url) => {
  test('postgres: 0003 keeps 0002 votes readable and replaces the per-round key', async () => {
    const schema = freshSchema('arena_mig');
    const pool = new pg.Pool({ connectionString: url, max: 1, options: `-c search_path=${schema}` });
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    try {
      await sql`create schema ${sql.id(schema)}`.execute(db);
      await legacyDatabase(db, { migrationTableSchema: schema });
      await db.destroy();
      const store = await openPostgresStore({ connectionString: url, schema, maxConnections: 2 });
      try {
        await checkUpgraded(store);
      } finally {
        await store.close();
      }
    } finally {
      await pgAdmin(`drop schema if exists ${schema} cascade`);
    }
  });
});
