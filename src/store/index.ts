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
  LlmUsageDelta,
  LlmUsageRecord,
  LlmSpentQuery,
  LlmSpent,
} from './types.js';
export { StoreError } from './types.js';
export type { RateLimit, RateLimitOptions, RateDecision } from './rate-limit.js';
export { INBOX_KEEP_PER_USER, INBOX_TTL_MS } from './inbox.js';
export { openStore, type OpenStoreOptions } from './open.js';
export { openSqliteStore, DEFAULT_SQLITE_PATH, SQLITE_BUSY_TIMEOUT_MS } from './sqlite.js';
export { openPostgresStore, type PostgresStoreOptions } from './postgres.js';
export { KyselyEventStore } from './kysely-store.js';
export { MIGRATIONS, migrateToLatest } from './migrations.js';
export type { Database } from './schema.js';
