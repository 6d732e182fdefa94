/**
 * Pick the backend from configuration: a postgres:// (or postgresql://) DATABASE_URL means PostgreSQL,
 * no URL means the embedded SQLite file.
 */
import { openPostgresStore } from './postgres';
import { DEFAULT_SQLITE_PATH, openSqliteStore } from './sqlite';
import { StoreError, type EventStore } from './types';

/** Options of {@link openStore}. */
export interface OpenStoreOptions {
  /** DATABASE_URL; empty or absent = SQLite. */
  databaseUrl?: string;
  /** SQLite file (default ./data/arena.db), or ':memory:'. Ignored when `databaseUrl` is set. */
  sqlitePath?: string;
}

/**
 * Open the configured store, created and migrated on first use.
 * Rejects with StoreError `bad_config` when `databaseUrl` is set but is not a postgres:// URL (rather than
 * silently falling back to a local file), `migration_failed`, or the driver's connection error.
 */
export async function openStore(options: OpenStoreOptions = {}): Promise<EventStore> {
  const url = options.databaseUrl?.trim() ?? '';
  if (url === '') return openSqliteStore(options.sqlitePath ?? DEFAULT_SQLITE_PATH);
  if (/^postgres(ql)?:\/\//i.test(url)) return openPostgresStore({ connectionString: url });
  const scheme = url.split(':')[0] ?? '';
  throw new StoreError('bad_config', `DATABASE_URL must start with postgres:// or postgresql://, got scheme "${scheme}"`);
}
