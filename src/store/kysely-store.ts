/**
 * The EventStore over a Kysely instance: the same queries on SQLite and PostgreSQL. The dialect files only
 * build the connection and say which driver errors are unique / foreign-key violations.
 *
 * Concurrency: every write is ONE statement that the database makes atomic on its own, never a
 * read-then-write across statements, so it stays safe across connections and processes:
 * - append: `INSERT … SELECT … WHERE <previous seq exists> ON CONFLICT (match_id, seq) DO NOTHING`.
 *   The primary key (match_id, seq) lets only one writer store a given seq; the EXISTS guard stops a
 *   writer that is ahead of the log from leaving a gap. Zero rows inserted = conflict.
 * - tryClaim / recordVote / secret: `INSERT … ON CONFLICT DO NOTHING` on a unique key; one row inserted = first
 *   (votes.ts).
 * - addLlmUsage, addLlmGuard: `INSERT … ON CONFLICT DO UPDATE SET tokens = llm_usage.tokens + excluded.tokens` (llm-usage.ts, llm-guard.ts).
 * - pruneClaims: one `DELETE … WHERE` on key prefix and age; a claim racing with it is either kept or gone.
 * - inboxTake: one `DELETE … WHERE user_id = ? AND channel_id = ? RETURNING …`: each held post goes to one taker (inbox.ts).
 * - createMatch: a partial unique index keeps one lobby/running match per channel (a thread match's channel
 *   is its thread, so a channel holds any number of them beside its own).
 * - setChatSetting: one upsert on (scope, subject, key) (chat-settings.ts).
 * On SQLite, single statements also never hold a write lock across an `await`, which matters because
 * better-sqlite3 blocks the thread while it waits on busy_timeout.
 */
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { MatchEventSchema, type MatchEventBody, type StoredEvent } from '../events/schema.js';
import { precompile } from './compiled.js';
import type { ConstraintKind } from './constraint.js';
import type { Database } from './schema.js';
import { IsoTimestamp, toEvent, toMatch } from './rows.js';
import * as votes from './votes.js';
import * as privacy from './privacy.js';
import * as inbox from './inbox.js';
import { memoryRateLimit, type RateLimit, type RateLimitOptions } from './rate-limit.js';
import * as llmUsage from './llm-usage.js';
import * as llmGuard from './llm-guard.js';
import * as chatSettings from './chat-settings.js';
import type {
  AppendResult,
  ConsentRecord,
  ErasureRecord,
  EventRewrite,
  ChatSettingScope,
  CreateMatchResult,
  EventStore,
  MatchRecord,
  MatchStatus,
  LegacyVoteRecord,
  LlmSpent,
  LlmSpentQuery,
  LlmGuardDelta,
  LlmGuardRecord,
  LlmUsageDelta,
  LlmUsageRecord,
  MatchFilter,
  RecordVoteResult,
  VoteFilter,
  VoteRecord,
} from './types.js';

export type { ConstraintKind } from './constraint.js';

/** Statuses a match may be in before it moves to the key's status (moves only go forward). */
const ALLOWED_FROM: Record<MatchStatus, MatchStatus[]> = {
  lobby: ['lobby'],
  running: ['lobby', 'running'],
  over: ['lobby', 'running', 'over'],
};

const ACTIVE: MatchStatus[] = ['lobby', 'running'];

/** A claim namespace {@link KyselyEventStore.pruneClaims} accepts, e.g. `slack:`. */
const CLAIM_PREFIX = /^[a-z][a-z0-9_]*:$/;

/**
 * INSERT … SELECT of one event that inserts nothing unless the previous event (`prev`) exists, and nothing
 * on a duplicate (match, seq): the optimistic-concurrency append (see the file comment).
 */
function appendQuery(
  db: Kysely<Database>,
  matchId: string,
  seq: number,
  at: string,
  body: string,
  prev: { matchId: string; after: number } | null,
) {
  // Casts: PostgreSQL cannot infer the type of a bare parameter in a SELECT list.
  const candidate = db
    .selectNoFrom([
      sql<string>`cast(${matchId} as text)`.as('match_id'),
      sql<number>`cast(${seq} as integer)`.as('seq'),
      sql<string>`cast(${at} as text)`.as('at'),
      sql<string>`cast(${body} as text)`.as('body'),
    ])
    // Always a WHERE: SQLite needs one to parse INSERT … SELECT … ON CONFLICT.
    .where(({ exists, selectFrom, lit }) =>
      prev === null
        ? sql<boolean>`${lit(1)} = ${lit(1)}`
        : exists(
            selectFrom('events')
              .select(lit(1).as('one'))
              .where('match_id', '=', prev.matchId)
              .where('seq', '=', prev.after),
          ),
    );
  return db
    .insertInto('events')
    .columns(['match_id', 'seq', 'at', 'body'])
    .expression(candidate)
    .onConflict((oc) => oc.columns(['match_id', 'seq']).doNothing());
}

/** The round host's per-command queries, compiled once per store (see compiled.ts). */
function hotQueries(db: Kysely<Database>) {
  return {
    active: precompile(
      (channelId: string) =>
        db.selectFrom('matches').selectAll().where('channel_id', '=', channelId).where('status', 'in', ACTIVE),
      ['\u0000channel'],
    ),
    load: precompile(
      (matchId: string, afterSeq: number) =>
        db.selectFrom('events').selectAll().where('match_id', '=', matchId).where('seq', '>', afterSeq).orderBy('seq'),
      ['\u0000match', -0.5],
    ),
    firstAppend: precompile(
      (matchId: string, seq: number, at: string, body: string) => appendQuery(db, matchId, seq, at, body, null),
      ['\u0000match', -0.25, '\u0000at', '\u0000body'],
    ),
    nextAppend: precompile(
      (matchId: string, seq: number, at: string, body: string, matchAgain: string, after: number) =>
        appendQuery(db, matchId, seq, at, body, { matchId: matchAgain, after }),
      ['\u0000match', -0.25, '\u0000at', '\u0000body', '\u0000match2', -0.75],
    ),
  };
}
type HotQueries = ReturnType<typeof hotQueries>;

/** EventStore over Kysely; see the file comment for why each write is safe under concurrency. */
export class KyselyEventStore implements EventStore {
  /** The queries the round host runs on every command, compiled once (compiled.ts). */
  private readonly q: HotQueries;

  /**
   * @param db the Kysely instance, already migrated; exposed for tests and maintenance tools only.
   * @param dialect which backend `db` talks to.
   * @param classify tells unique / foreign-key violations apart from other driver errors.
   */
  constructor(
    readonly db: Kysely<Database>,
    readonly dialect: 'sqlite' | 'postgres',
    private readonly classify: (err: unknown) => ConstraintKind,
    /** Builds {@link rateLimit}s; default per process (memory). postgres.ts passes the shared one over its pool. */
    private readonly makeRateLimit: (name: string, opts: RateLimitOptions) => RateLimit = memoryRateLimit,
  ) {
    this.q = hotQueries(db);
  }

  async createMatch(input: {
    id: string;
    channelId: string;
    platform: string;
    createdAt: string;
    parentChannelId?: string;
  }): Promise<CreateMatchResult> {
    const match: MatchRecord = { ...input, status: 'lobby' };
    try {
      await this.db
        .insertInto('matches')
        .values({
          id: match.id,
          channel_id: match.channelId,
          platform: match.platform,
          status: match.status,
          created_at: match.createdAt,
          parent_channel_id: input.parentChannelId ?? null,
        })
        .execute();
      return { ok: true, match };
    } catch (err) {
      if (this.classify(err) !== 'unique') throw err;
      if ((await this.getMatch(input.id)) !== null) return { ok: false, code: 'duplicate_match' };
      const active = await this.activeMatchInChannel(input.channelId);
      return { ok: false, code: 'channel_busy', activeMatchId: active?.id ?? null };
    }
  }

  async setMatchStatus(id: string, status: MatchStatus): Promise<boolean> {
    const r = await this.db
      .updateTable('matches')
      .set({ status })
      .where('id', '=', id)
      .where('status', 'in', ALLOWED_FROM[status])
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async getMatch(id: string): Promise<MatchRecord | null> {
    const row = await this.db.selectFrom('matches').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? null : toMatch(row);
  }

  async activeMatchInChannel(channelId: string): Promise<MatchRecord | null> {
    const { rows } = await this.db.executeQuery<Database['matches']>(this.q.active(channelId));
    return rows[0] === undefined ? null : toMatch(rows[0]);
  }

  async activeMatchesUnder(parentChannelId: string): Promise<MatchRecord[]> {
    const rows = await this.db
      .selectFrom('matches')
      .selectAll()
      .where('parent_channel_id', '=', parentChannelId)
      .where('status', 'in', ACTIVE)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toMatch);
  }

  async listUnfinished(): Promise<MatchRecord[]> {
    const rows = await this.db
      .selectFrom('matches')
      .selectAll()
      .where('status', 'in', ACTIVE)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toMatch);
  }

  async append(matchId: string, expectedSeq: number, body: MatchEventBody, at: string): Promise<AppendResult> {
    if (!Number.isSafeInteger(expectedSeq) || expectedSeq < 0) {
      return { ok: false, code: 'invalid_event', message: `expectedSeq must be an integer >= 0, got ${expectedSeq}` };
    }
    const parsed = MatchEventSchema.safeParse(body);
    if (!parsed.success) return { ok: false, code: 'invalid_event', message: z.prettifyError(parsed.error) };
    if (!IsoTimestamp.safeParse(at).success)
      return { ok: false, code: 'invalid_event', message: `at is not an ISO timestamp: ${at}` };

    const event: StoredEvent = { matchId, seq: expectedSeq + 1, at, body: parsed.data };
    const body_ = JSON.stringify(parsed.data);
    let inserted: number;
    try {
      const r = await this.db.executeQuery(
        expectedSeq === 0
          ? this.q.firstAppend(matchId, event.seq, at, body_)
          : this.q.nextAppend(matchId, event.seq, at, body_, matchId, expectedSeq),
      );
      inserted = Number(r.numAffectedRows ?? 0n);
    } catch (err) {
      if (this.classify(err) === 'foreign_key') return { ok: false, code: 'unknown_match' };
      throw err;
    }
    if (inserted > 0) return { ok: true, event };
    const lastSeq = await this.lastSeq(matchId);
    if (lastSeq === 0 && (await this.getMatch(matchId)) === null) return { ok: false, code: 'unknown_match' };
    return { ok: false, code: 'conflict', lastSeq };
  }

  async load(matchId: string, afterSeq = 0): Promise<StoredEvent[]> {
    const { rows } = await this.db.executeQuery<Database['events']>(this.q.load(matchId, afterSeq));
    return rows.map(toEvent);
  }

  async lastSeq(matchId: string): Promise<number> {
    const row = await this.db
      .selectFrom('events')
      .select(({ fn }) => fn.max('seq').as('last'))
      .where('match_id', '=', matchId)
      .executeTakeFirst();
    return Number(row?.last ?? 0);
  }

  async tryClaim(key: string): Promise<boolean> {
    const r = await this.db
      .insertInto('claims')
      .values({ key, claimed_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  async pruneClaims(prefix: string, before: Date): Promise<number> {
    if (!CLAIM_PREFIX.test(prefix))
      throw new TypeError(`pruneClaims: prefix must look like "slack:", got ${JSON.stringify(prefix)}`);
    if (!(before instanceof Date) || Number.isNaN(before.getTime()))
      throw new TypeError('pruneClaims: before must be a valid Date');
    // substr, not LIKE: exact on both dialects (SQLite's LIKE ignores case; `_` would be a wildcard).
    const r = await this.db
      .deleteFrom('claims')
      .where(sql<string>`substr(${sql.ref('key')}, 1, ${sql.lit(prefix.length)})`, '=', prefix)
      .where('claimed_at', '<', before.toISOString())
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  recordVote(vote: VoteRecord): Promise<RecordVoteResult> {
    return votes.recordVote(this.db, this.classify, vote);
  }

  listVotes(filter?: VoteFilter): Promise<VoteRecord[]> {
    return votes.listVotes(this.db, filter);
  }

  listLegacyVotes(matchId: string): Promise<LegacyVoteRecord[]> {
    return votes.listLegacyVotes(this.db, matchId);
  }

  listMatches(filter?: MatchFilter): Promise<MatchRecord[]> {
    return votes.listMatches(this.db, filter);
  }

  secret(name: string, generate: () => string): Promise<string> {
    return votes.secret(this.db, name, generate);
  }

  setConsent(consent: ConsentRecord): Promise<void> {
    return privacy.setConsent(this.db, consent);
  }

  getConsent(userId: string): Promise<ConsentRecord | null> {
    return privacy.getConsent(this.db, userId);
  }

  listConsents(): Promise<ConsentRecord[]> {
    return privacy.listConsents(this.db);
  }

  erase(
    userId: string,
    rewrites: readonly EventRewrite[],
    log: Omit<ErasureRecord, 'votes' | 'texts'>,
  ): Promise<ErasureRecord> {
    return privacy.erase(this.db, userId, rewrites, log);
  }

  listErasures(): Promise<ErasureRecord[]> {
    return privacy.listErasures(this.db);
  }

  addLlmUsage(usage: LlmUsageDelta): Promise<void> {
    return llmUsage.addLlmUsage(this.db, usage);
  }

  llmSpent(query: LlmSpentQuery): Promise<LlmSpent> {
    return llmUsage.llmSpent(this.db, query);
  }

  listLlmUsage(day: string): Promise<LlmUsageRecord[]> {
    return llmUsage.listLlmUsage(this.db, day);
  }

  addLlmGuard(delta: LlmGuardDelta): Promise<void> {
    return llmGuard.addLlmGuard(this.db, delta);
  }

  listLlmGuard(day: string): Promise<LlmGuardRecord[]> {
    return llmGuard.listLlmGuard(this.db, day);
  }

  inboxAdd(userId: string, channelId: string, posts: readonly unknown[]): Promise<void> {
    return inbox.inboxAdd(this.db, userId, channelId, posts);
  }

  inboxTake(userId: string, channelId: string): Promise<unknown[]> {
    return inbox.inboxTake(this.db, userId, channelId);
  }

  chatSetting(scope: ChatSettingScope, subject: string, key: string): Promise<string | null> {
    return chatSettings.chatSetting(this.db, scope, subject, key);
  }

  setChatSetting(scope: ChatSettingScope, subject: string, key: string, value: string | null): Promise<void> {
    return chatSettings.setChatSetting(this.db, scope, subject, key, value);
  }

  rateLimit(name: string, opts: RateLimitOptions): RateLimit {
    return this.makeRateLimit(name, opts);
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}
