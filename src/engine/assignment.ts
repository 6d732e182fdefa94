/**
 * The best assignment of a lab's usable blocks to its pending jobs (rules v4, docs/RULES.md §3.2): the
 * assignment that maximises Σ job value × credit + SPARE_HOUR_VALUE × spare reliability-weighted hours,
 * found by branch and bound. The greedy assignment of rules v3 (earliest deadline first, largest block
 * first) could leave a job unfunded that another split funds, or spend a large block where a small one
 * does; a trade that lets a job complete could then be valued as a loss. Pure; the caller passes its
 * scratch lists (valuation.ts) and this module keeps its own, never carrying anything between calls.
 *
 * Instances are small (a lab holds a handful of blocks and jobs), and the search starts from the greedy
 * value as its lower bound, so most positions are settled at the root.
 */

/** A position in the caller's scratch lists: blocks in search order, jobs in valuation order. */
export interface AssignmentInput {
  /** Blocks: GPU-hours and reliability by index; `first[b]` false for a repeated id (it cannot be used twice). */
  hours: readonly number[];
  rel: readonly number[];
  first: readonly boolean[];
  /** Block indexes in search order (GPU-hours descending), `nb` of them. */
  order: readonly number[];
  nb: number;
  /** Pending jobs by index: value (credits), required and already allocated GPU-hours, minimum reliability, partial credit. */
  value: readonly number[];
  required: readonly number[];
  allocated: readonly number[];
  minRel: readonly number[];
  partial: readonly boolean[];
  /** Job indexes in valuation order, `nj` of them. */
  jobs: readonly number[];
  nj: number;
  /** Credits a spare reliability-weighted GPU-hour is worth. */
  spareValue: number;
}

/**
 * Nodes one search may visit. Far above any position of the presets (a lab holds ≤ 4 blocks at the start
 * and rarely more than 8); a position beyond it keeps the best assignment found so far, which is never
 * worse than the greedy one.
 */
export const SEARCH_NODE_LIMIT = 200_000;

// Search state, per job place p (valuation order): hours got and the job's own fields, read once.
const got: number[] = [];
const need: number[] = [];
const val: number[] = [];
const req: number[] = [];
const alloc: number[] = [];
const minRel: number[] = [];
const part: boolean[] = [];
const bestGot: number[] = [];
let best = 0;
let improved = false;
let nodes = 0;
let input: AssignmentInput;

/** Credit-weighted value of job place `p` with `g` GPU-hours assigned. */
function jobValueWith(p: number, g: number): number {
  if (g >= need[p]!) return val[p]!;
  return part[p]! ? (val[p]! * (alloc[p]! + g)) / req[p]! : 0;
}

/**
 * An upper bound on what blocks `k…` can still add: each one's best of its spare value and, for every job
 * it could serve that is still short, its share of that job's value (V × min(h, N) / N for a job short of
 * N hours without partial credit, V × min(h, N) / R with partial credit). Any assignment's gain is at most
 * the sum of its blocks' shares, so the bound is valid.
 */
function bound(k: number): number {
  const { hours, rel, first, order, nb, spareValue } = input;
  let total = 0;
  for (let i = k; i < nb; i++) {
    const b = order[i]!;
    if (!first[b]) continue;
    let m = spareValue * hours[b]! * rel[b]!;
    for (let p = 0; p < input.nj; p++) {
      const n = need[p]! - got[p]!;
      if (n <= 0 || rel[b]! < minRel[p]!) continue;
      const share = (val[p]! * Math.min(hours[b]!, n)) / (part[p]! ? req[p]! : n);
      if (share > m) m = share;
    }
    total += m;
  }
  return total;
}

/** The jobs' value plus `spare` (spare value of blocks before `k`). */
function leafValue(spare: number): number {
  let v = spare;
  for (let p = 0; p < input.nj; p++) v += jobValueWith(p, got[p]!);
  return v;
}

function search(k: number, spare: number): void {
  if (++nodes > SEARCH_NODE_LIMIT) return;
  const { hours, rel, first, order, nb, spareValue } = input;
  if (k === nb) {
    const v = leafValue(spare);
    if (v > best + 1e-9) {
      best = v;
      improved = true;
      for (let p = 0; p < input.nj; p++) bestGot[p] = got[p]!;
    }
    return;
  }
  if (leafValue(spare) + bound(k) <= best + 1e-9) return;
  const b = order[k]!;
  if (!first[b]) return search(k + 1, spare);
  // A job first (deadline order), then the spare shelf: good assignments are found early and prune the rest.
  for (let p = 0; p < input.nj; p++) {
    if (got[p]! >= need[p]! || rel[b]! < minRel[p]!) continue;
    got[p] = got[p]! + hours[b]!;
    search(k + 1, spare);
    got[p] = got[p]! - hours[b]!;
  }
  search(k + 1, spare + spareValue * hours[b]! * rel[b]!);
}

/**
 * The best assignment's value (Σ job value × credit + spare value), given `lowerBound` (the greedy
 * assignment's value: the search only looks for better). Writes each job's value (in valuation order) into
 * `jobValues` when the search beats the bound; returns the bound unchanged otherwise.
 */
export function bestAssignment(x: AssignmentInput, lowerBound: number, jobValues: number[]): number {
  input = x;
  for (let p = 0; p < x.nj; p++) {
    const j = x.jobs[p]!;
    val[p] = x.value[j]!;
    req[p] = x.required[j]!;
    alloc[p] = x.allocated[j]!;
    minRel[p] = x.minRel[j]!;
    part[p] = x.partial[j]!;
    need[p] = req[p]! - alloc[p]!;
    got[p] = 0;
  }
  best = lowerBound;
  improved = false;
  nodes = 0;
  search(0, 0);
  if (!improved) return lowerBound;
  for (let p = 0; p < x.nj; p++) jobValues[p] = jobValueWith(p, bestGot[p]!);
  return best;
}
