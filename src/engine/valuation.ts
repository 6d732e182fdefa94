/**
 * A lab's valuation of its own position, in credits. Used to value trades from the deciding lab's own
 * point of view (docs/RULES.md §3.2; fixes the original's inverted valuation, §A.2 D1) by both the
 * engine (deal_quality) and the scripted policies (whether to accept). Pure.
 */
import type { BlockStatus, Job } from './types.js';
import { bestAssignment, type AssignmentInput } from './assignment.js';

/** The facts about a block that valuation needs (a full Block or a PublicBlock both fit). */
export interface ValuedBlock {
  id: string;
  gpuHours: number;
  reliability: number;
  status: BlockStatus;
}

/** Credits a spare usable GPU-hour is worth (resale value; docs/RULES.md §3.2). */
export const SPARE_HOUR_VALUE = 1.5;

const usable = (b: ValuedBlock) => b.status === 'available' || b.status === 'reserved';

/** Job value in credits if completed: base × urgency (as the original: docs/RULES.md §A.1). */
export const jobValue = (j: Job): number => j.baseValue * j.urgencyMultiplier;

/** A position split into the value of each pending job (value × fundable fraction) and the rest. */
export interface PositionParts {
  total: number;
  /** Job id → value × fundable fraction (credits), for every pending job. */
  byJob: Record<string, number>;
}

// Scratch lists of loadJobs and assess, reused by every call; they read each block's and job's fields once
// into them: the engine's job and block records come in several shapes (optional keys, public facts, copies),
// so every property read is a polymorphic lookup, and the sorts used to repeat them at each comparison.
// They never escape and neither function re-enters (neither calls outside code), so nothing is
// carried from one call to the next: slots past the current lists' lengths are never read. Bounded by
// the longest lists valued.
/** Usable blocks (in list order): GPU-hours, reliability, id, and the slot that marks their id as taken. */
const bHours: number[] = [];
const bRel: number[] = [];
const bId: string[] = [];
const bSlot: number[] = [];
/** Per slot: the pending job (its place in valuation order) holding the id, or −1 while the id is free. */
const bTaker: number[] = [];
/** Usable blocks' indexes in valuation order (GPU-hours desc, then id). */
const bOrder: number[] = [];
/** Per block: whether it is the first of its id (a repeated id cannot be assigned twice by the exact search). */
const bFirst: boolean[] = [];
/**
 * Pending jobs (in list order): deadline, value, id, hours required and allocated, minimum reliability and
 * partial credit; and their indexes in valuation order. Filled by loadJobs and only read by assess, so one
 * load serves the two valuations of a trade (before and after).
 */
const jDeadline: number[] = [];
const jValue: number[] = [];
const jId: string[] = [];
const jRequired: number[] = [];
const jAllocated: number[] = [];
const jMinRel: number[] = [];
const jPartial: boolean[] = [];
const jOrder: number[] = [];
/** The scratch lists as the exact search reads them (assignment.ts); `nb` and `nj` are set per call. */
const exactInput: AssignmentInput = {
  hours: bHours,
  rel: bRel,
  first: bFirst,
  order: bOrder,
  nb: 0,
  value: jValue,
  required: jRequired,
  allocated: jAllocated,
  minRel: jMinRel,
  partial: jPartial,
  jobs: jOrder,
  nj: 0,
  spareValue: SPARE_HOUR_VALUE,
};
/** Job values of the exact search's best assignment, in valuation order. */
const exactValues: number[] = [];

// The orders of the reference sorts, on the scratch lists (x, y: indexes): hours desc then id, and
// deadline asc, value desc, then id. Ties fall only between equal ids, which compare 1 both ways.
const byHoursDesc = (x: number, y: number): number => bHours[y]! - bHours[x]! || (bId[x]! < bId[y]! ? -1 : 1);
const byDeadline = (x: number, y: number): number =>
  jDeadline[x]! - jDeadline[y]! || jValue[y]! - jValue[x]! || (jId[x]! < jId[y]! ? -1 : 1);

/**
 * Indexes 0…n−1 in `order`, sorted by `cmp` as Array.prototype.sort orders the items themselves (its
 * result depends only on the comparisons), without its per-call setup, which dominates for a lab's
 * handful of items. V8 sorts a list shorter than 64 by binary insertion, placing each element after every
 * earlier one it does not precede (cmp ≥ 0); a linear scan finds the same place for these comparators
 * (ordered keys, ties only between equal ids, which compare 1 both ways). Longer lists go to
 * Array.prototype.sort itself.
 */
export function sortIndexes(order: number[], n: number, cmp: (x: number, y: number) => number): void {
  if (n >= 64) {
    const all: number[] = [];
    for (let i = 0; i < n; i++) all.push(i);
    all.sort(cmp);
    for (let i = 0; i < n; i++) order[i] = all[i]!;
    return;
  }
  for (let i = 0; i < n; i++) {
    let j = i - 1;
    while (j >= 0 && cmp(i, order[j]!) < 0) {
      order[j + 1] = order[j]!;
      j--;
    }
    order[j + 1] = i;
  }
}

/**
 * A position with each pending job's part as two parallel lists in valuation order (deadline asc, value
 * desc): the form the engine uses internally. A record keyed by job id (PositionParts.byJob) is slow to
 * build on a hot path — every lab's jobs give it a different set and order of keys.
 */
export interface PositionTable {
  total: number;
  /** Pending job ids, in valuation order. */
  jobIds: string[];
  /** Value × fundable fraction (credits) of each job of `jobIds`. */
  values: number[];
}

/** Put block `b` at place `nb` of the scratch block lists. */
function addBlock(b: ValuedBlock, nb: number): void {
  bHours[nb] = b.gpuHours;
  bRel[nb] = b.reliability;
  bId[nb] = b.id;
  // Taken marks are per id, as a list of taken ids would keep them: a repeated id shares its first slot.
  let slot = nb;
  for (let k = 0; k < nb; k++) {
    if (bId[k] === b.id) {
      slot = k;
      break;
    }
  }
  bSlot[nb] = slot;
  bFirst[nb] = slot === nb;
  bTaker[nb] = -1;
}

/** Whether `id` is among `ids` (indexed: `give` lists are short, often empty). */
function among(ids: readonly string[], id: string): boolean {
  for (let i = 0; i < ids.length; i++) if (ids[i] === id) return true;
  return false;
}

const NO_IDS: readonly string[] = [];
const NO_BLOCKS: readonly ValuedBlock[] = [];

/** Load the pending jobs of `jobs` into the scratch job lists, in valuation order; returns their count. */
function loadJobs(jobs: readonly Job[]): number {
  // Indexed loops: the lists may be frozen (observations), which for…of iterates slowly.
  let nj = 0;
  for (let i = 0; i < jobs.length; i++) {
    const j = jobs[i]!;
    if (j.outcome !== 'pending') continue;
    jDeadline[nj] = j.deadlineRound;
    jValue[nj] = jobValue(j);
    jId[nj] = j.id;
    jRequired[nj] = j.gpuHoursRequired;
    jAllocated[nj] = j.allocatedHours;
    jMinRel[nj] = j.minReliability;
    jPartial[nj] = j.partialCreditAllowed;
    nj++;
  }
  sortIndexes(jOrder, nj, byDeadline);
  return nj;
}

/**
 * Σ over the `nj` loaded pending jobs of value × fundable fraction, plus SPARE_HOUR_VALUE × spare hours
 * (without the budget), appending each pending job's id and part to `ids`/`values` when given. See
 * {@link positionParts}. The blocks valued are `blocks` without the ids in `give`, then `receive` counted
 * as available: the list a trade leaves, read in place rather than copied.
 */
function assess(
  nj: number,
  blocks: readonly ValuedBlock[],
  give: readonly string[],
  receive: readonly ValuedBlock[],
  ids: string[] | null,
  values: number[] | null,
  exact: boolean,
): number {
  const first = values === null ? 0 : values.length;
  let nb = 0;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    if (usable(b) && (give.length === 0 || !among(give, b.id))) addBlock(b, nb++);
  }
  for (let i = 0; i < receive.length; i++) addBlock(receive[i]!, nb++);
  sortIndexes(bOrder, nb, byHoursDesc);
  let value = 0;
  for (let p = 0; p < nj; p++) {
    const x = jOrder[p]!;
    const need = jRequired[x]! - jAllocated[x]!;
    let v = 0;
    if (need <= 0) v = jValue[x]!;
    else {
      let got = 0;
      const minRel = jMinRel[x]!;
      for (let k = 0; k < nb; k++) {
        if (got >= need) break;
        const b = bOrder[k]!;
        const taker = bTaker[bSlot[b]!]!;
        // Blocks taken by an earlier job are skipped; this job may take a repeated id twice.
        if (bRel[b]! < minRel || (taker !== -1 && taker !== p)) continue;
        got += bHours[b]!;
        bTaker[bSlot[b]!] = p;
      }
      if (got >= need) {
        v = jValue[x]!;
      } else if (jPartial[x]! && got > 0) {
        v = (jValue[x]! * (jAllocated[x]! + got)) / jRequired[x]!;
      } else {
        for (let k = 0; k < nb; k++) if (bTaker[k] === p) bTaker[k] = -1; // an unfundable job keeps nothing
        if (jPartial[x]!) v = (jValue[x]! * jAllocated[x]!) / jRequired[x]!;
      }
    }
    if (ids !== null && values !== null) {
      ids.push(jId[x]!);
      values.push(v);
    }
    value += v;
  }
  let spare = 0;
  for (let k = 0; k < nb; k++) {
    const b = bOrder[k]!;
    if (bTaker[bSlot[b]!] === -1) spare += bHours[b]! * bRel[b]!;
  }
  const greedy = value + SPARE_HOUR_VALUE * spare;
  if (!exact || nj === 0 || nb === 0) return greedy;
  // Rules v4: the best assignment; the greedy one above is its lower bound (usually already the best).
  exactInput.nb = nb;
  exactInput.nj = nj;
  const best = bestAssignment(exactInput, greedy, exactValues);
  if (best !== greedy && values !== null) for (let p = 0; p < nj; p++) values[first + p] = exactValues[p]!;
  return best;
}

/** Valuation cores (no budget) of a position and of the list a trade leaves, see {@link tradeCores}. */
export interface TradeCores {
  before: number;
  after: number;
}

/**
 * `positionValue(jobs, blocks, 0)` and `positionValueAfter(jobs, blocks, 0, give, receive)` with the jobs
 * loaded once: a trade is valued before and after on the same jobs, and reading a job record's fields
 * costs more than the rest of a valuation (the records come in several shapes).
 */
export function tradeCores(
  jobs: readonly Job[],
  blocks: readonly ValuedBlock[],
  give: readonly string[],
  receive: readonly ValuedBlock[],
  exact: boolean,
): TradeCores {
  const nj = loadJobs(jobs);
  const before = assess(nj, blocks, NO_IDS, NO_BLOCKS, null, null, exact);
  return { before, after: assess(nj, blocks, give, receive, null, null, exact) };
}

/**
 * Position value = Σ over pending jobs (deadline asc, value desc) of value × fundable fraction
 * + SPARE_HOUR_VALUE × spare usable GPU-hours (reliability-weighted) + budget. A job without partial
 * credit counts only if fully covered (then its blocks are consumed); blocks serve only jobs whose
 * minimum reliability they meet. `exact` (rules v4): blocks go to jobs by the best assignment
 * (assignment.ts); otherwise (v3) greedily, earliest deadline first, largest block first.
 *
 * @param jobs the lab's jobs (settled ones are ignored)
 * @param blocks the lab's blocks (only available/reserved ones count)
 * @param budget credits
 * @param exact the best assignment (rules v4) rather than the greedy one (v3)
 */
export function positionParts(
  jobs: readonly Job[],
  blocks: readonly ValuedBlock[],
  budget: number,
  exact: boolean,
): PositionParts {
  const t = positionTable(jobs, blocks, budget, exact);
  const byJob: Record<string, number> = {};
  for (let i = 0; i < t.jobIds.length; i++) byJob[t.jobIds[i]!] = t.values[i]!;
  return { total: t.total, byJob };
}

/** {@link positionParts} with the job parts as lists: `byJob[jobIds[i]] = values[i]`, in this order. */
export function positionTable(
  jobs: readonly Job[],
  blocks: readonly ValuedBlock[],
  budget: number,
  exact: boolean,
): PositionTable {
  const jobIds: string[] = [];
  const values: number[] = [];
  return { total: assess(loadJobs(jobs), blocks, NO_IDS, NO_BLOCKS, jobIds, values, exact) + budget, jobIds, values };
}

/** Position value in credits: `positionParts(...).total`. */
export function positionValue(
  jobs: readonly Job[],
  blocks: readonly ValuedBlock[],
  budget: number,
  exact: boolean,
): number {
  return assess(loadJobs(jobs), blocks, NO_IDS, NO_BLOCKS, null, null, exact) + budget;
}

/**
 * Position value in credits after a trade: `positionValue(jobs, after, budget)`, where `after` is
 * `blocks` without the ids in `give`, then the `receive` blocks counted as available (valuation reads only
 * their id, hours and reliability), without building `after` or copies of the received blocks.
 */
export function positionValueAfter(
  jobs: readonly Job[],
  blocks: readonly ValuedBlock[],
  budget: number,
  give: readonly string[],
  receive: readonly ValuedBlock[],
  exact: boolean,
): number {
  return assess(loadJobs(jobs), blocks, give, receive, null, null, exact) + budget;
}

/**
 * Gain in credits for a lab from a trade: positionValue(after) − positionValue(before).
 *
 * @param give ids of the lab's own blocks it would hand over
 * @param receive blocks it would get (public facts suffice)
 * @param paymentIn credits it receives (negative when it pays)
 */
export function tradeGain(
  jobs: readonly Job[],
  blocks: readonly ValuedBlock[],
  budget: number,
  give: readonly string[],
  receive: readonly ValuedBlock[],
  paymentIn: number,
  exact: boolean,
): number {
  // tradeGainFrom(positionValue(jobs, blocks, budget), …) with the jobs loaded once: the same float operations.
  const c = tradeCores(jobs, blocks, give, receive, exact);
  return c.after + (budget + paymentIn) - (c.before + budget);
}

/**
 * {@link tradeGain} given `before` = positionValue(jobs, blocks, budget), for callers that value several
 * trades from one position (the policies).
 */
export function tradeGainFrom(
  before: number,
  jobs: readonly Job[],
  blocks: readonly ValuedBlock[],
  budget: number,
  give: readonly string[],
  receive: readonly ValuedBlock[],
  paymentIn: number,
  exact: boolean,
): number {
  return positionValueAfter(jobs, blocks, budget + paymentIn, give, receive, exact) - before;
}
