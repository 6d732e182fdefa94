/**
 * PostgreSQL backend (pg Pool through Kysely's PostgresDialect), for deployments where several bot
 * processes share one database. Cross-process safety comes from the database: the (match_id, seq) primary
 * key with ON CONFLICT DO NOTHING for appends, unique keys for claims and votes, a partial unique index for
 * one active match per channel, DELETE … RETURNING for the private inbox, one upsert per rate-limit point
 * (RateLimiterPostgres over this pool), and Kysely's advisory lock around migrations.
 */
import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { KyselyEventStore, type ConstraintKind } from './kysely-store.js';
import { migrateToLatest, retryOnVanishedSchema } from './migrations.js';
import { postgresRateLimit } from './rate-limit.js';
import type { Database } from './schema.js';
import { StoreError } from './types.js';

/** Options of {@link openPostgresStore}. */
export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database`. */
  connectionString: string;
  /**
   * Schema to keep the tables in (created if missing), e.g. a fresh one per test run; default: the
   * server's search_path (normally `public`). Lower-case letters, digits and `_` only.
   */
  schema?: string;
  /** Pool size (default 10). */
  maxConnections?: number;
  /** Called with errors of idle pooled connections (pg drops the broken client; the next query gets a new one). */
  onIdleError?: (err: Error) => void;
}

/** SQLSTATE 23505 unique_violation, 23503 foreign_key_violation. */
export function classifyPostgresError(err: unknown): ConstraintKind {
  const code = typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : '';
  if (code === '23505') return 'unique';
  if (code === '23503') return 'foreign_key';
  return null;
}

/** `create schema if not exists` can still fail with 23505 when two processes run it at once: ignore that. */
async function createSchema(db: Kysely<Database>, schema: string): Promise<void> {
  try {
    await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  } catch (err) {
    if (classifyPostgresError(err) !== 'unique') throw err;
  }
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Connect, create `schema` if asked for, and migrate. Rejects with StoreError `bad_config` for a bad
 * schema name, `migration_failed` if the schema cannot be brought up to date, or the driver's error when
 * the server is unreachable.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<KyselyEventStore> {
  const { connectionString, schema, maxConnections = 10, onIdleError } = options;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new StoreError('bad_config', `schema name must match ${SCHEMA_NAME.source}, got ${JSON.stringify(schema)}`);
  }
  const pool = new pg.Pool({
    connectionString,
    max: maxConnections,
    // Every pooled connection resolves unqualified table names in the chosen schema.
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  });
  // Without a listener an idle client's error would be an uncaught 'error' event and end the process.
  pool.on('error', (err) => onIdleError?.(err));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  try {
    if (schema !== undefined) await createSchema(db, schema);
    const current = await sql<{ name: string | null }>`select current_schema() as name`.execute(db);
    const migrationTableSchema = current.rows[0]?.name;
    if (!migrationTableSchema) throw new StoreError('bad_config', 'no schema of the search_path exists on the server');
    // Another process dropping a schema while the migrator lists tables is not our failure: retry (migrations.ts).
    await retryOnVanishedSchema(
      () => migrateToLatest(db as Kysely<unknown>, { migrationTableSchema }),
      migrationTableSchema,
    );
  } catch (err) {
    await db.destroy();
    throw err;
  }
  // Rate limits shared by every process on this database, over the same pool (rate-limit.ts).
  return new KyselyEventStore(db, 'postgres', classifyPostgresError, (name, opts) =>
    postgresRateLimit(pool, name, opts),
  );
}
