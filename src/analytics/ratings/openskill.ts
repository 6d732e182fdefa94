/**
 * The live table: openskill's Weng–Lin Bayesian rating with the Plackett–Luce model (the library default),
 * updated match by match in order; a seat is a team of one, ranked by final reward. The displayed value is
 * the ordinal μ − 3σ (a conservative skill estimate). Defaults of openskill: μ₀ = 25, σ₀ = 25/3.
 */
import { ordinal, rate, rating } from 'openskill';
import type { HistoryRow, MatchResult, PlayerRef } from './types.js';

/** A player's openskill rating. */
export interface Skill {
  mu: number;
  sigma: number;
  ordinal: number;
}

const skill = (r: { mu: number; sigma: number }): Skill => ({ mu: r.mu, sigma: r.sigma, ordinal: ordinal(r) });

/** Fold `results` (oldest first) through openskill; returns every player's final skill and one history row per match and player. */
export function liveRatings(results: readonly MatchResult[]): {
  skills: Map<string, Skill>;
  players: Map<string, PlayerRef>;
  history: HistoryRow[];
} {
  const skills = new Map<string, Skill>();
  const players = new Map<string, PlayerRef>();
  const history: HistoryRow[] = [];
  for (const r of results) {
    if (r.seats.length < 2) continue;
    const before = r.seats.map((s) => skills.get(s.player.id) ?? skill(rating()));
    const after = rate(
      before.map((b) => [{ mu: b.mu, sigma: b.sigma }]),
      { rank: r.seats.map((s) => s.rank) },
    );
    // A player on several seats of one match (two seats of one scripted policy) moves by the mean update.
    const moved = new Map<string, { dmu: number; sigma: number; n: number }>();
    r.seats.forEach((s, i) => {
      const a = after[i]![0]!;
      const m = moved.get(s.player.id) ?? { dmu: 0, sigma: 0, n: 0 };
      moved.set(s.player.id, { dmu: m.dmu + a.mu - before[i]!.mu, sigma: m.sigma + a.sigma, n: m.n + 1 });
    });
    const done = new Set<string>();
    r.seats.forEach((s, i) => {
      if (done.has(s.player.id)) return;
      done.add(s.player.id);
      const m = moved.get(s.player.id)!;
      const b = before[i]!;
      const next = skill({ mu: b.mu + m.dmu / m.n, sigma: m.sigma / m.n });
      skills.set(s.player.id, next);
      players.set(s.player.id, s.player);
      history.push({
        matchId: r.matchId,
        task: r.task,
        endedAt: r.endedAt,
        player: s.player,
        rank: s.rank,
        reward: s.reward,
        before: b,
        after: next,
      });
    });
  }
  return { skills, players, history };
}
