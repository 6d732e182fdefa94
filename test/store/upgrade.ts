/**
 * Upgrade tests of the store's migrations: bring a fresh database (SQLite, and PostgreSQL under the rule of
 * test/support/postgres.ts) to an older schema and fill it as that schema stored things (`prepare`), open the
 * store on it (which migrates to the latest) and check what it reads and writes (`check`).
 */
import { after, test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration } from 'kysely';
import { MIGRATIONS, openPostgresStore, openSqliteStore, type EventStore } from '../../src/store/index.js';
import { retryOnVanishedSchema } from '../../src/store/migrations.js';
import { freshSchema, pgAdmin, withPostgres } from '../support/postgres.js';

/** The migrations before `first` (by name), e.g. `'0003'` for 0001–0002. */
export const migrationsBefore = (first: string): Record<string, Migration> =>
  Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < first));

/** Register an SQLite and a PostgreSQL test `name`: migrate to `until`, `prepare`, open the store, `check`. */
export function upgradeTests(
  name: string,
  until: Record<string, Migration>,
  prepare: (db: Kysely<unknown>) => Promise<void>,
  check: (store: EventStore) => Promise<void>,
): void {
  const toOld = async (db: Kysely<unknown>, options: { migrationTableSchema?: string } = {}) => {
    // Other test files drop their schemas meanwhile; the store's own retry covers that race (migrations.ts).
    await retryOnVanishedSchema(async () => {
      const r = await new Migrator({
        db,
        provider: { getMigrations: async () => until },
        ...options,
      }).migrateToLatest();
      if (r.error !== undefined) throw r.error;
    }, options.migrationTableSchema ?? 'main');
    await prepare(db);
  };
  const root = mkdtempSync(join(tmpdir(), 'arena-upgrade-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  test(`sqlite: ${name}`, async () => {
    const path = join(root, 'old.db');
    const raw = new Database(path);
    raw.pragma('foreign_keys = ON');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: raw }) });
    await toOld(db);
    await db.destroy();
    const store = await openSqliteStore(path);
    try {
      await check(store);
    } finally {
      await store.close();
    }
  });

  withPostgres(`postgres: ${name}`, (url) => {
    test(`postgres: ${name}`, async () => {
      const schema = freshSchema('arena_up');
      const pool = new pg.Pool({ connectionString: url, max: 1, options: `-c search_path=${schema}` });
      const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
      try {
        await sql`create schema ${sql.id(schema)}`.execute(db);
        await toOld(db, { migrationTableSchema: schema });
        await db.destroy();
        const store = await openPostgresStore({ connectionString: url, schema, maxConnections: 2 });
        try {
          await check(store);
        } finally {
          await store.close();
        }
      } finally {
        await pgAdmin(`drop schema if exists ${schema} cascade`);
      }
    });
  });
}
