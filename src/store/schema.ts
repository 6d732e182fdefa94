/**
 * Kysely table types of the store, identical on SQLite and PostgreSQL (see migrations.ts for the DDL).
 * Timestamps are ISO 8601 text and event bodies JSON text on both dialects, so what one backend stores
 * the other would read the same way.
 */

/** `matches`: one row per hosted match. */
export interface MatchesTable {
  id: string;
  channel_id: string;
  platform: string;
  /** 'lobby' | 'running' | 'over'; checked when read back. */
  status: string;
  created_at: string;
  /** The channel a thread match belongs to (0011); null = none. */
  parent_channel_id: string | null;
}

/** `events`: the append-only log; primary key (match_id, seq). */
export interface EventsTable {
  match_id: string;
  /** 1, 2, 3, … per match. */
  seq: number;
  at: string;
  /** MatchEventBody as JSON text. */
  body: string;
}

/** `claims`: exactly-once keys (e.g. `round_close:<match>:<round>`). */
export interface ClaimsTable {
  key: string;
  claimed_at: string;
}

/** `votes_v1`: preference records of schema 0002 (one per match, round and voter); read-only since 0003. */
export interface LegacyVotesTable {
  match_id: string;
  round: number;
  voter_id: string;
  lab: string;
  created_at: string;
}

/** `votes`: pairwise preference votes; unique (match_id, pitch_a, pitch_b, voter_id); pitch_a < pitch_b. */
export interface VotesTable {
  match_id: string;
  round: number;
  ballot_id: string;
  pair: number;
  pitch_a: string;
  pitch_b: string;
  /** 'a' | 'b' | 'tie' | 'both_bad' (checked by the database and when read back). */
  choice: string;
  shown_first: string;
  voter_id: string;
  /** 1 when the voter held a seat in the match, else 0 (SQLite has no boolean). */
  seated: number;
  created_at: string;
  /** 1 when the ballot pair shown was anonymous after redaction, 0 when it still identified an author; null = cast before 0009. */
  anonymous: number | null;
}

/** `secrets`: deployment secrets generated on first use (e.g. the pseudonym key). */
export interface SecretsTable {
  name: string;
  value: string;
  created_at: string;
}

/**
 * `llm_usage` (0004): running sums of LLM tokens per (UTC day `YYYY-MM-DD`, channel, match, model); '' =
 * no channel / no match. Counts are bigint (PostgreSQL returns them as strings; parsed when read back).
 */
export interface LlmUsageTable {
  day: string;
  channel_id: string;
  match_id: string;
  model: string;
  /** Platform user id the tokens count against (0008; the match's host), '' = nobody. */
  person_id: string;
  calls: number;
  refused: number;
  prompt_tokens: number;
  completion_tokens: number;
  tokens: number;
}

/** `llm_guard` (0006): running sums of LLM seats' redacted figures and refused actions per (UTC day, channel, match, model). */
export interface LlmGuardTable {
  day: string;
  channel_id: string;
  match_id: string;
  model: string;
  redactions: number;
  refusals: number;
}

/** `private_inbox` (0005): posts held for one person until their next interaction (src/store/inbox.ts). */
export interface PrivateInboxTable {
  /** Random UUID. */
  id: string;
  /** Platform-qualified recipient, e.g. `discord:123`. */
  user_id: string;
  /** Channel the post was made in (0007): shown only with the recipient's interactions there; '' = before 0007. */
  channel_id: string;
  /** `<ISO time>/<counter>`: the order posts were added in. */
  sort_key: string;
  created_at: string;
  /** The post as JSON text (opaque to the store). */
  body: string;
}

/** `rate_limits` (0005): rate-limiter-flexible's RateLimiterPostgres rows (src/store/rate-limit.ts); PostgreSQL only in use. */
export interface RateLimitsTable {
  key: string;
  points: number;
  /** ms since the epoch; bigint (a string from pg). */
  expire: string | number | null;
}

/** `consents` (0010): each person's answer to the data notice (src/match/data-policy.ts); one row per person. */
export interface ConsentsTable {
  user_id: string;
  /** 'asked' | 'granted' | 'declined' (checked by the database and when read back). */
  state: string;
  /** The notice's version the answer was given to. */
  notice_version: string;
  at: string;
}

/** `erasures` (0010): the erasure log: who (by pseudonym) and how much, never what. */
export interface ErasuresTable {
  id: string;
  at: string;
  /** The person's export pseudonym (`u_…`), not their platform id. */
  subject: string;
  votes: number;
  texts: number;
}

/** `chat_settings` (0011): one value per (scope, subject, key) (src/store/chat-settings.ts). */
export interface ChatSettingsTable {
  /** 'person' | 'channel'. */
  scope: string;
  /** A platform user id (`discord:123`) or a channel id. */
  subject: string;
  key: string;
  value: string;
  updated_at: string;
}

/** The whole database as Kysely sees it. */
export interface Database {
  matches: MatchesTable;
  events: EventsTable;
  claims: ClaimsTable;
  votes: VotesTable;
  votes_v1: LegacyVotesTable;
  secrets: SecretsTable;
  private_inbox: PrivateInboxTable;
  rate_limits: RateLimitsTable;
  llm_usage: LlmUsageTable;
  llm_guard: LlmGuardTable;
  consents: ConsentsTable;
  erasures: ErasuresTable;
  chat_settings: ChatSettingsTable;
}
