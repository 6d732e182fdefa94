/**
 * Ratings with intervals that hold at every sample size (pure; the method docs/RATINGS-AND-CHARTS.md states).
 *
 * - **Point.** The Bradley–Terry fit with its prior (bradley-terry.ts), centred: a rating is
 *   1000 + (400 / ln 10)·(θ − mean θ of the anchor players), so 1000 is the average player of the table
 *   (the anchor: every player; for the people aggregate, the models and policies, aligned with the table).
 * - **Preliminary** (fewer than {@link MIN_BOOTSTRAP_MATCHES} counted matches): the interval of the model,
 *   θ ± z·sd with the variance of (θ − anchor mean) from the observed Fisher information and the prior
 *   (the Laplace approximation of the posterior). The k seats of a match give k(k − 1)/2 pairs but only
 *   k − 1 independent comparisons (a ranking of k is k − 1 successive choices), so each pair counts 2/k of
 *   a game in the information; without that the intervals covered 91 % at 20 matches a player in our
 *   simulation of three-seat matches. The prior keeps the interval finite and never of zero width.
 * - **From {@link MIN_BOOTSTRAP_MATCHES} matches on**: the 95 % percentile interval of the centred fits of
 *   {@link BOOTSTRAP_SAMPLES} seeded resamples of whole matches; should it come out of zero width (every
 *   resample alike), the model's interval is used instead.
 *
 * Coverage of the nominal 95 % intervals on synthetic leagues is checked by test/analytics/ratings.
 */
import { bootstrapIntervals, byMatch, covariance, ELO_PER_NAT, fitStrengths, type Strengths } from './bradley-terry.js';
import { zOf } from '../stats/distributions.js';
import type { PairOutcome, RatingInterval } from './types.js';

/** Matches a player needs before its interval comes from the bootstrap (below: preliminary, the model's interval). */
export const MIN_BOOTSTRAP_MATCHES = 20;
/** Bootstrap resamples of whole matches. */
export const BOOTSTRAP_SAMPLES = 200;

/** Options of {@link rateWithIntervals}. */
export interface RateOptions {
  /** Virtual games against the reference (the prior), > 0. */
  prior: number;
  samples?: number;
  seed: string;
  /** Counted matches of each player. */
  matches: ReadonlyMap<string, number>;
  /** Seats of each match (a pair's weight in the information is 2 / seats). */
  seats: ReadonlyMap<string, number>;
  /** Players whose mean θ is the table's 1000 (default: every player). */
  anchor?: (id: string) => boolean;
  /** Rating points added after centring (aligns a second fit with the table; default 0). */
  offset?: number;
  /** Only these players get a row (default: every player); the fit still uses every game. */
  report?: (id: string) => boolean;
}

/** Centred θ of a fit: θ − mean θ of the anchor players present (all players when none is). */
function centred(fit: Strengths, anchor: (id: string) => boolean): Float64Array {
  const idx = fit.ids.flatMap((id, i) => (anchor(id) ? [i] : []));
  const use = idx.length ? idx : fit.ids.map((_, i) => i);
  const mean = use.reduce((s, i) => s + fit.theta[i]!, 0) / use.length;
  return fit.theta.map((t) => t - mean);
}

/** Variance of θ_i − mean of θ over `anchor` indices, from the covariance `c`. */
function centredVariance(c: number[][], i: number, anchor: readonly number[]): number {
  const m = anchor.length;
  let cross = 0;
  let inner = 0;
  for (const a of anchor) {
    cross += c[i]![a]!;
    for (const b of anchor) inner += c[a]![b]!;
  }
  return Math.max(0, c[i]![i]! - (2 / m) * cross + inner / (m * m));
}

/** Every player's rating and interval from `games` (see the file comment). Deterministic for a seed. */
export function rateWithIntervals(games: readonly PairOutcome[], o: RateOptions): Map<string, RatingInterval> {
  const anchor = o.anchor ?? (() => true);
  const report = o.report ?? (() => true);
  const offset = o.offset ?? 0;
  const fit = fitStrengths(games, { prior: o.prior });
  if (fit.ids.length === 0) return new Map();
  const point = centred(fit, anchor);
  const weight = (g: PairOutcome) => 2 / Math.max(2, o.seats.get(g.matchId) ?? 2);
  const cov = covariance(games, fit, o.prior, weight);
  const anchorIdx = fit.ids.flatMap((id, i) => (anchor(id) ? [i] : []));
  const anchorUse = anchorIdx.length ? anchorIdx : fit.ids.map((_, i) => i);
  const z = zOf();
  const rating = (t: number) => 1000 + ELO_PER_NAT * t + offset;
  const needBoot = fit.ids.some((id) => report(id) && (o.matches.get(id) ?? 0) >= MIN_BOOTSTRAP_MATCHES);
  const boot = needBoot
    ? bootstrapIntervals(
        byMatch(games),
        (sample) => {
          const f = fitStrengths(sample, { prior: o.prior });
          const c = centred(f, anchor);
          return new Map(f.ids.map((id, i) => [id, rating(c[i]!)]));
        },
        { samples: o.samples ?? BOOTSTRAP_SAMPLES, seed: o.seed },
      )
    : new Map<string, { lo: number; hi: number }>();
  const out = new Map<string, RatingInterval>();
  fit.ids.forEach((id, i) => {
    if (!report(id)) return;
    const r = rating(point[i]!);
    const sd = ELO_PER_NAT * Math.sqrt(centredVariance(cov, i, anchorUse));
    const preliminary = (o.matches.get(id) ?? 0) < MIN_BOOTSTRAP_MATCHES;
    const b = preliminary ? undefined : boot.get(id);
    if (b && b.hi - b.lo > 1e-6) out.set(id, { rating: r, lo: b.lo, hi: b.hi, interval: 'bootstrap', preliminary });
    else out.set(id, { rating: r, lo: r - z * sd, hi: r + z * sd, interval: 'model', preliminary });
  });
  return out;
}
