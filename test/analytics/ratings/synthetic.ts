/** Synthetic free-for-all results for the ratings tests: players with known latent strengths. */
import seedrandom from 'seedrandom';
import { rankSeats } from '../../../src/analytics/ratings/results.js';
import type { MatchResult, PlayerKind } from '../../../src/analytics/ratings/types.js';

export interface Synthetic {
  id: string;
  kind: PlayerKind;
  strength: number;
}

/**
 * `n` matches of `perMatch` seats drawn from `players` (no player twice in a match); a seat's reward is its
 * player's strength plus uniform noise in [−noise, noise], so stronger players win more often, not always.
 */
export function syntheticResults(
  players: readonly Synthetic[],
  n: number,
  opts: { perMatch?: number; noise?: number; seed?: string } = {},
): MatchResult[] {
  const rng = seedrandom(opts.seed ?? 'synthetic');
  const perMatch = opts.perMatch ?? 3;
  const noise = opts.noise ?? 1;
  const out: MatchResult[] = [];
  for (let k = 0; k < n; k++) {
    const pool = [...players];
    const seats = [];
    for (let s = 0; s < perMatch; s++) {
      const p = pool.splice(Math.floor(rng() * pool.length), 1)[0]!;
      seats.push({
        lab: `lab_${s}`,
        player: { id: `${p.kind}:${p.id}`, kind: p.kind, name: p.id },
        reward: p.strength + (rng() * 2 - 1) * noise,
      });
    }
    out.push({
      matchId: `m${k}`,
      task: 'market_round',
      platform: 'test',
      endedAt: new Date(Date.UTC(2026, 0, 1, 0, k)).toISOString(),
      seats: rankSeats(seats),
      hostSeeded: false,
    });
  }
  return out;
}
