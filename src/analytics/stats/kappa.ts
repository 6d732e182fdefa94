/**
 * An interval for Cohen's kappa that holds at moderate n and never collapses: the equal-tailed posterior
 * interval of κ under a Dirichlet–multinomial model of the k × k table of the two raters' labels, with
 * Perks' prior (1/k² in every cell, one pseudo-observation in all). Draws are made by inverse-CDF sampling
 * of Gamma variates from a seeded generator, so the same table always gives the same interval. A
 * percentile bootstrap of pairs gives a zero-width interval on perfect agreement (every resample agrees);
 * the prior keeps it honest. Jeffreys' ½ a cell (4.5 pseudo-observations for 3 × 3) pulls κ towards 0
 * and covered 85–92 % at n = 20–100 in our simulation; Perks' prior covered 94–95 % (test/analytics/stats).
 */
import seedrandom from 'seedrandom';
import { gammaQuantile, LEVEL } from './distributions.js';

/** κ = (p_o − p_e) / (1 − p_e) of a table of cell probabilities (or counts); null when p_e = 1. */
export function kappaOfTable(t: readonly (readonly number[])[]): number | null {
  const k = t.length;
  let total = 0;
  for (const row of t) for (const c of row) total += c;
  if (total <= 0) return null;
  let po = 0;
  let pe = 0;
  for (let i = 0; i < k; i++) {
    po += t[i]![i]! / total;
    let row = 0;
    let col = 0;
    for (let j = 0; j < k; j++) {
      row += t[i]![j]!;
      col += t[j]![i]!;
    }
    pe += (row / total) * (col / total);
  }
  return pe >= 1 - 1e-12 ? null : (po - pe) / (1 - pe);
}

/** Options of {@link kappaInterval}. */
export interface KappaIntervalOptions {
  /** Posterior draws (default 2000). */
  draws?: number;
  seed: string;
  level?: number;
  /** Prior count per cell (default 1/k², Perks). */
  prior?: number;
}

/** The posterior interval of κ for the count table `counts` (see the file comment). */
export function kappaInterval(counts: readonly (readonly number[])[], opts: KappaIntervalOptions): [number, number] {
  const draws = opts.draws ?? 2000;
  const k = counts.length;
  const prior = opts.prior ?? 1 / (k * k);
  const level = opts.level ?? LEVEL;
  const rand = seedrandom(opts.seed);
  const values: number[] = [];
  const cell = counts.map((row) => row.map(() => 0));
  for (let d = 0; d < draws; d++) {
    for (let i = 0; i < k; i++)
      for (let j = 0; j < k; j++)
        cell[i]![j] = gammaQuantile(Math.min(1 - 1e-12, Math.max(1e-12, rand())), counts[i]![j]! + prior);
    const v = kappaOfTable(cell);
    if (v !== null && Number.isFinite(v)) values.push(v);
  }
  values.sort((a, b) => a - b);
  const q = (p: number) => {
    const h = (values.length - 1) * p;
    const lo = Math.floor(h);
    return values[lo]! + (h - lo) * (values[Math.min(values.length - 1, lo + 1)]! - values[lo]!);
  };
  return [q((1 - level) / 2), q(1 - (1 - level) / 2)];
}
