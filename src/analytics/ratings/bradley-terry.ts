/**
 * Bradley–Terry fit on pairwise outcomes by the MM algorithm (Hunter 2004, "MM algorithms for generalized
 * Bradley–Terry models", Ann. Statist. 32(1), eq. 3), the observed Fisher information of the fit, and a
 * seeded bootstrap over matches (the intervals built from them: intervals.ts). Written here because no
 * maintained npm package fits BT with ties, a prior and a bootstrap (openskill is an online rater).
 *
 * Model: P(i beats j) = p_i / (p_i + p_j). A tie counts ½ a win to each side. With `prior` > 0 every player
 * also plays `prior` virtual games against a fixed reference of strength 1, half of them won: this keeps a
 * player with no win (or no loss) finite and anchors the scale (the reference is rating 1000). With
 * `prior` = 0 the scale is anchored by a geometric mean of 1 instead (and every player needs a win and a loss).
 *
 * Ratings are reported on an Elo-like scale: 1000 + 400·log10(p).
 */
import seedrandom from 'seedrandom';
import { invert } from '../stats/distributions.js';
import type { PairOutcome } from './types.js';

/** Options of {@link fitBradleyTerry}. */
export interface FitOptions {
  /** Virtual games per player against the reference (default 1). */
  prior?: number;
  /** Stop when no strength changes by more than this factor (relative, default 1e-10). */
  tol?: number;
  /** Iteration cap (default 10 000). */
  maxIter?: number;
}

/** Elo-like rating of a BT strength: 1000 + 400·log10(p). */
export const eloOf = (p: number): number => 1000 + 400 * Math.log10(p);

/** Rating points per natural-log unit of strength: 400 / ln 10. */
export const ELO_PER_NAT = 400 / Math.LN10;

/** Strengths of a fit: players in sorted order and θ = ln p of each. */
export interface Strengths {
  ids: string[];
  theta: Float64Array;
}

/**
 * Maximum-likelihood (with `prior` > 0: maximum a posteriori) BT strengths of every player in `games`, as
 * θ = ln p. Pure and deterministic (players are processed in sorted order).
 */
export function fitStrengths(games: readonly PairOutcome[], opts: FitOptions = {}): Strengths {
  const prior = opts.prior ?? 1;
  const tol = opts.tol ?? 1e-10;
  const maxIter = opts.maxIter ?? 10_000;
  const ids = [...new Set(games.flatMap((g) => [g.a, g.b]))].sort();
  const index = new Map(ids.map((id, i) => [id, i]));
  const n = ids.length;
  const wins = new Float64Array(n).fill(prior / 2);
  // Games between each pair (symmetric, sparse): i → (j → count).
  const met: Map<number, number>[] = ids.map(() => new Map());
  for (const g of games) {
    const i = index.get(g.a)!;
    const j = index.get(g.b)!;
    wins[i]! += g.score;
    wins[j]! += 1 - g.score;
    met[i]!.set(j, (met[i]!.get(j) ?? 0) + 1);
    met[j]!.set(i, (met[j]!.get(i) ?? 0) + 1);
  }
  let p = new Float64Array(n).fill(1);
  for (let iter = 0; iter < maxIter; iter++) {
    const next = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      let denom = prior / (p[i]! + 1);
      for (const [j, k] of met[i]!) denom += k / (p[i]! + p[j]!);
      next[i] = denom > 0 ? wins[i]! / denom : 1;
    }
    if (prior === 0) {
      const logMean = next.reduce((s, x) => s + Math.log(x), 0) / n;
      for (let i = 0; i < n; i++) next[i] = next[i]! / Math.exp(logMean);
    }
    let change = 0;
    for (let i = 0; i < n; i++) change = Math.max(change, Math.abs(next[i]! / p[i]! - 1));
    p = next;
    if (change < tol) break;
  }
  return { ids, theta: p.map(Math.log) };
}

/**
 * Maximum-likelihood BT strengths of every player in `games` (by player id), on the Elo-like scale.
 * Pure and deterministic (players are processed in sorted order).
 */
export function fitBradleyTerry(games: readonly PairOutcome[], opts: FitOptions = {}): Map<string, number> {
  const { ids, theta } = fitStrengths(games, opts);
  return new Map(ids.map((id, i) => [id, 1000 + ELO_PER_NAT * theta[i]!]));
}

/**
 * Covariance of θ from the observed Fisher information of the fitted model with its prior (the Laplace
 * approximation of the posterior): the Hessian of the negative log-posterior at the fit, H_ii = Σ q(1 − q)
 * over i's games plus `prior`·σ(θ_i)σ(−θ_i) for the virtual games against the reference, H_ij = −Σ q(1 − q)
 * over the games of i and j (q the fitted win probability), inverted. The prior keeps H positive definite,
 * so every player has a finite, non-zero variance even after one game; it needs `prior` > 0. Each game's
 * information is multiplied by `weight(game)` (default 1; leaderboard ratings weight the pairs of a match,
 * which are not independent games: intervals.ts). Rows and columns in `fit.ids` order.
 */
export function covariance(
  games: readonly PairOutcome[],
  fit: Strengths,
  prior: number,
  weight: (g: PairOutcome) => number = () => 1,
): number[][] {
  if (!(prior > 0)) throw new RangeError('covariance: needs prior > 0');
  const n = fit.ids.length;
  const index = new Map(fit.ids.map((id, i) => [id, i]));
  const h = fit.ids.map(() => new Array<number>(n).fill(0));
  const sig = (x: number) => 1 / (1 + Math.exp(-x));
  for (let i = 0; i < n; i++) {
    const s = sig(fit.theta[i]!);
    h[i]![i]! += prior * s * (1 - s);
  }
  for (const g of games) {
    const i = index.get(g.a);
    const j = index.get(g.b);
    if (i === undefined || j === undefined) continue;
    const q = sig(fit.theta[i]! - fit.theta[j]!);
    const w = weight(g) * q * (1 - q);
    h[i]![i]! += w;
    h[j]![j]! += w;
    h[i]![j]! -= w;
    h[j]![i]! -= w;
  }
  return invert(h);
}

/** Options of a bootstrap of Bradley–Terry fits. */
export interface BootstrapOptions extends FitOptions {
  /** Resamples (default 200). */
  samples?: number;
  /** Seed of the resampling, so a table is reproducible (default 'arena-ratings'). */
  seed?: string;
  /** Interval coverage (default 0.95). */
  level?: number;
}

/** The `q` quantile (linear interpolation) of sorted values. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/**
 * Draw `samples` bootstrap resamples of the units in `groups` (with replacement; seeded), call `stat` on
 * each and return, per key, the percentile interval of the values it returned. Units are matches: the
 * pairs of one match are not independent, so whole matches are resampled.
 */
export function bootstrapIntervals<T>(
  groups: readonly T[][],
  stat: (sample: T[]) => Map<string, number>,
  opts: { samples?: number; seed?: string; level?: number } = {},
): Map<string, { lo: number; hi: number }> {
  const samples = opts.samples ?? 200;
  const level = opts.level ?? 0.95;
  const rng = seedrandom(opts.seed ?? 'arena-ratings');
  const values = new Map<string, number[]>();
  for (let s = 0; s < samples && groups.length > 0; s++) {
    const sample: T[] = [];
    for (let k = 0; k < groups.length; k++) sample.push(...groups[Math.floor(rng() * groups.length)]!);
    for (const [key, v] of stat(sample)) {
      if (!Number.isFinite(v)) continue;
      const list = values.get(key) ?? [];
      list.push(v);
      values.set(key, list);
    }
  }
  const out = new Map<string, { lo: number; hi: number }>();
  for (const [key, list] of values) {
    list.sort((a, b) => a - b);
    out.set(key, { lo: quantile(list, (1 - level) / 2), hi: quantile(list, 1 - (1 - level) / 2) });
  }
  return out;
}

/** Group outcomes by match, in first-seen order (the bootstrap's resampling units). */
export function byMatch(games: readonly PairOutcome[]): PairOutcome[][] {
  const groups = new Map<string, PairOutcome[]>();
  for (const g of games) groups.set(g.matchId, [...(groups.get(g.matchId) ?? []), g]);
  return [...groups.values()];
}
