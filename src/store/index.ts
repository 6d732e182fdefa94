/** The match event store: see types.ts for the interface, open.ts for choosing a backend. */
export type {
  AppendResult,
  CreateMatchResult,
  EventStore,
  MatchRecord,
  MatchStatus,
  RecordVoteResult,
  StoreErrorCode,
  VoteChoice,
  VoteFilter,
  VoteRecord,
  LegacyVoteRecord,
  MatchFilter,
} from './types';
export { StoreError } from './types';
export { openStore, type OpenStoreOptions } from './open';
export { openSqliteStore, DEFAULT_SQLITE_PATH, SQLITE_BUSY_TIMEOUT_MS } from './sqlite';
export { openPostgresStore, type PostgresStoreOptions } from './postgres';
export { KyselyEventStore } from './kysely-store';
export { MIGRATIONS, migrateToLatest } from './migrations';
export type { Database } from './schema';
