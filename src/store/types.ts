/**
 * The match event store: one small interface with two implementations (SQLite for one process, PostgreSQL
 * for several bot processes sharing a database). The host appends a match's events here before it
 * acknowledges anything to a player, and on restart reloads every unfinished match with
 * {@link EventStore.listUnfinished} + {@link EventStore.load}.
 */
import type { MatchEventBody, StoredEvent } from '../events/schema.js';
import { CodedError } from '../errors/coded-error.js';
import type { RateLimit, RateLimitOptions } from './rate-limit.js';

/** Life cycle of a hosted match; moves only forward: lobby → running → over (or lobby → over). */
export type MatchStatus = 'lobby' | 'running' | 'over';

/** The store's row for a match (the match's state itself is the replay of its events). */
export interface MatchRecord {
  id: string;
  channelId: string;
  /** Platform name, e.g. 'discord', 'slack', 'console'. */
  platform: string;
  status: MatchStatus;
  /** ISO 8601 timestamp. */
  createdAt: string;
  /** The channel a thread match belongs to (its thread is `channelId`); absent = none. */
  parentChannelId?: string;
}

/** Scopes of {@link EventStore.chatSetting}: a person (platform user id) or a channel (platform channel id). */
export type ChatSettingScope = 'person' | 'channel';

/** A voter's choice on one pair of pitches, shown as "Pitch A" and "Pitch B". */
export type VoteChoice = 'a' | 'b' | 'tie' | 'both_bad';

/**
 * A human preference vote on one pair of a round's pitches. The pair is stored in a canonical
 * order (`pitchA` < `pitchB` as strings, pitch ids `p<round>_<lab>`, e.g. `p2_lab_1`); `choice` is relative
 * to that canonical order (`a` = `pitchA` is better), whatever the voter was shown; `shownFirst` records
 * which pitch the voter saw as "Pitch A" (for position bias). Unique per (match, pitchA, pitchB, voter).
 * `voterId` is the platform-qualified user id (e.g. `discord:123`): it never leaves the store except as a
 * pseudonym in exports.
 */
export interface VoteRecord {
  matchId: string;
  /** Round (0-based) whose pitches the pair holds. */
  round: number;
  /** Ballot id within the match, e.g. `v_3`. */
  ballotId: string;
  /** 1-based index of the pair in its ballot. */
  pair: number;
  pitchA: string;
  pitchB: string;
  choice: VoteChoice;
  /** `pitchA` or `pitchB`: the pitch the voter saw as "Pitch A". */
  shownFirst: string;
  voterId: string;
  /** True when the voter held a seat in the match (an interested party); counted apart in stats. */
  seated: boolean;
  /** ISO 8601 timestamp. */
  createdAt: string;
  /**
   * Whether the pair the voter was shown was anonymous: neither pitch, as redacted on the ballot, still
   * identified its author (the checker of src/voting/ballots/blind.ts). Null for votes cast before the
   * flag existed (their voters saw the raw texts; src/analytics/preference resolves them from those).
   */
  anonymous: boolean | null;
}

/** A vote of schema 0002 (before pairwise ballots): `voterId` preferred `lab`'s pitch in `round`. Read-only. */
export interface LegacyVoteRecord {
  matchId: string;
  round: number;
  voterId: string;
  lab: string;
  /** ISO 8601 timestamp. */
  createdAt: string;
}

/** Filter of {@link EventStore.listVotes}; every field optional (all votes when empty). */
export interface VoteFilter {
  matchId?: string;
  round?: number;
  ballotId?: string;
  voterId?: string;
  /** Only votes created at or after this ISO timestamp. */
  since?: string;
}

/** Filter of {@link EventStore.listMatches}; every field optional. */
export interface MatchFilter {
  status?: MatchStatus;
  channelId?: string;
  platform?: string;
  /** Only matches created at or after this ISO timestamp. */
  since?: string;
}

/**
 * One LLM call's tokens (or a refused call) for {@link EventStore.addLlmUsage}. Tokens are prompt and
 * completion tokens as the server reported them (or the client's estimate); every count an integer ≥ 0,
 * missing = 0.
 */
export interface LlmUsageDelta {
  /** UTC day of the call, `YYYY-MM-DD`. */
  day: string;
  /** Channel the call was made for; null = none (e.g. a judge call outside a match). */
  channelId: string | null;
  /** Match the call was made for; null = none. */
  matchId: string | null;
  /** Platform user id whose daily budget the call counts against (the match's host); null/absent = nobody. */
  personId?: string | null;
  model: string;
  /** Calls made (1 for a call, 0 for a refusal). */
  calls?: number;
  /** Calls refused before they were made because a token budget was spent. */
  refused?: number;
  promptTokens?: number;
  completionTokens?: number;
}

/** Running sums of one (UTC day, channel, match, model), as {@link EventStore.listLlmUsage} returns them. */
export interface LlmUsageRecord {
  day: string;
  channelId: string | null;
  matchId: string | null;
  /** Whose daily budget the row counts against (the match's host); null = nobody. */
  personId: string | null;
  model: string;
  calls: number;
  refused: number;
  promptTokens: number;
  completionTokens: number;
  /** promptTokens + completionTokens. */
  tokens: number;
}

/**
 * One LLM seat turn's self-protection counts for {@link EventStore.addLlmGuard}: private figures redacted from
 * its text and actions refused by the self-harm guard (src/agents/redact.ts, guard.ts); missing = 0.
 */
export interface LlmGuardDelta {
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  channelId: string | null;
  matchId: string | null;
  model: string;
  redactions?: number;
  refusals?: number;
}

/** Running sums of one (UTC day, channel, match, model), as {@link EventStore.listLlmGuard} returns them. */
export interface LlmGuardRecord {
  day: string;
  channelId: string | null;
  matchId: string | null;
  model: string;
  redactions: number;
  refusals: number;
}

/** What {@link EventStore.llmSpent} sums; a null channel, match or person sums nothing for it. */
export interface LlmSpentQuery {
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  channelId: string | null;
  matchId: string | null;
  /** Platform user id (a host); absent = null. */
  personId?: string | null;
}

/** Tokens (prompt + completion) spent: by the deployment, the channel and the person on the day, by the match on every day. */
export interface LlmSpent {
  deployment: number;
  channel: number;
  match: number;
  person: number;
}

/** Outcome of {@link EventStore.createMatch}. */
export type CreateMatchResult =
  | { ok: true; match: MatchRecord }
  /** `id` is already taken. */
  | { ok: false; code: 'duplicate_match' }
  /** The channel already has a lobby/running match (`activeMatchId`); at most one per channel. */
  | { ok: false; code: 'channel_busy'; activeMatchId: string | null };

/** Outcome of {@link EventStore.append}. */
export type AppendResult =
  | { ok: true; event: StoredEvent }
  /** `expectedSeq` is not the log's last seq (another writer got there first); reload from `lastSeq`. */
  | { ok: false; code: 'conflict'; lastSeq: number }
  /** No match with this id was created. */
  | { ok: false; code: 'unknown_match' }
  /** The body fails MatchEventSchema, `at` is not an ISO timestamp, or `expectedSeq` is not an integer ≥ 0. */
  | { ok: false; code: 'invalid_event'; message: string };

/** Outcome of {@link EventStore.recordVote}. */
export type RecordVoteResult =
  | { ok: true; vote: VoteRecord }
  | { ok: false; code: 'duplicate_vote' | 'unknown_match' | 'invalid_vote'; message?: string };

/**
 * Machine-readable codes of {@link StoreError}:
 * - `corrupt_event`: a stored event row is not JSON or fails MatchEventSchema (`matchId`, `seq` set);
 * - `corrupt_row`: another stored row has an unexpected shape (e.g. an unknown match status);
 * - `bad_config`: `openStore` got a database URL it does not understand or a bad schema name;
 * - `migration_failed`: bringing the schema up to date failed (`cause` holds the driver error).
 */
export type StoreErrorCode = 'corrupt_event' | 'corrupt_row' | 'bad_config' | 'migration_failed';

/** The one error the store throws on purpose; everything a caller is expected to handle is a result value. */
export class StoreError extends CodedError<StoreErrorCode> {
  override readonly name = 'StoreError';

  constructor(
    code: StoreErrorCode,
    message: string,
    readonly detail: { matchId?: string; seq?: number; cause?: unknown } = {},
  ) {
    super(code, `${code}: ${message}`, { cause: detail.cause });
  }
}

/**
 * A person's answer to the data notice: `granted` = their words and votes may be exported; `asked` = shown
 * the notice, no answer yet; `declined`. Only `granted` lets anything of theirs into an export.
 */
export type ConsentState = 'asked' | 'granted' | 'declined';

/** One person's recorded answer (table `consents`). */
export interface ConsentRecord {
  userId: string;
  state: ConsentState;
  /** Version of the notice answered (src/match/data-policy.ts `DataNotice.version`). */
  noticeVersion: string;
  at: string;
}

/** One stored event's new body (an erasure's tombstoned words) and how many texts it replaced. */
export interface EventRewrite {
  matchId: string;
  seq: number;
  body: MatchEventBody;
  texts: number;
}

/** One erasure, as logged: the person's pseudonym and counts, never the erased content. */
export interface ErasureRecord {
  id: string;
  at: string;
  subject: string;
  votes: number;
  texts: number;
}

/**
 * Durable, multi-process-safe storage of matches and their append-only event logs.
 * Every method may reject with a driver error when the database itself is unreachable; data problems are
 * result values or a {@link StoreError}.
 */
export interface EventStore {
  /** Which implementation this is. */
  readonly dialect: 'sqlite' | 'postgres';

  /**
   * Record a new match in status 'lobby'. At most one lobby/running match per channel, enforced by the
   * database (a partial unique index), so two processes racing on `new` in one channel get one winner.
   */
  createMatch(input: {
    id: string;
    channelId: string;
    platform: string;
    createdAt: string;
    parentChannelId?: string;
  }): Promise<CreateMatchResult>;

  /**
   * Move a match forward (lobby → running → over, or lobby → over). Returns true when the match now has
   * `status` (changed, or already there); false when the match is unknown or the move would go backwards
   * ('over' is final), so a stale process can never revive a finished match.
   */
  setMatchStatus(id: string, status: MatchStatus): Promise<boolean>;

  /** The match with this id, or null. */
  getMatch(id: string): Promise<MatchRecord | null>;

  /** The channel's lobby/running match, or null (there is never more than one). */
  activeMatchInChannel(channelId: string): Promise<MatchRecord | null>;

  /** The lobby/running matches whose thread belongs to `parentChannelId`, oldest first. */
  activeMatchesUnder(parentChannelId: string): Promise<MatchRecord[]>;

  /** Every lobby/running match, oldest first: what the host reloads on restart. */
  listUnfinished(): Promise<MatchRecord[]>;

  /**
   * Append one event with seq = `expectedSeq` + 1, atomically: it is stored only if `expectedSeq` is the
   * log's last seq right now (0 for an empty log), else `conflict` with the actual last seq. So the log
   * never has gaps or two events at one seq, across connections and processes. `body` is parsed with
   * MatchEventSchema first and the parsed value is what is stored. `at` is an ISO 8601 timestamp.
   */
  append(matchId: string, expectedSeq: number, body: MatchEventBody, at: string): Promise<AppendResult>;

  /**
   * The match's events with seq > `afterSeq` (default 0), ordered by seq. Each row is parsed with
   * MatchEventSchema; a row that fails rejects with StoreError `corrupt_event` (never a bare crash).
   */
  load(matchId: string, afterSeq?: number): Promise<StoredEvent[]>;

  /** The log's last seq (0 when empty or unknown). */
  lastSeq(matchId: string): Promise<number>;

  /**
   * Exactly-once guard across processes: true for the first caller ever with this `key`, false for every
   * other (a unique key in the `claims` table). The host uses `round_close:<match>:<round>`.
   */
  tryClaim(key: string): Promise<boolean>;

  /**
   * Forget the claims whose key starts with `prefix` and that were made strictly before `before`; returns
   * how many were removed. For keys that only need to hold for a while (Slack request dedup, `slack:`);
   * a forgotten key can be claimed again.
   * @param prefix a key namespace such as `slack:`: lowercase letters, digits and `_`, ending in `:`
   *   (so no call can clear every claim, e.g. the host's `round_close:` guards, by accident).
   * @throws {TypeError} when `prefix` is not such a namespace or `before` is not a valid date.
   */
  pruneClaims(prefix: string, before: Date): Promise<number>;

  /**
   * Record a vote, atomically: one per (match, pitchA, pitchB, voter), enforced by a unique key (so two
   * processes racing on the same vote store one row); a second one is `duplicate_vote` and changes nothing.
   * A vote whose pair is not canonical (`pitchA` < `pitchB`) or whose `shownFirst` is neither pitch is
   * `invalid_vote`.
   */
  recordVote(vote: VoteRecord): Promise<RecordVoteResult>;

  /** Votes matching `filter`, ordered by match, round, time, then voter. */
  listVotes(filter?: VoteFilter): Promise<VoteRecord[]>;

  /** Votes recorded under schema 0002 (per round, before pairwise ballots), ordered by round, time, voter. */
  listLegacyVotes(matchId: string): Promise<LegacyVoteRecord[]>;

  /**
   * The deployment secret called `name`, created from `generate()` on first use. Atomic across processes
   * (insert-if-absent on a primary key, then read): every caller gets the same value. `name` is 1–64
   * characters of lowercase letters, digits, `_` and `-`.
   * @throws {TypeError} when `name` is not such a name.
   */
  secret(name: string, generate: () => string): Promise<string>;

  /** Record a person's answer to the data notice (replaces an earlier one). */
  setConsent(consent: ConsentRecord): Promise<void>;

  /** A person's answer, or null when none is recorded. */
  getConsent(userId: string): Promise<ConsentRecord | null>;

  /** Every recorded answer, ordered by user id. */
  listConsents(): Promise<ConsentRecord[]>;

  /**
   * Erase a person, atomically: delete every vote they cast, replace the given event bodies (their words
   * tombstoned; the actions stay, so replays stay valid) and append `log` with the counts. Returns the log row.
   */
  erase(
    userId: string,
    rewrites: readonly EventRewrite[],
    log: Omit<ErasureRecord, 'votes' | 'texts'>,
  ): Promise<ErasureRecord>;

  /** The erasure log, oldest first. */
  listErasures(): Promise<ErasureRecord[]>;

  /** Matches matching `filter`, oldest first (e.g. a channel's finished matches for stats and ratings). */
  listMatches(filter?: MatchFilter): Promise<MatchRecord[]>;

  /**
   * Add one LLM call's tokens (or a refusal) to the row of its (day, channel, match, model), atomically: one
   * upsert that adds to the stored sums, so several processes sharing the database never lose an increment.
   * @throws {TypeError} when `day` is not `YYYY-MM-DD`, the model is empty or a count is not an integer ≥ 0.
   */
  addLlmUsage(usage: LlmUsageDelta): Promise<void>;

  /**
   * Tokens spent so far: by the whole deployment, by `channelId` and by `personId` on `day`, and by `matchId`
   * on every day (the token budgets of docs/LLM.md, checked before each LLM call). One statement.
   * @throws {TypeError} when `day` is not `YYYY-MM-DD`.
   */
  llmSpent(query: LlmSpentQuery): Promise<LlmSpent>;

  /**
   * Every usage row of `day` (UTC, `YYYY-MM-DD`), ordered by channel, match, model: what the admin view sums
   * per channel and per model.
   * @throws {TypeError} when `day` is not `YYYY-MM-DD`.
   */
  listLlmUsage(day: string): Promise<LlmUsageRecord[]>;

  /**
   * Add one LLM seat turn's redactions and guard refusals to the row of its (day, channel, match, model),
   * atomically (one upsert, as {@link EventStore.addLlmUsage}).
   * @throws {TypeError} when `day` is not `YYYY-MM-DD`, the model is empty or a count is not an integer ≥ 0.
   */
  addLlmGuard(delta: LlmGuardDelta): Promise<void>;

  /**
   * Every self-protection row of `day` (UTC), ordered by channel, match, model: what `stats view:usage` shows.
   * @throws {TypeError} when `day` is not `YYYY-MM-DD`.
   */
  listLlmGuard(day: string): Promise<LlmGuardRecord[]>;

  /**
   * Hold `posts` (JSON-serialisable values, in order) for `userId` in `channelId` until
   * {@link EventStore.inboxTake} there: the private inbox (src/store/inbox.ts), kept in the database so any
   * process serves any person and a restart loses nothing. At most 10 posts per person and channel (the
   * oldest dropped), none older than 24 h.
   * @throws {TypeError} when `userId` or `channelId` is empty or longer than 200 characters.
   */
  inboxAdd(userId: string, channelId: string, posts: readonly unknown[]): Promise<void>;

  /**
   * Remove and return every post held for `userId` in `channelId`, oldest first, atomically (one DELETE …
   * RETURNING): of two processes taking at once, each post goes to exactly one. Posts held in other channels
   * stay. The values are parsed JSON, unvalidated.
   * @throws {TypeError} when `userId` or `channelId` is empty or longer than 200 characters.
   */
  inboxTake(userId: string, channelId: string): Promise<unknown[]>;

  /**
   * A rate limit of `points` per `durationSeconds` per key (src/store/rate-limit.ts): on PostgreSQL shared by
   * every process of the database (rate-limiter-flexible's RateLimiterPostgres), on SQLite per process.
   * `name` (lowercase letters, digits, `_`) keys it; build it once and reuse it.
   * @throws {TypeError} for a bad name or options that are not integers >= 1.
   */
  rateLimit(name: string, opts: RateLimitOptions): RateLimit;

  /**
   * The value of a chat setting (src/store/chat-settings.ts), e.g. ('person', 'discord:123', 'reminders'), or
   * null when it was never set. Settings outlive matches (a match's own settings are events of its log).
   * @throws {TypeError} when a part is empty or longer than 200 characters.
   */
  chatSetting(scope: ChatSettingScope, subject: string, key: string): Promise<string | null>;

  /**
   * Set a chat setting (one upsert: the last writer wins), or clear it with `value` null.
   * @throws {TypeError} when a part is empty or longer than 200 characters.
   */
  setChatSetting(scope: ChatSettingScope, subject: string, key: string, value: string | null): Promise<void>;

  /** Release the connection(s). The store must not be used afterwards. */
  close(): Promise<void>;
}
