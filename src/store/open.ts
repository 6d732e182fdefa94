/**
 * Pick the backend from configuration: a postgres:// (or postgresql://) DATABASE_URL means PostgreSQL,
 * no URL means the embedded SQLite file.
 */
import { DEFAULT_SQLITE_PATH, openSqliteStore } from './sqlite.js';
import { StoreError, type EventStore } from './types.js';

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
  // pg (~16 MB) loads only for a PostgreSQL URL.
  if (/^postgres(ql)?:\/\//i.test(url))
    return (await import('./postgres.js')).openPostgresStore({ connectionString: url });
  const scheme = url.split(':')[0] ?? '';
  throw new StoreError(
    'bad_config',
    `DATABASE_URL must start with postgres:// or postgresql://, got scheme "${scheme}"`,
  );
}
