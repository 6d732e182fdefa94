/**
 * Exact intervals for proportions: Clopper–Pearson (1934), the equal-tailed interval from Beta quantiles,
 * whose coverage is at least the nominal level at every n (conservative at small n), and never of zero
 * width for n ≥ 1. `x` may be fractional (a tie counted ½ a win): the Beta form extends to it.
 */
import { betaQuantile, LEVEL } from './distributions.js';

/** A share with its interval. */
export interface Proportion {
  /** x / n. */
  share: number;
  lo: number;
  hi: number;
  /** Successes (may be fractional) and trials. */
  x: number;
  n: number;
}

/** Clopper–Pearson interval of `x` successes in `n` trials; null for n = 0. */
export function clopperPearson(x: number, n: number, level: number = LEVEL): Proportion | null {
  if (!(n > 0) || !(x >= 0) || x > n) return null;
  const a = (1 - level) / 2;
  const lo = x <= 0 ? 0 : betaQuantile(a, x, n - x + 1);
  const hi = x >= n ? 1 : betaQuantile(1 - a, x + 1, n - x);
  return { share: x / n, lo, hi, x, n };
}
