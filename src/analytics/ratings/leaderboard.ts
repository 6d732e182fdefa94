/**
 * The published table (pure): Bradley–Terry ratings with 95 % intervals that hold at every sample size
 * (intervals.ts), matches played and the live openskill values, per task or overall, ranked by one rule
 * ({@link rankRows}); every person together as one player (the people aggregate); and people's win rates
 * against each model or scripted policy. Every surface (chat, console, web, CSV/JSON, charts) shows these
 * rows in this order.
 */
import type { TaskName } from '../../engine/types.js';
import { clopperPearson } from '../stats/proportion.js';
import { BOOTSTRAP_SAMPLES, rateWithIntervals } from './intervals.js';
import { liveRatings } from './openskill.js';
import { pairOutcomes } from './pairwise.js';
import type { MatchResult, PeopleAggregate, PeopleVsModel, PlayerKind, PlayerRef, RatedPlayer } from './types.js';

/** Which players a table shows: people, models (LLM models and scripted policies), or all. */
export type KindFilter = 'people' | 'models' | 'all';

/** Options of {@link buildLeaderboard}. */
export interface LeaderboardOptions {
  /** Only matches of this task (default: every task). */
  task?: TaskName;
  kind?: KindFilter;
  /** Rows to keep (default: all). */
  top?: number;
  /** Bootstrap resamples (default 200) and seed (default 'arena-ratings'): same input, same table. */
  samples?: number;
  seed?: string;
  /** BT virtual games against the reference (default 1; see bradley-terry.ts). */
  prior?: number;
}

/** A table as posted and exported. */
export interface Leaderboard {
  task: TaskName | null;
  kind: KindFilter;
  /** Counted matches the table is built from. */
  matches: number;
  /** Shown players in rank order ({@link rankRows}). */
  rows: RatedPlayer[];
  /** Every person as one player, or null when no person met a model or policy. */
  people: PeopleAggregate | null;
  peopleVsModels: PeopleVsModel[];
}

/** Id of the people aggregate in its fit. */
const PEOPLE_ID = 'people:all';

/** Whether a player of `kind` is shown by `filter`. */
export const kindMatches = (kind: PlayerKind, filter: KindFilter): boolean =>
  filter === 'all' || (filter === 'people' ? kind === 'person' : kind !== 'person');

/**
 * The ranking rule of every table: by the lower bound of the 95 % interval (highest first; a player is
 * ranked by what the data say it is at least, as LMArena ranks), then by rating, then by id. Returns the
 * rows in that order with `rank` = position (1-based). Any subset of a table (a filter) is ranked again by
 * the same rule.
 */
export function rankRows(rows: readonly RatedPlayer[]): RatedPlayer[] {
  return [...rows]
    .sort(
      (a, b) =>
        b.lo - a.lo || b.rating - a.rating || (a.player.id < b.player.id ? -1 : a.player.id > b.player.id ? 1 : 0),
    )
    .map((r, i) => ({ ...r, rank: i + 1 }));
}

/** Build the table from counted results (oldest first). Pure and reproducible for a given seed. */
export function buildLeaderboard(all: readonly MatchResult[], opts: LeaderboardOptions = {}): Leaderboard {
  const kind = opts.kind ?? 'all';
  const results = opts.task ? all.filter((r) => r.task === opts.task) : [...all];
  const seed = opts.seed ?? 'arena-ratings';
  const prior = opts.prior ?? 1;
  const samples = opts.samples ?? BOOTSTRAP_SAMPLES;
  const seats = new Map(results.map((r) => [r.matchId, r.seats.length]));
  const played = new Map<string, number>();
  for (const r of results)
    for (const id of new Set(r.seats.map((s) => s.player.id))) played.set(id, (played.get(id) ?? 0) + 1);
  const rated = rateWithIntervals(pairOutcomes(results), { prior, samples, seed, matches: played, seats });
  const live = liveRatings(results);
  const rows: RatedPlayer[] = [];
  for (const [id, player] of live.players) {
    const b = rated.get(id);
    const s = live.skills.get(id);
    if (!b || !s || !kindMatches(player.kind, kind)) continue;
    rows.push({
      player,
      rank: 0,
      rating: b.rating,
      lo: b.lo,
      hi: b.hi,
      interval: b.interval,
      preliminary: b.preliminary,
      matches: played.get(id) ?? 0,
      mu: s.mu,
      sigma: s.sigma,
      ordinal: s.ordinal,
    });
  }
  const ranked = rankRows(rows);
  const models = [...rated.keys()].filter((id) => !id.startsWith('person:'));
  const modelMean = models.length ? models.reduce((a, id) => a + rated.get(id)!.rating, 0) / models.length : null;
  return {
    task: opts.task ?? null,
    kind,
    matches: results.length,
    rows: opts.top === undefined ? ranked : ranked.slice(0, opts.top),
    people:
      modelMean === null
        ? null
        : peopleAggregate(results, { prior, samples, seed: `${seed}:people`, offset: modelMean - 1000 }),
    peopleVsModels: peopleVsModels(results),
  };
}

/** Every person as one player (see PeopleAggregate), aligned so the models' mean rating matches the table's; null without a person–model match. */
export function peopleAggregate(
  results: readonly MatchResult[],
  o: { prior: number; samples: number; seed: string; offset: number },
): PeopleAggregate | null {
  const mixed = results.filter(
    (r) => r.seats.some((s) => s.player.kind === 'person') && r.seats.some((s) => s.player.kind !== 'person'),
  );
  if (mixed.length === 0) return null;
  const persons = new Set(
    mixed.flatMap((r) => r.seats.filter((s) => s.player.kind === 'person').map((s) => s.player.id)),
  );
  const merged = results.map((r) => ({
    ...r,
    seats: r.seats.map((s) =>
      s.player.kind === 'person' ? { ...s, player: { id: PEOPLE_ID, kind: 'person' as const, name: 'people' } } : s,
    ),
  }));
  const seats = new Map(results.map((r) => [r.matchId, r.seats.length]));
  const rated = rateWithIntervals(pairOutcomes(merged), {
    prior: o.prior,
    samples: o.samples,
    seed: o.seed,
    matches: new Map([[PEOPLE_ID, mixed.length]]),
    seats,
    anchor: (id) => id !== PEOPLE_ID,
    offset: o.offset,
    report: (id) => id === PEOPLE_ID,
  }).get(PEOPLE_ID);
  return rated ? { ...rated, matches: mixed.length, persons: persons.size } : null;
}

/**
 * People's win rate against each non-person player they met (see PeopleVsModel): per match the share of
 * person-vs-that-player seat pairs a person won (ties ½), averaged over matches, with the Clopper–Pearson
 * interval over matches. Sorted by opponent name.
 */
export function peopleVsModels(results: readonly MatchResult[]): PeopleVsModel[] {
  const byOpponent = new Map<string, { player: PlayerRef; perMatch: number[]; pairs: number }>();
  for (const r of results) {
    const perOpp = new Map<string, number[]>();
    for (const p of r.seats.filter((s) => s.player.kind === 'person')) {
      for (const o of r.seats.filter((s) => s.player.kind !== 'person')) {
        const d = p.reward - o.reward;
        const list = perOpp.get(o.player.id) ?? [];
        list.push(Math.abs(d) <= 1e-9 ? 0.5 : d > 0 ? 1 : 0);
        perOpp.set(o.player.id, list);
        if (!byOpponent.has(o.player.id)) byOpponent.set(o.player.id, { player: o.player, perMatch: [], pairs: 0 });
      }
    }
    for (const [id, scores] of perOpp) {
      const e = byOpponent.get(id)!;
      e.perMatch.push(scores.reduce((a, b) => a + b, 0) / scores.length);
      e.pairs += scores.length;
    }
  }
  const out: PeopleVsModel[] = [];
  for (const { player, perMatch, pairs } of byOpponent.values()) {
    const p = clopperPearson(
      perMatch.reduce((a, b) => a + b, 0),
      perMatch.length,
    )!;
    out.push({ opponent: player, winRate: p.share, lo: p.lo, hi: p.hi, pairs, matches: perMatch.length });
  }
  return out.sort((a, b) => (a.opponent.name < b.opponent.name ? -1 : a.opponent.name > b.opponent.name ? 1 : 0));
}
