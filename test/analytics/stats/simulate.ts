/**
 * Synthetic leagues with known truths, for the coverage checks of every interval the project reports
 * (coverage.test.ts): free-for-all matches whose seats rank by a Gumbel draw around each player's true
 * strength (so every pair follows Bradley–Terry with those strengths, as the ratings assume), people
 * winning against a model with a known probability, and two raters labelling pairs from a known 3 × 3 table.
 */
import seedrandom from 'seedrandom';
import { ELO_PER_NAT } from '../../../src/analytics/ratings/bradley-terry.js';
import { rateWithIntervals } from '../../../src/analytics/ratings/intervals.js';
import { pairOutcomes } from '../../../src/analytics/ratings/pairwise.js';
import { rankSeats } from '../../../src/analytics/ratings/results.js';
import type { MatchResult } from '../../../src/analytics/ratings/types.js';
import { kappaInterval, kappaOfTable } from '../../../src/analytics/stats/kappa.js';
import { clopperPearson } from '../../../src/analytics/stats/proportion.js';

/** Share of intervals that held the truth, out of how many. */
export interface Coverage {
  covered: number;
  total: number;
  share: number;
  /** Mean width (rating points for ratings, else the statistic's units). */
  width: number;
}

const cover = (hits: number, total: number, width: number): Coverage => ({
  covered: hits,
  total,
  share: total ? hits / total : NaN,
  width: total ? width / total : NaN,
});

/**
 * `leagues` leagues of `players` players (true θ ~ approximately N(0, sd²)) each playing about `perPlayer`
 * matches of `seats` seats; coverage of every player's 95 % rating interval of the true centred rating.
 * With `perPlayer` ≥ MIN_BOOTSTRAP_MATCHES the intervals come from the bootstrap (`samples` resamples).
 */
export function ratingCoverage(o: {
  leagues: number;
  players: number;
  seats: number;
  perPlayer: number;
  sd?: number;
  samples?: number;
  seed: string;
}): Coverage {
  const rng = seedrandom(o.seed);
  const sd = o.sd ?? 0.6;
  const gumbel = () => -Math.log(-Math.log(rng()));
  let hits = 0;
  let total = 0;
  let width = 0;
  for (let l = 0; l < o.leagues; l++) {
    const theta = Array.from({ length: o.players }, () => {
      let u = 0;
      for (let i = 0; i < 12; i++) u += rng();
      return (u - 6) * sd;
    });
    const count = Math.max(1, Math.round((o.perPlayer * o.players) / o.seats));
    const results: MatchResult[] = [];
    for (let m = 0; m < count; m++) {
      const pool = [...theta.keys()];
      const seats = [];
      for (let s = 0; s < o.seats; s++) {
        const i = pool.splice(Math.floor(rng() * pool.length), 1)[0]!;
        seats.push({
          lab: `lab_${s}`,
          player: { id: `p${i}`, kind: 'scripted' as const, name: `p${i}` },
          reward: theta[i]! + gumbel(),
        });
      }
      results.push({
        matchId: `m${m}`,
        task: 'market_round',
        platform: 'sim',
        endedAt: '',
        seats: rankSeats(seats),
        hostSeeded: false,
      });
    }
    const matches = new Map<string, number>();
    for (const r of results) for (const s of r.seats) matches.set(s.player.id, (matches.get(s.player.id) ?? 0) + 1);
    const rated = rateWithIntervals(pairOutcomes(results), {
      prior: 1,
      samples: o.samples ?? 200,
      seed: `${o.seed}:${l}`,
      matches,
      seats: new Map(results.map((r) => [r.matchId, r.seats.length])),
    });
    const present = [...rated.keys()].map((id) => theta[Number(id.slice(1))]!);
    const mean = present.reduce((a, b) => a + b, 0) / present.length;
    for (const [id, r] of rated) {
      const truth = 1000 + ELO_PER_NAT * (theta[Number(id.slice(1))]! - mean);
      total += 1;
      width += r.hi - r.lo;
      if (r.lo <= truth && truth <= r.hi) hits += 1;
    }
  }
  return cover(hits, total, width);
}

/** Coverage of the Clopper–Pearson interval of a win rate over `n` matches with true rate `p` (ties counted ½ with probability `ties`). */
export function winRateCoverage(o: { reps: number; n: number; p: number; ties?: number; seed: string }): Coverage {
  const rng = seedrandom(o.seed);
  const ties = o.ties ?? 0;
  // With ties the expected score is p·(1 − ties) + ties/2; that is the truth the interval should hold.
  const truth = o.p * (1 - ties) + ties / 2;
  let hits = 0;
  let width = 0;
  for (let r = 0; r < o.reps; r++) {
    let x = 0;
    for (let i = 0; i < o.n; i++) x += rng() < ties ? 0.5 : rng() < o.p ? 1 : 0;
    const c = clopperPearson(x, o.n)!;
    width += c.hi - c.lo;
    if (c.lo <= truth && truth <= c.hi) hits += 1;
  }
  return cover(hits, o.reps, width);
}

/** Coverage of the kappa interval over `n` pairs drawn from the true table `cells` (probabilities, rows x, columns y). */
export function kappaCoverage(o: {
  reps: number;
  n: number;
  cells: number[][];
  draws?: number;
  seed: string;
}): Coverage {
  const rng = seedrandom(o.seed);
  const truth = kappaOfTable(o.cells)!;
  const flat = o.cells.flat();
  const k = o.cells.length;
  let hits = 0;
  let width = 0;
  for (let r = 0; r < o.reps; r++) {
    const t = o.cells.map((row) => row.map(() => 0));
    for (let i = 0; i < o.n; i++) {
      let u = rng();
      let c = 0;
      while (c < flat.length - 1 && u >= flat[c]!) u -= flat[c++]!;
      t[Math.floor(c / k)]![c % k]! += 1;
    }
    const [lo, hi] = kappaInterval(t, { seed: `${o.seed}:${r}`, draws: o.draws ?? 500 });
    width += hi - lo;
    if (lo <= truth && truth <= hi) hits += 1;
  }
  return cover(hits, o.reps, width);
}
