/**
 * A lab's valuation of its own position, in credits. Used to value trades from the deciding lab's own
 * point of view (docs/RULES.md §3.2; fixes the reference's inverted valuation, Ref §12.1) by both the
 * engine (deal_quality) and the scripted policies (whether to accept). Pure.
 */
import type { BlockStatus, Job } from './types';

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
  const free = blocks.filter(usable).sort((a, b) => b.gpuHours - a.gpuHours || (a.id < b.id ? -1 : 1));
  const taken = new Set<string>();
  const pending = jobs
    .filter((j) => j.outcome === 'pending')
    .sort((a, b) => a.deadlineRound - b.deadlineRound || jobValue(b) - jobValue(a) || (a.id < b.id ? -1 : 1));
  const byJob: Record<string, number> = {};
  let value = 0;
  for (const job of pending) {
    const need = job.gpuHoursRequired - job.allocatedHours;
    let v = 0;
    if (need <= 0) v = jobValue(job);
    else {
      let got = 0;
      const chosen: string[] = [];
      for (const b of free) {
        if (got >= need) break;
        if (taken.has(b.id) || b.reliability < job.minReliability) continue;
        got += b.gpuHours;
        chosen.push(b.id);
      }
      if (got >= need) {
        v = jobValue(job);
        for (const id of chosen) taken.add(id);
      } else if (job.partialCreditAllowed && got > 0) {
        v = (jobValue(job) * (job.allocatedHours + got)) / job.gpuHoursRequired;
        for (const id of chosen) taken.add(id);
      } else if (job.partialCreditAllowed) {
        v = (jobValue(job) * job.allocatedHours) / job.gpuHoursRequired;
      }
    }
    byJob[job.id] = v;
    value += v;
  }
  let spare = 0;
  for (const b of free) if (!taken.has(b.id)) spare += b.gpuHours * b.reliability;
  return { total: value + SPARE_HOUR_VALUE * spare + budget, byJob };
}

/** Position value in credits: `positionParts(...).total`. */
export function positionValue(jobs: readonly Job[], blocks: readonly ValuedBlock[], budget: number): number {
  return positionParts(jobs, blocks, budget).total;
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
  const before = positionValue(jobs, blocks, budget);
  const giveSet = new Set(give);
  const after = positionValue(
    jobs,
    [...blocks.filter((b) => !giveSet.has(b.id)), ...receive.map((b) => ({ ...b, status: 'available' as const }))],
    budget + paymentIn,
  );
  return after - before;
}
