/**
 * Feasibility guarantee (docs/RULES.md §1; the reference's "generated jobs are always feasible" was false,
 * Ref §12): every job must be completable from the market's live capacity through trades.
 */
import type { Block, Job } from './types';
import { JOB_HOURS } from './world';

/** The market's servable blocks (not used, not failed), most reliable first: the input of makeFeasible. */
export function servableByReliability(blocks: readonly Block[]): Block[] {
  return blocks
    .filter((b) => b.status !== 'used' && b.status !== 'failed')
    .sort((a, b) => b.reliability - a.reliability || (a.id < b.id ? -1 : 1));
}

/**
 * Adjust a job so that the servable blocks with reliability ≥ its minimum sum to ≥ its hours:
 * first lower gpuHoursRequired to the largest of {2,3,4,6,8} that the whole market can supply (if the
 * market has fewer hours than that, it stays as it is), then lower minReliability to the reliability at
 * which the most reliable blocks cover the hours. Returns the same object when nothing changes.
 *
 * @param market servableByReliability(every block of the market)
 */
export function makeFeasible(job: Job, market: readonly Block[]): Job {
  let total = 0;
  for (const b of market) total += b.gpuHours;
  let required = job.gpuHoursRequired;
  if (total < required) {
    const fits = JOB_HOURS.filter((h) => h <= total);
    if (fits.length > 0) required = fits[fits.length - 1]!;
  }
  let minReliability = job.minReliability;
  let acc = 0;
  for (const b of market) {
    acc += b.gpuHours;
    if (acc >= required) {
      if (b.reliability < minReliability) minReliability = b.reliability;
      break;
    }
  }
  if (required === job.gpuHoursRequired && minReliability === job.minReliability) return job;
  return { ...job, gpuHoursRequired: required, minReliability };
}
