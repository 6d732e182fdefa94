/**
 * Jobs the market can no longer complete (docs/RULES.md §4): a pending job whose missing hours exceed
 * every GPU-hour left in the market at or above its minimum reliability (blocks of any seat that are not
 * used or failed: a trade could still bring them). Its owner is told privately when it happens, in words
 * that are true of the job: one without partial credit is **lost** (it will settle as missed, and nothing
 * allocated to it earns), while one with partial credit still earns for every hour it gets, so its owner
 * is told how much it can still earn and by what. A job is lost only when no legal allocation can earn
 * anything more for it.
 */
import type { JobId, LabId, MatchState } from '../engine/types.js';
import { jobValue } from '../engine/index.js';

/** A job that cannot be completed any more: hours still missing vs servable hours left at its reliability. */
export interface DoomedJob {
  jobId: JobId;
  owner: LabId;
  /** GPU-hours still missing (required − allocated). */
  missing: number;
  /** GPU-hours of live blocks left in the market at or above its minimum reliability (< missing). */
  left: number;
  minReliability: number;
  /** Whether the job earns partial credit (allocated / required of its value). */
  partial: boolean;
  /** GPU-hours required and already allocated. */
  required: number;
  allocated: number;
  /** Credits it can still earn at most: value × (allocated + left) / required with partial credit, else 0. */
  reachable: number;
  /** Credits of its value it earns as allocated now (partial credit), else 0; energy is taken off at settlement. */
  secured: number;
  /** Energy cost (credits) of the blocks allocated to it so far: realised value = value × credit − energy. */
  energy: number;
  /** Nothing can earn anything more for it: no partial credit, or no capacity at its reliability left. */
  lost: boolean;
}

const r2 = (x: number) => Math.round(x * 100) / 100;

/** Every pending job of an unfinished seat that the market can no longer complete. Pure. */
export function doomedJobs(s: MatchState): DoomedJob[] {
  const out: DoomedJob[] = [];
  const blocks = Object.values(s.blocks).filter((b) => b.status !== 'used' && b.status !== 'failed');
  for (const j of Object.values(s.jobs)) {
    if (j.outcome !== 'pending' || s.labs[j.owner]?.finished) continue;
    const missing = j.gpuHoursRequired - j.allocatedHours;
    if (missing <= 0) continue;
    const left = blocks.reduce((n, b) => (b.reliability >= j.minReliability ? n + b.gpuHours : n), 0);
    if (left >= missing) continue;
    const partial = j.partialCreditAllowed;
    const value = jobValue(j);
    out.push({
      jobId: j.id,
      owner: j.owner,
      missing,
      left,
      minReliability: j.minReliability,
      partial,
      required: j.gpuHoursRequired,
      allocated: j.allocatedHours,
      reachable: partial ? r2((value * (j.allocatedHours + left)) / j.gpuHoursRequired) : 0,
      secured: partial ? r2((value * j.allocatedHours) / j.gpuHoursRequired) : 0,
      energy: r2(j.energyCost),
      lost: !partial || left === 0,
    });
  }
  return out;
}
