/**
 * The published table (pure): Bradley–Terry ratings with bootstrap 95 % intervals, matches played and the
 * live openskill values, per task or overall; and people's win rates against each model or scripted policy.
 */
import type { TaskName } from '../../engine/types.js';
import { bootstrapBradleyTerry, bootstrapIntervals } from './bradley-terry.js';
import { liveRatings } from './openskill.js';
import { pairOutcomes } from './pairwise.js';
import type { MatchResult, PeopleVsModel, PlayerKind, PlayerRef, RatedPlayer } from './types.js';

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
  rows: RatedPlayer[];
  peopleVsModels: PeopleVsModel[];
}

/** Whether a player of `kind` is shown by `filter`. */
export const kindMatches = (kind: PlayerKind, filter: KindFilter): boolean =>
  filter === 'all' || (filter === 'people' ? kind === 'person' : kind !== 'person');

/** Build the table from counted results (oldest first). Pure and reproducible for a given seed. */
export function buildLeaderboard(all: readonly MatchResult[], opts: LeaderboardOptions = {}): Leaderboard {
  const kind = opts.kind ?? 'all';
  const results = opts.task ? all.filter((r) => r.task === opts.task) : [...all];
  const boot = { samples: opts.samples ?? 200, seed: opts.seed ?? 'arena-ratings', prior: opts.prior ?? 1 };
  const bt = bootstrapBradleyTerry(pairOutcomes(results), boot);
  const live = liveRatings(results);
  const played = new Map<string, number>();
  for (const r of results) for (const id of new Set(r.seats.map((s) => s.player.id))) played.set(id, (played.get(id) ?? 0) + 1);
  const rows: RatedPlayer[] = [];
  for (const [id, player] of live.players) {
    const b = bt.get(id);
    const s = live.skills.get(id);
    if (!b || !s || !kindMatches(player.kind, kind)) continue;
    rows.push({ player, rating: b.rating, lo: b.lo, hi: b.hi, matches: played.get(id) ?? 0, mu: s.mu, sigma: s.sigma, ordinal: s.ordinal });
  }
  rows.sort((a, b) => b.rating - a.rating || (a.player.id < b.player.id ? -1 : 1));
  return {
    task: opts.task ?? null,
    kind,
    matches: results.length,
    rows: opts.top === undefined ? rows : rows.slice(0, opts.top),
    peopleVsModels: peopleVsModels(results, boot),
  };
}

/**
 * People's mean win rate (ties ½) against each non-person player they met, over every person-vs-player
 * pair of seats, with a bootstrap interval (matches resampled). Sorted by opponent name.
 */
export function peopleVsModels(results: readonly MatchResult[], opts: { samples?: number; seed?: string } = {}): PeopleVsModel[] {
  // Per opponent: per match, the people's scores against it.
  const byOpponent = new Map<string, { player: PlayerRef; groups: number[][] }>();
  for (const r of results) {
    const perOpp = new Map<string, number[]>();
    for (const p of r.seats.filter((s) => s.player.kind === 'person')) {
      for (const o of r.seats.filter((s) => s.player.kind !== 'person')) {
        const d = p.reward - o.reward;
        const list = perOpp.get(o.player.id) ?? [];
        list.push(Math.abs(d) <= 1e-9 ? 0.5 : d > 0 ? 1 : 0);
        perOpp.set(o.player.id, list);
        if (!byOpponent.has(o.player.id)) byOpponent.set(o.player.id, { player: o.player, groups: [] });
      }
    }
    for (const [id, scores] of perOpp) byOpponent.get(id)!.groups.push(scores);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const out: PeopleVsModel[] = [];
  for (const [id, { player, groups }] of byOpponent) {
    const all = groups.flat();
    const ci = bootstrapIntervals(groups, (sample) => new Map([[id, mean(sample)]]), { samples: opts.samples ?? 200, seed: `${opts.seed ?? 'arena-ratings'}:${id}` });
    const winRate = mean(all);
    const c = ci.get(id);
    out.push({ opponent: player, winRate, lo: c?.lo ?? winRate, hi: c?.hi ?? winRate, pairs: all.length, matches: groups.length });
  }
  return out.sort((a, b) => (a.opponent.name < b.opponent.name ? -1 : a.opponent.name > b.opponent.name ? 1 : 0));
}
