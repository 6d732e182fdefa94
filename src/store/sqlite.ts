/**
 * SQLite backend (better-sqlite3 through Kysely's SqliteDialect): the embedded default, one file, no setup.
 * Safe for several connections or processes on one file: WAL lets readers run beside the single writer,
 * busy_timeout makes a writer wait for the lock instead of failing, and every store write is a single
 * atomic statement (see kysely-store.ts).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { KyselyEventStore, type ConstraintKind } from './kysely-store.js';
import { MIGRATIONS, migrateToLatest } from './migrations.js';
import type { Database } from './schema.js';

/** Where the embedded store lives unless told otherwise (relative to the working directory). */
export const DEFAULT_SQLITE_PATH = './data/arena.db';

/** How long a writer waits for another connection's write lock before SQLITE_BUSY, in ms. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/** better-sqlite3 reports constraint failures as SqliteError with codes like SQLITE_CONSTRAINT_UNIQUE. */
export function classifySqliteError(err: unknown): ConstraintKind {
  const code = typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : '';
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return 'unique';
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return 'foreign_key';
  return null;
}

/** Prepared statements kept per connection (the store issues a few dozen distinct statements). */
const STATEMENT_CACHE_SIZE = 256;

/**
 * The connection as Kysely's SqliteDialect sees it, with prepared statements reused by SQL text: Kysely
 * prepares every query anew, and preparing cost more than running the store's small indexed queries (a
 * third of the host's time under load). A statement is safe to reuse because better-sqlite3 runs it to
 * completion synchronously; the cache is bounded (least recently used goes first).
 */
function withStatementCache(
  database: BetterSqlite3.Database,
): ConstructorParameters<typeof SqliteDialect>[0]['database'] {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (stmt) cache.delete(sql);
      else stmt = database.prepare(sql);
      cache.set(sql, stmt);
      if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      return stmt;
    },
  } as ConstructorParameters<typeof SqliteDialect>[0]['database'];
}

/**
 * Attempts at migrating, see {@link migrateWithRetry}: each failed attempt lost a race to another process
 * that committed at least one migration, so one more attempt than there are migrations always suffices (a
 * fixed 5 failed once under load with 10 migrations).
 */
const MIGRATION_ATTEMPTS = Object.keys(MIGRATIONS).length + 1;

/**
 * Kysely takes no cross-process lock for SQLite migrations, so two processes opening a new file at once
 * can both start migration 0001 and the later one fails ("table already exists", or a busy snapshot).
 * Each migration runs in a transaction, so the failed one rolled back and the winner's work is committed:
 * running the migrator again then finds everything applied.
 */
async function migrateWithRetry(db: Kysely<Database>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await migrateToLatest(db as Kysely<unknown>);
      return;
    } catch (err) {
      if (attempt >= MIGRATION_ATTEMPTS) throw err;
    }
  }
}

/**
 * Open (creating on first run: parent folder, file, schema) the SQLite store at `path`
 * (default {@link DEFAULT_SQLITE_PATH}; ':memory:' for a private in-memory database, e.g. in tests).
 * Sets journal_mode=WAL, busy_timeout={@link SQLITE_BUSY_TIMEOUT_MS}, foreign_keys=ON, then migrates.
 * Rejects with StoreError `migration_failed` if the schema cannot be brought up to date.
 */
export async function openSqliteStore(path: string = DEFAULT_SQLITE_PATH): Promise<KyselyEventStore> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new BetterSqlite3(path);
  // busy_timeout first: switching to WAL itself needs the lock when another process holds the file.
  database.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  if (path !== ':memory:') database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
  try {
    await migrateWithRetry(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return new KyselyEventStore(db, 'sqlite', classifySqliteError);
}
