/**
 * Reading LLM judge replies and combining a panel (several models or samples): each call's reply is
 * mapped back from aliases to labs and checked (every seat exactly once), its criteria are weighted into
 * one score per seat, and a panel takes the median per seat (and per criterion) over the calls that
 * succeeded. Pure.
 */
import type { LabId } from '../engine/types.js';
import { CRITERIA, CRITERION_WEIGHTS, type Arrangement, type Criterion, type JudgeReply } from './llm-prompt.js';

/** One seat as scored by one call. */
export interface RunSeatScore {
  criteria: Record<Criterion, number>;
  /** Σ weight × criterion, in [0, 1]. */
  score: number;
  rationale: string;
}

/** Median of a non-empty list (mean of the two middle values for an even count). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const r4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** Weighted score of a seat's criteria (weights: CRITERION_WEIGHTS, sum 1). */
export const weighted = (c: Record<Criterion, number>): number =>
  r4(CRITERIA.reduce((a, k) => a + CRITERION_WEIGHTS[k] * c[k], 0));

/** Longest rationale kept (models are asked for two sentences). */
export const RATIONALE_MAX = 400;

/**
 * Map a validated reply back to labs. Fails `unknown_seat` / `missing_seat` / `duplicate_seat` when the
 * reply does not name every alias of the arrangement exactly once.
 */
export function readReply(
  reply: JudgeReply,
  arrangement: Arrangement,
):
  | { ok: true; seats: Record<LabId, RunSeatScore> }
  | { ok: false; code: 'unknown_seat' | 'missing_seat' | 'duplicate_seat'; message: string } {
  const labOf = new Map(Object.entries(arrangement.alias).map(([lab, a]) => [a.trim().toLowerCase(), lab]));
  const seats: Record<LabId, RunSeatScore> = {};
  for (const s of reply.seats) {
    const lab = labOf.get(s.seat.trim().toLowerCase());
    if (!lab)
      return { ok: false, code: 'unknown_seat', message: `reply names an unknown seat "${s.seat.slice(0, 40)}"` };
    if (seats[lab]) return { ok: false, code: 'duplicate_seat', message: `reply scores ${s.seat} twice` };
    const criteria = {
      need: s.need,
      urgency: s.urgency,
      specificity_truthfulness: s.specificity_truthfulness,
      fairness_coalition: s.fairness_coalition,
    };
    seats[lab] = { criteria, score: weighted(criteria), rationale: s.rationale.slice(0, RATIONALE_MAX) };
  }
  const missing = arrangement.order.filter((lab) => !seats[lab]);
  if (missing.length)
    return {
      ok: false,
      code: 'missing_seat',
      message: `reply omits ${missing.map((l) => arrangement.alias[l]).join(', ')}`,
    };
  return { ok: true, seats };
}

/** Median per seat over the successful calls: the score and each criterion. */
export function combinePanel(
  labs: readonly LabId[],
  runs: readonly Record<LabId, RunSeatScore>[],
): Record<LabId, { score: number; criteria: Record<Criterion, number> }> {
  const out: Record<LabId, { score: number; criteria: Record<Criterion, number> }> = {};
  for (const lab of labs) {
    const mine = runs.map((r) => r[lab]).filter((x): x is RunSeatScore => x !== undefined);
    const criteria = Object.fromEntries(CRITERIA.map((k) => [k, r4(median(mine.map((m) => m.criteria[k])))])) as Record<
      Criterion,
      number
    >;
    out[lab] = { score: r4(median(mine.map((m) => m.score))), criteria };
  }
  return out;
}

/**
 * Most the model can move a seat from its grounded score (docs/LLM.md "Hardening"): the model orders
 * pitches whose grounded scores are within 2 × this of each other, and cannot lift a weaker one further.
 */
export const MODEL_MOVE_MAX = 0.05;

/**
 * How far below the best grounded score a pitch that can win may be and still be ordered by the model
 * (2 × {@link MODEL_MOVE_MAX}): a larger grounded lead always stands (docs/LLM.md "Hardening").
 */
export const CONTEST_BAND = 2 * MODEL_MOVE_MAX;

/** One judgement asked in both orders (the seats shown forward, then reversed); null for a failed call. */
export interface OrderedPair {
  forward: Record<LabId, RunSeatScore> | null;
  reverse: Record<LabId, RunSeatScore> | null;
}

/** The single best seat of one call's scores, or null when several share the top score. */
function topOf(labs: readonly LabId[], scores: Record<LabId, RunSeatScore>): LabId | null {
  let best: LabId | null = null;
  let top = -Infinity;
  let tied = false;
  for (const lab of labs) {
    const s = scores[lab]?.score ?? 0;
    if (s > top) [best, top, tied] = [lab, s, false];
    else if (s === top) tied = true;
  }
  return tied ? null : best;
}

/**
 * The model's preference per seat from one both-orders pair: the mean of its two scores minus the mean
 * over seats (so only the model's *relative* opinion counts, on any scale). A tie — every preference 0 —
 * when a call failed or the two orders disagree on the best seat (the model followed the position, not
 * the pitch). `consistent` says which.
 */
export function pairPreference(
  labs: readonly LabId[],
  pair: OrderedPair,
): { prefs: Record<LabId, number>; consistent: boolean } {
  const zero = Object.fromEntries(labs.map((l) => [l, 0]));
  const { forward, reverse } = pair;
  if (!forward || !reverse) return { prefs: zero, consistent: false };
  const top = topOf(labs, forward);
  if (top !== topOf(labs, reverse)) return { prefs: zero, consistent: false };
  const mean2 = (lab: LabId) => ((forward[lab]?.score ?? 0) + (reverse[lab]?.score ?? 0)) / 2;
  const avg = labs.reduce((a, l) => a + mean2(l), 0) / Math.max(1, labs.length);
  return { prefs: Object.fromEntries(labs.map((l) => [l, r4(mean2(l) - avg)])), consistent: true };
}

/** Each seat's move from its grounded score: the median preference over the pairs, bounded by ±{@link MODEL_MOVE_MAX}. */
export function boundedMoves(labs: readonly LabId[], prefs: readonly Record<LabId, number>[]): Record<LabId, number> {
  const out: Record<LabId, number> = {};
  for (const lab of labs)
    out[lab] = r4(Math.max(-MODEL_MOVE_MAX, Math.min(MODEL_MOVE_MAX, median(prefs.map((p) => p[lab] ?? 0)))));
  return out;
}
