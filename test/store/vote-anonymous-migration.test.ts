/**
 * Migration 0006 adds the anonymous flag to votes: a vote recorded before it reads back with `anonymous:
 * null` (its voter saw the raw texts; analytics resolves it from them), new votes keep true or false. On
 * SQLite and (when TEST_DATABASE_URL is set) PostgreSQL.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration } from 'kysely';
import { MIGRATIONS, openPostgresStore, openSqliteStore, type EventStore } from '../../src/store/index.js';
import { retryOnVanishedSchema } from '../../src/store/migrations.js';

const until0005: Record<string, Migration> = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0006'));

/** Bring `db` to schema 0005 and record one match with a pairwise vote as 0005 stored it. */
async function database0005(db: Kysely<unknown>, options: { migrationTableSchema?: string } = {}): Promise<void> {
  await retryOnVanishedSchema(async () => {
    const r = await new Migrator({ db, provider: { getMigrations: async () => until0005 }, ...options }).migrateToLatest();
    if (r.error !== undefined) throw r.error;
  }, options.migrationTableSchema ?? 'main');
  await sql`insert into matches (id, channel_id, platform, status, created_at) values ('m', 'c', 'console', 'over', '2025-01-01T00:00:00.000Z')`.execute(db);
  await sql`insert into votes (match_id, round, ballot_id, pair, pitch_a, pitch_b, choice, shown_first, voter_id, seated, created_at)
    values ('m', 0, 'v_1', 1, 'p0_lab_0', 'p0_lab_1', 'a', 'p0_lab_0', 'discord:1', 0, '2025-01-01T00:00:01.000Z')`.execute(db);
}

async function checkUpgraded(store: EventStore): Promise<void> {
  const base = { matchId: 'm', round: 0, ballotId: 'v_1', pitchA: 'p0_lab_0', shownFirst: 'p0_lab_0', choice: 'b' as const, seated: true, createdAt: '2025-01-01T00:00:02.000Z' };
  assert.ok((await store.recordVote({ ...base, pair: 2, pitchB: 'p0_lab_2', voterId: 'discord:2', anonymous: true })).ok);
  assert.ok((await store.recordVote({ ...base, pair: 3, pitchB: 'p0_lab_3', voterId: 'discord:3', anonymous: false })).ok);
  assert.deepEqual((await store.listVotes({ matchId: 'm' })).map((v) => [v.voterId, v.anonymous]), [['discord:1', null], ['discord:2', true], ['discord:3', false]]);
}

const root = mkdtempSync(join(tmpdir(), 'arena-anon-mig-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('sqlite: 0006 keeps earlier votes with an unknown flag and stores the flag of new ones', async () => {
  const path = join(root, 'v5.db');
  const raw = new Database(path);
  raw.pragma('foreign_keys = ON');
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: raw }) });
  await database0005(db);
  await db.destroy();
  const store = await openSqliteStore(path);
  try {
    await checkUpgraded(store);
  } finally {
    await store.close();
  }
});

const url = process.env.TEST_DATABASE_URL?.trim() ?? '';
if (url === '' && process.env.CI) {
  test('postgres: 0006 migration', () => assert.fail('TEST_DATABASE_URL not set under CI'));
} else if (url !== '') {
  test('postgres: 0006 keeps earlier votes with an unknown flag and stores the flag of new ones', async () => {
    const schema = `arena_anon_${process.pid}_${randomBytes(3).toString('hex')}`;
    const pool = new pg.Pool({ connectionString: url, max: 1, options: `-c search_path=${schema}` });
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    try {
      await sql`create schema ${sql.id(schema)}`.execute(db);
      await database0005(db, { migrationTableSchema: schema });
      await db.destroy();
      const store = await openPostgresStore({ connectionString: url, schema, maxConnections: 2 });
      try {
        await checkUpgraded(store);
      } finally {
        await store.close();
      }
    } finally {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    }
  });
}
