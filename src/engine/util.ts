/**
 * Small numeric and block helpers shared by the engine modules. Pure.
 */
import type { Block, LabId } from './types.js';

/** Round to 2 decimals (money, reliability, energy: the original stored these at 2 dp). */
export const round2 = (x: number): number => Math.round(x * 100) / 100;

/** Round to 4 decimals (reward columns and reputation, as the original). */
export const round4 = (x: number): number => Math.round(x * 10000) / 10000;

export const clamp = (x: number, lo: number, hi: number): number => (x < lo ? lo : x > hi ? hi : x);

/**
 * A "live" block can still be traded, reserved or allocated by its owner: status available or reserved
 * (docs/RULES.md §3). Committed, used and failed blocks are not live.
 */
export const isLive = (b: Pick<Block, 'status'>): boolean => b.status === 'available' || b.status === 'reserved';

/** Index i of `lab_<i>` (for `b_<i>_<j>`, `j_<i>_surge_<r>` ids). */
export const labIndex = (lab: LabId): number => Number(lab.slice(4));

/** Uniform draw in [lo, hi) rounded to 2 dp. */
export const uniform2 = (r: () => number, lo: number, hi: number): number => round2(lo + r() * (hi - lo));

/** One element drawn uniformly from a non-empty list. */
export function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.min(xs.length - 1, Math.floor(r() * xs.length))] as T;
}

/** First repeated value of a list, or undefined (docs/RULES.md §3: repeated ids → duplicate_block). */
export function firstDuplicate(xs: readonly string[]): string | undefined {
  const n = xs.length;
  if (n < 2) return undefined;
  // Short lists (the usual 1–4 ids) are scanned pairwise instead of allocating a Set; same answer: the
  // first element that repeats an earlier one.
  if (n <= 16) {
    for (let i = 1; i < n; i++) {
      const x = xs[i]!;
      for (let k = 0; k < i; k++) if (xs[k] === x) return x;
    }
    return undefined;
  }
  const seen = new Set<string>();
  for (const x of xs) {
    if (seen.has(x)) return x;
    seen.add(x);
  }
  return undefined;
}

/** Split `cents` integer cents over weights (≥ 0, Σ > 0); remainder to the largest weight (first on ties). */
export function splitCents(cents: number, weights: readonly number[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  const shares = weights.map((w) => Math.floor((cents * w) / total));
  let best = 0;
  for (let i = 1; i < weights.length; i++) if ((weights[i] as number) > (weights[best] as number)) best = i;
  shares[best] = (shares[best] as number) + cents - shares.reduce((a, b) => a + b, 0);
  return shares;
}

/**
 * Look up a record entry by an id that came from outside (an action). Plain `rec[id]` would return
 * inherited members for ids such as `__proto__` or `constructor`.
 */
export function own<T>(rec: Readonly<Record<string, T>>, id: string): T | undefined {
  return Object.hasOwn(rec, id) ? rec[id] : undefined;
}
