/** Pairwise outcomes of free-for-all results: every two seats of a match held by different players. */
import type { MatchResult, PairOutcome } from './types.js';

/** Rewards closer than this are a tie (½ each). */
export const TIE_EPSILON = 1e-9;

/** Every pair of seats of every match (different players only), scored from the first seat's side. */
export function pairOutcomes(results: readonly MatchResult[]): PairOutcome[] {
  const out: PairOutcome[] = [];
  for (const r of results) {
    for (let i = 0; i < r.seats.length; i++) {
      for (let j = i + 1; j < r.seats.length; j++) {
        const a = r.seats[i]!;
        const b = r.seats[j]!;
        if (a.player.id === b.player.id) continue;
        const d = a.reward - b.reward;
        out.push({
          matchId: r.matchId,
          a: a.player.id,
          b: b.player.id,
          score: Math.abs(d) <= TIE_EPSILON ? 0.5 : d > 0 ? 1 : 0,
        });
      }
    }
  }
  return out;
}
