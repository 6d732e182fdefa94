/**
 * A lab's valuation of its own position, in credits. Used to value trades from the deciding lab's own
 * point of view (docs/RULES.md §3.2; fixes the reference's inverted valuation, Ref §12.1) by both the
 * engine (deal_quality) and the scripted policies (whether to accept). Pure.
 */
import type { BlockStatus, Job } from './types.js';

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

/** Job value in credits if completed: base × urgency (Ref §2.9). */
export const jobValue = (j: Job): number => j.baseValue * j.urgencyMultiplier;

/** A position split into the value of each pending job (value × fundable fraction) and the rest. */
export interface PositionParts {
  total: number;
  /** Job id → value × fundable fraction (credits), for every pending job. */
  byJob: Record<string, number>;
}

// Module-level comparators: the hot path allocates no closures. Block ids are unique within a position.
const byHoursDesc = (a: ValuedBlock, b: ValuedBlock): number => b.gpuHours - a.gpuHours || (a.id < b.id ? -1 : 1);
const byDeadline = (a: Job, b: Job): number => a.deadlineRound - b.deadlineRound || jobValue(b) - jobValue(a) || (a.id < b.id ? -1 : 1);

/** Whether `id` is among the first `n` taken ids (those of earlier jobs). */
function takenBefore(taken: readonly string[], n: number, id: string): boolean {
  for (let k = 0; k < n; k++) if (taken[k] === id) return true;
  return false;
}

/**
 * Sort in place by `cmp` as Array.prototype.sort does, without its per-call setup, which dominates for a
 * lab's handful of items. V8 sorts a list shorter than 64 by binary insertion, placing each element
 * after every earlier one it does not precede (cmp ≥ 0); a linear scan finds the same place for these
 * comparators (ordered keys, ties only between equal ids, which compare 1 both ways). Longer lists go to
 * Array.prototype.sort itself.
 */
export function sortShort<T>(xs: T[], cmp: (a: T, b: T) => number): void {
  if (xs.length >= 64) {
    xs.sort(cmp);
    return;
  }
  for (let i = 1; i < xs.length; i++) {
    const x = xs[i]!;
    let j = i - 1;
    while (j >= 0 && cmp(x, xs[j]!) < 0) {
      xs[j + 1] = xs[j]!;
      j--;
    }
    xs[j + 1] = x;
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

/**
 * Σ over pending jobs of value × fundable fraction, plus SPARE_HOUR_VALUE × spare hours (without the
 * budget), appending each pending job's id and part to `ids`/`values` when given. See {@link positionParts}.
 */
function positionCore(jobs: readonly Job[], blocks: readonly ValuedBlock[], ids: string[] | null, values: number[] | null): number {
  // Indexed loops: the lists may be frozen (observations), which for…of iterates slowly.
  const free: ValuedBlock[] = [];
  for (let i = 0; i < blocks.length; i++) if (usable(blocks[i]!)) free.push(blocks[i]!);
  sortShort(free, byHoursDesc);
  const pending: Job[] = [];
  for (let i = 0; i < jobs.length; i++) if (jobs[i]!.outcome === 'pending') pending.push(jobs[i]!);
  sortShort(pending, byDeadline);
  // Taken block ids: a short list (a lab holds a handful of blocks), cheaper than a Set here.
  const taken: string[] = [];
  let value = 0;
  for (let p = 0; p < pending.length; p++) {
    const job = pending[p]!;
    const need = job.gpuHoursRequired - job.allocatedHours;
    let v = 0;
    if (need <= 0) v = jobValue(job);
    else {
      let got = 0;
      const mark = taken.length;
      for (let i = 0; i < free.length; i++) {
        const b = free[i]!;
        if (got >= need) break;
        if (b.reliability < job.minReliability || takenBefore(taken, mark, b.id)) continue;
        got += b.gpuHours;
        taken.push(b.id);
      }
      if (got >= need) {
        v = jobValue(job);
      } else if (job.partialCreditAllowed && got > 0) {
        v = (jobValue(job) * (job.allocatedHours + got)) / job.gpuHoursRequired;
      } else {
        while (taken.length > mark) taken.pop(); // an unfundable job keeps nothing (pop: no `length` setter call)
        if (job.partialCreditAllowed) v = (jobValue(job) * job.allocatedHours) / job.gpuHoursRequired;
      }
    }
    if (ids !== null && values !== null) {
      ids.push(job.id);
      values.push(v);
    }
    value += v;
  }
  let spare = 0;
  for (let i = 0; i < free.length; i++) if (!taken.includes(free[i]!.id)) spare += free[i]!.gpuHours * free[i]!.reliability;
  return value + SPARE_HOUR_VALUE * spare;
}

/**
 * Position value = Σ over pending jobs (deadline asc, value desc) of value × fundable fraction
 * + SPARE_HOUR_VALUE × spare usable GPU-hours (reliability-weighted) + budget. Blocks are assigned
 * greedily (largest first) among usable blocks meeting the job's minimum reliability; a job without
 * partial credit counts only if fully covered (then its blocks are consumed).
 *
 * @param jobs the lab's jobs (settled ones are ignored)
 * @param blocks the lab's blocks (only available/reserved ones count)
 * @param budget credits
 */
export function positionParts(jobs: readonly Job[], blocks: readonly ValuedBlock[], budget: number): PositionParts {
  const t = positionTable(jobs, blocks, budget);
  const byJob: Record<string, number> = {};
  for (let i = 0; i < t.jobIds.length; i++) byJob[t.jobIds[i]!] = t.values[i]!;
  return { total: t.total, byJob };
}

/** {@link positionParts} with the job parts as lists: `byJob[jobIds[i]] = values[i]`, in this order. */
export function positionTable(jobs: readonly Job[], blocks: readonly ValuedBlock[], budget: number): PositionTable {
  const jobIds: string[] = [];
  const values: number[] = [];
  return { total: positionCore(jobs, blocks, jobIds, values) + budget, jobIds, values };
}

/** Position value in credits: `positionParts(...).total`. */
export function positionValue(jobs: readonly Job[], blocks: readonly ValuedBlock[], budget: number): number {
  return positionCore(jobs, blocks, null, null) + budget;
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
): number {
  return tradeGainFrom(positionValue(jobs, blocks, budget), jobs, blocks, budget, give, receive, paymentIn);
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
): number {
  const after: ValuedBlock[] = [];
  for (let i = 0; i < blocks.length; i++) if (!give.includes(blocks[i]!.id)) after.push(blocks[i]!);
  // Received blocks count as available; valuation reads only these four fields.
  for (let i = 0; i < receive.length; i++) {
    const b = receive[i]!;
    after.push({ id: b.id, gpuHours: b.gpuHours, reliability: b.reliability, status: 'available' });
  }
  return positionValue(jobs, after, budget + paymentIn) - before;
}
