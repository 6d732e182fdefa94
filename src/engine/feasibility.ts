/**
 * Feasibility guarantee (docs/RULES.md §1; the original's SPEC promised it and its generator did not
 * deliver: §A.2 D15): every job must be completable from the market's live capacity through trades.
 */
import type { Block, Job } from './types.js';
import { JOB_HOURS } from './world.js';
import { copyJob } from './mut.js';

/** The market's servable blocks (not used, not failed), most reliable first: the input of makeFeasible. */
export function servableByReliability(blocks: readonly Block[]): Block[] {
  const out: Block[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    if (b.status !== 'used' && b.status !== 'failed') out.push(b);
  }
  // Insertion sort (≈ 20 blocks; no comparator calls). Ids are unique, so the order is total and any
  // correct sort gives the same result as Array.prototype.sort did.
  for (let i = 1; i < out.length; i++) {
    const x = out[i]!;
    let j = i - 1;
    while (j >= 0 && before(x, out[j]!)) {
      out[j + 1] = out[j]!;
      j--;
    }
    out[j + 1] = x;
  }
  return out;
}

/** Most reliable first, then by id. */
const before = (a: Block, b: Block): boolean =>
  a.reliability > b.reliability || (a.reliability === b.reliability && a.id < b.id);

/** Σ gpuHours of `market` (makeFeasible's first input; a caller settling many jobs computes it once). */
export function marketHours(market: readonly Block[]): number {
  let total = 0;
  for (let i = 0; i < market.length; i++) total += market[i]!.gpuHours;
  return total;
}

/**
 * Adjust a job so that the servable blocks with reliability ≥ its minimum sum to ≥ its hours:
 * first lower gpuHoursRequired to the largest of {2,3,4,6,8} that the whole market can supply (if the
 * market has fewer hours than that, it stays as it is), then lower minReliability to the reliability at
 * which the most reliable blocks cover the hours. Returns the same object when nothing changes.
 *
 * @param market servableByReliability(every block of the market)
 * @param total marketHours(market)
 */
export function makeFeasible(job: Job, market: readonly Block[], total: number = marketHours(market)): Job {
  let required = job.gpuHoursRequired;
  if (total < required) {
    const fits = JOB_HOURS.filter((h) => h <= total);
    if (fits.length > 0) required = fits[fits.length - 1]!;
  }
  let minReliability = job.minReliability;
  let acc = 0;
  for (let i = 0; i < market.length; i++) {
    const b = market[i]!;
    acc += b.gpuHours;
    if (acc >= required) {
      if (b.reliability < minReliability) minReliability = b.reliability;
      break;
    }
  }
  if (required === job.gpuHoursRequired && minReliability === job.minReliability) return job;
  // `{ ...job, gpuHoursRequired, minReliability }` (both keys exist: values replaced in place), copied as
  // the Draft copies jobs so the result shares the other jobs' hidden class.
  const out = copyJob(job);
  out.gpuHoursRequired = required;
  out.minReliability = minReliability;
  return out;
}
