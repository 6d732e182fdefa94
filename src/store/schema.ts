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

/** `votes`: preference records; unique (match_id, round, voter_id). */
export interface VotesTable {
  match_id: string;
  round: number;
  voter_id: string;
  lab: string;
  created_at: string;
}

/** The whole database as Kysely sees it. */
export interface Database {
  matches: MatchesTable;
  events: EventsTable;
  claims: ClaimsTable;
  votes: VotesTable;
}
