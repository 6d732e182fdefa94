/**
 * Shapes of the ratings module: who a player is, what a finished match contributes, and the
 * rows of the published tables. Everything here is plain data; the functions over it are pure.
 */
import type { TaskName } from '../../engine/types.js';

/** What drives a seat, as rated: a person, an LLM model or a scripted policy. */
export type PlayerKind = 'person' | 'llm' | 'scripted';

/**
 * A rated player. `id` is stable across matches: `person:<platform user id>` (e.g. `person:discord:123`),
 * `llm:<model name>`, `scripted:<policy name>`. `name` is what chat shows: a person's latest display
 * name, the model or policy name. Exports replace a person's id and name with a pseudonym.
 */
export interface PlayerRef {
  id: string;
  kind: PlayerKind;
  name: string;
}

/** One seat of a finished match: its player and final cumulative reward (the engine's, in [−?, ?] reward units). */
export interface SeatResult {
  lab: string;
  player: PlayerRef;
  /** Final cumulative reward of the seat (a seat that finished early keeps the reward it had). */
  reward: number;
  /** 1 = best; seats with equal rewards share a rank (free-for-all, competition ranking "1224"). */
  rank: number;
}

/** A finished match as the ratings see it: a free-for-all result. */
export interface MatchResult {
  matchId: string;
  task: TaskName;
  platform: string;
  /** ISO time of the match's last event. */
  endedAt: string;
  seats: SeatResult[];
  /** The host chose the seed (practice): counted only with config `data.includeSeeded` (src/match/data-policy.ts). */
  hostSeeded: boolean;
}

/**
 * Why a match does not count:
 * - `not_started`: cancelled in the lobby;
 * - `not_over`: still running;
 * - `ended_by_host`: the host ended it (`end`) before the last round closed;
 * - `person_left_early`: a person finished (left) before round 1 closed;
 * - `host_seeded`: the host chose the seed (practice), left out unless config `data.includeSeeded` (set by the loader, load.ts).
 */
export type ExclusionReason = 'not_started' | 'not_over' | 'ended_by_host' | 'person_left_early' | 'host_seeded';

/** One pairwise outcome derived from a match: `score` is a's score against b (1 win, 0.5 tie, 0 loss). */
export interface PairOutcome {
  matchId: string;
  a: string;
  b: string;
  score: number;
}

/** A Bradley–Terry rating (1000 = the table's average player), its 95 % interval, how that was made, and whether it is preliminary (intervals.ts). */
export interface RatingInterval {
  rating: number;
  lo: number;
  hi: number;
  /** `model`: observed Fisher information with the prior; `bootstrap`: percentile bootstrap over matches. */
  interval: 'bootstrap' | 'model';
  /** Fewer counted matches than the bootstrap needs (intervals.ts MIN_BOOTSTRAP_MATCHES). */
  preliminary: boolean;
}

/** A rated player of a table: rank, rating with its interval, matches played, and the live openskill values. */
export interface RatedPlayer extends RatingInterval {
  player: PlayerRef;
  /** 1-based position by the ranking rule (leaderboard.ts `rankRows`: lower bound of the interval first). */
  rank: number;
  /** Matches counted for this player. */
  matches: number;
  /** The live openskill (Plackett–Luce) rating: μ, σ and ordinal μ − 3σ. */
  mu: number;
  sigma: number;
  ordinal: number;
}

/**
 * People's win rate against one non-person player: per match, the share of person-vs-opponent seat pairs
 * the person won (ties ½), averaged over matches, with the Clopper–Pearson 95 % interval over the matches
 * (a match is one trial: its pairs are not independent).
 */
export interface PeopleVsModel {
  opponent: PlayerRef;
  winRate: number;
  lo: number;
  hi: number;
  /** Person-vs-opponent pairs counted, and the matches they came from. */
  pairs: number;
  matches: number;
}

/**
 * Every person of a table as one player ("people"): rated in a second Bradley–Terry fit where all person
 * seats are one player and person-vs-person pairs drop out, aligned with the table on the models and
 * policies (their average rating is the same in both fits); its interval follows the same rules.
 */
export interface PeopleAggregate extends RatingInterval {
  /** Matches with a person and a model or policy, and the distinct persons who played them. */
  matches: number;
  persons: number;
}

/** One row of the ratings history export: a player's openskill rating before and after one match. */
export interface HistoryRow {
  matchId: string;
  task: TaskName;
  endedAt: string;
  player: PlayerRef;
  rank: number;
  reward: number;
  before: { mu: number; sigma: number; ordinal: number };
  after: { mu: number; sigma: number; ordinal: number };
}
