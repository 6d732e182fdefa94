/**
 * Feasibility guarantee (docs/RULES.md §1; the reference's "generated jobs are always feasible" was false,
 * Ref §12): every job must be completable from the market's live capacity through trades.
 */
import type { Block, Job } from './types';
import { JOB_HOURS } from './world';

/** Blocks that can still serve a job somewhere in the market: anything not used and not failed. */
const servable = (b: Block) => b.status !== 'used' && b.status !== 'failed';

/**
 * Adjust a job so that the servable blocks with reliability ≥ its minimum sum to ≥ its hours:
 * first lower gpuHoursRequired to the largest of {2,3,4,6,8} that the whole market can supply (if the
 * market has fewer hours than that, it stays as it is), then lower minReliability to the reliability at
 * which the most reliable blocks cover the hours. Returns the same object when nothing changes.
 *
 * @param blocks every block of the market (sorted internally; not mutated)
 */
export function makeFeasible(job: Job, blocks: readonly Block[]): Job {
  const live = blocks.filter(servable).sort((a, b) => b.reliability - a.reliability || (a.id < b.id ? -1 : 1));
  let total = 0;
  for (const b of live) total += b.gpuHours;
  let required = job.gpuHoursRequired;
  if (total < required) {
    const fits = JOB_HOURS.filter((h) => h <= total);
    if (fits.length > 0) required = fits[fits.length - 1]!;
  }
  let minReliability = job.minReliability;
  let acc = 0;
  for (const b of live) {
    acc += b.gpuHours;
    if (acc >= required) {
      if (b.reliability < minReliability) minReliability = b.reliability;
      break;
    }
  }
  if (required === job.gpuHoursRequired && minReliability === job.minReliability) return job;
  return { ...job, gpuHoursRequired: required, minReliability };
}
