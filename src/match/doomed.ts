/**
 * Jobs that can no longer be completed (issue #16 "no surprises"): a pending job whose missing hours
 * exceed every GPU-hour left in the market at or above its minimum reliability (blocks of any seat that
 * are not used or failed: a trade could still bring them). Its owner is told privately when it happens.
 */
import type { JobId, LabId, MatchState } from '../engine/types.js';

/** A job that cannot be completed any more: hours still missing vs servable hours left at its reliability. */
export interface DoomedJob {
  jobId: JobId;
  owner: LabId;
  missing: number;
  left: number;
  minReliability: number;
}

/** Every pending job of an unfinished seat that the market can no longer complete. Pure. */
export function doomedJobs(s: MatchState): DoomedJob[] {
  const out: DoomedJob[] = [];
  const blocks = Object.values(s.blocks).filter((b) => b.status !== 'used' && b.status !== 'failed');
  for (const j of Object.values(s.jobs)) {
    if (j.outcome !== 'pending' || s.labs[j.owner]?.finished) continue;
    const missing = j.gpuHoursRequired - j.allocatedHours;
    if (missing <= 0) continue;
    const left = blocks.reduce((n, b) => (b.reliability >= j.minReliability ? n + b.gpuHours : n), 0);
    if (left < missing) out.push({ jobId: j.id, owner: j.owner, missing, left, minReliability: j.minReliability });
  }
  return out;
}
