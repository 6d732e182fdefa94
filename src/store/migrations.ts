/**
 * The store's schema history as in-code Kysely migrations, the same DDL for SQLite and PostgreSQL.
 * Add a migration by appending a new entry with the next number; never edit an applied one.
 * Kysely's Migrator records applied names in `kysely_migration` and, on PostgreSQL, holds an advisory lock
 * while migrating, so several processes starting at once migrate once.
 */
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { StoreError } from './types.js';

/** 0001: matches (one lobby/running match per channel), the event log, exactly-once claims. */
const m0001: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('matches')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('channel_id', 'text', (c) => c.notNull())
      .addColumn('platform', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addCheckConstraint('matches_status_check', sql`status in ('lobby', 'running', 'over')`)
      .execute();
    // The database itself keeps "one active match per channel", so racing processes get one winner.
    await db.schema
      .createIndex('matches_one_active_per_channel')
      .on('matches')
      .column('channel_id')
      .unique()
      .where(sql<boolean>`status in ('lobby', 'running')`)
      .execute();
    await db.schema.createIndex('matches_status').on('matches').column('status').execute();

    // (match_id, seq) is the primary key: two writers can never both store an event at one seq.
    await db.schema
      .createTable('events')
      .addColumn('match_id', 'text', (c) => c.notNull().references('matches.id'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('events_pk', ['match_id', 'seq'])
      .addCheckConstraint('events_seq_check', sql`seq >= 1`)
      .execute();

    await db.schema
      .createTable('claims')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('claimed_at', 'text', (c) => c.notNull())
      .execute();
  },
};

/** 0002: preference votes on pitches, one per (match, round, voter). */
const m0002: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('votes')
      .addColumn('match_id', 'text', (c) => c.notNull().references('matches.id'))
      .addColumn('round', 'integer', (c) => c.notNull())
      .addColumn('voter_id', 'text', (c) => c.notNull())
      .addColumn('lab', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('votes_one_per_voter', ['match_id', 'round', 'voter_id'])
      .execute();
  },
};

/**
 * 0003: pairwise preference votes and deployment secrets.
 * The per-round key of 0002 (one vote per voter and round) cannot hold pairwise battles, and SQLite cannot
 * drop a constraint in place, so the old table is renamed `votes_v1` (its rows stay readable through
 * `listLegacyVotes`) and `votes` is created anew with one vote per (match, pair, voter).
 */
const m0003: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('votes').renameTo('votes_v1').execute();
    await db.schema
      .createTable('votes')
      .addColumn('match_id', 'text', (c) => c.notNull().references('matches.id'))
      .addColumn('round', 'integer', (c) => c.notNull())
      .addColumn('ballot_id', 'text', (c) => c.notNull())
      .addColumn('pair', 'integer', (c) => c.notNull())
      .addColumn('pitch_a', 'text', (c) => c.notNull())
      .addColumn('pitch_b', 'text', (c) => c.notNull())
      .addColumn('choice', 'text', (c) => c.notNull())
      .addColumn('shown_first', 'text', (c) => c.notNull())
      .addColumn('voter_id', 'text', (c) => c.notNull())
      .addColumn('seated', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addCheckConstraint('votes_choice_check', sql`choice in ('a', 'b', 'tie', 'both_bad')`)
      .addCheckConstraint('votes_pair_order_check', sql`pitch_a < pitch_b`)
      .addUniqueConstraint('votes_one_per_pair_voter', ['match_id', 'pitch_a', 'pitch_b', 'voter_id'])
      .execute();
    await db.schema.createIndex('votes_by_match').on('votes').columns(['match_id', 'round']).execute();
    await db.schema
      .createTable('secrets')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },
};

/**
 * 0004: LLM token usage: running sums per (UTC day, channel, match, model), added to by one
 * upsert per call so several processes share the count; the daily budgets per deployment and per channel
 * and the per-match budget are checked against these sums. Self-contained: no foreign key ('' = no
 * channel / no match), so a judge call outside a match can be counted too.
 */
const m0004: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('llm_usage')
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('channel_id', 'text', (c) => c.notNull())
      .addColumn('match_id', 'text', (c) => c.notNull())
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('calls', 'bigint', (c) => c.notNull())
      .addColumn('refused', 'bigint', (c) => c.notNull())
      .addColumn('prompt_tokens', 'bigint', (c) => c.notNull())
      .addColumn('completion_tokens', 'bigint', (c) => c.notNull())
      .addColumn('tokens', 'bigint', (c) => c.notNull())
      // The day leads the key: a day's sums (deployment, channel) read one range of the primary key.
      .addPrimaryKeyConstraint('llm_usage_pk', ['day', 'channel_id', 'match_id', 'model'])
      .execute();
    await db.schema.createIndex('llm_usage_by_match').on('llm_usage').column('match_id').execute();
  },
};

/**
 * 0005: scale-out: the private inbox (posts held for one person until their next interaction,
 * src/store/inbox.ts) and the shared rate limits (src/store/rate-limit.ts; rate-limiter-flexible's
 * RateLimiterPostgres layout: key, points, expire in ms since the epoch; unused on SQLite). Self-contained:
 * no foreign key, nothing of another migration.
 */
const m0005: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('private_inbox')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('sort_key', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('private_inbox_by_user').on('private_inbox').columns(['user_id', 'sort_key']).execute();
    await db.schema.createIndex('private_inbox_by_age').on('private_inbox').column('created_at').execute();
    await db.schema
      .createTable('rate_limits')
      .addColumn('key', 'varchar(255)', (c) => c.primaryKey())
      .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('expire', 'bigint')
      .execute();
  },
};

/**
 * 0006: what the self-protection of LLM seats did (src/agents/guard.ts, redact.ts), as running sums per
 * (UTC day, channel, match, model) like `llm_usage`: private figures redacted from the seats' text and
 * actions refused because they gave value away. Shown to operators by `stats view:usage`. Self-contained.
 */
const m0006: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('llm_guard')
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('channel_id', 'text', (c) => c.notNull())
      .addColumn('match_id', 'text', (c) => c.notNull())
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('redactions', 'bigint', (c) => c.notNull())
      .addColumn('refusals', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('llm_guard_pk', ['day', 'channel_id', 'match_id', 'model'])
      .execute();
  },
};

/**
 * 0007: the private inbox keyed by person AND channel: a post held for someone is shown only with their next
 * interaction in the channel it was made in (a person in matches in two channels saw one channel's private
 * offer, with its buttons, under a command in the other). Rows from before have channel '' and are never
 * shown; they expire within the inbox's 24 h.
 */
const m0007: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('private_inbox')
      .addColumn('channel_id', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.dropIndex('private_inbox_by_user').execute();
    await db.schema
      .createIndex('private_inbox_by_user_channel')
      .on('private_inbox')
      .columns(['user_id', 'channel_id', 'sort_key'])
      .execute();
  },
};

/**
 * 0008: LLM usage per person (the daily budget per host, src/agents/budget.ts): the platform user id the
 * call's tokens count against (the match's host), '' = nobody (rows from before, calls outside a match).
 * Not part of the key: a match has one host, so (day, channel, match, model) still names one row.
 */
const m0008: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('llm_usage')
      .addColumn('person_id', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  },
};

/**
 * 0009: each vote records whether its ballot pair was anonymous after redaction (src/voting/ballots/blind.ts):
 * 1 anonymous, 0 still identifying, null for votes cast before this column (their voters saw raw texts).
 */
const m0009: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('votes').addColumn('anonymous', 'integer').execute();
  },
};

/**
 * 0010: consent and erasure (docs/PREFERENCE-DATA.md#consent-and-erasure): each person's answer to the data
 * notice, and the erasure log (pseudonym and counts only). Self-contained.
 */
const m0010: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('consents')
      .addColumn('user_id', 'text', (c) => c.primaryKey())
      .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('asked', 'granted', 'declined')`))
      .addColumn('notice_version', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('erasures')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('votes', 'integer', (c) => c.notNull())
      .addColumn('texts', 'integer', (c) => c.notNull())
      .execute();
  },
};

/**
 * 0011: matches that play in their own thread (Discord thread, Slack card thread) and the settings of chat
 * people and channels. `matches.parent_channel_id`: the channel a thread match belongs to (null = none), so
 * a command typed in that channel finds it; indexed for that lookup. `chat_settings`: one value per
 * (scope, subject, key), e.g. ('person', 'discord:123', 'reminders') = 'off' (src/store/chat-settings.ts).
 */
const m0011: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('matches').addColumn('parent_channel_id', 'text').execute();
    await db.schema
      .createIndex('matches_by_parent_channel')
      .on('matches')
      .columns(['parent_channel_id', 'status'])
      .execute();
    await db.schema
      .createTable('chat_settings')
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('chat_settings_pk', ['scope', 'subject', 'key'])
      .addCheckConstraint('chat_settings_scope_check', sql`scope in ('person', 'channel')`)
      .execute();
  },
};

/** Every migration by name, in order. */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_matches_events_claims': m0001,
  '0002_votes': m0002,
  '0003_pairwise_votes_secrets': m0003,
  '0004_llm_usage': m0004,
  '0005_private_inbox': m0005,
  '0006_llm_guard': m0006,
  '0007_private_inbox_channel': m0007,
  '0008_llm_usage_person': m0008,
  '0009_vote_anonymous': m0009,
  '0010_consent_erasure': m0010,
  '0011_threads_chat_settings': m0011,
};

const provider: MigrationProvider = { getMigrations: async () => ({ ...MIGRATIONS }) };

/**
 * Bring the database up to the latest migration. Idempotent. Returns the names applied by this call.
 * `migrationTableSchema` (PostgreSQL): the schema that holds Kysely's bookkeeping tables; pass the
 * current schema, because Kysely looks for an existing `kysely_migration` in every schema otherwise and
 * would take another schema's table for ours.
 * Rejects with StoreError `migration_failed` (driver error as `cause`).
 */
export async function migrateToLatest(
  db: Kysely<unknown>,
  options: { migrationTableSchema?: string } = {},
): Promise<string[]> {
  const migrator = new Migrator({ db, provider, ...options });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? '(migrator)';
    throw new StoreError('migration_failed', `migration ${failed} failed: ${String(error)}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Run `attempt` (a migration run) again, at most 3 times in all, when it failed only because *another*
 * schema was dropped while Kysely's migrator listed the catalog's tables (PostgreSQL 3F000
 * invalid_schema_name for a schema other than `ownSchema`): the catalog changed under the listing, not
 * ours. Any other failure is rethrown at once.
 */
export async function retryOnVanishedSchema<T>(attempt: () => Promise<T>, ownSchema: string): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (n >= 3 || !vanishedOther(err, ownSchema)) throw err;
    }
  }
}

function vanishedOther(err: unknown, ownSchema: string): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const x = e as { code?: unknown; message?: unknown };
    if (x.code === '3F000') return typeof x.message === 'string' && !x.message.includes(`"${ownSchema}"`);
  }
  return false;
}
