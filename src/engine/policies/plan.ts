/**
 * The allocation planner every player shares (docs/RULES.md §3.4 allocation, §3.9 pooling): which
 * usable blocks complete which open jobs, deadline first, and the standard allocation step. Written for
 * speed like desk.ts: indexed loops, short id lists, a hand-written sort.
 */
import type { Block, Job, LabId } from '../types.js';
import { jobValue } from '../valuation.js';
import {
  type Desk,
  blockOf,
  hasId,
  idsOf,
  isAllocated,
  isOpen,
  isSpent,
  push,
  room,
  sortSmall,
  unmet,
} from './desk.js';

/**
 * A block a seat may allocate: its own live block, or one a partner committed to an active shared
 * coalition (then `owner` is the partner). Full blocks and public blocks both fit, so no copies are made.
 */
export interface Usable {
  id: string;
  owner: LabId;
  gpuHours: number;
  reliability: number;
  energyCost: number;
  status: Block['status'];
}

const byDeadlineThenValue = (a: Job, b: Job): number =>
  a.deadlineRound - b.deadlineRound || jobValue(b) - jobValue(a) || (a.id < b.id ? -1 : 1);

/** Open jobs, deadline first, then value (the order of `positionValue`). */
export function openJobs(d: Desk): Job[] {
  const out: Job[] = [];
  const jobs = d.jobs;
  for (let i = 0; i < jobs.length; i++) {
    const j = jobs[i]!;
    if (isOpen(j, d.round) && !isAllocated(d, j.id)) out.push(j);
  }
  return sortSmall(out, byDeadlineThenValue);
}

/** Own live blocks not spent this round (available or reserved). */
export function ownLive(d: Desk): Block[] {
  const out: Block[] = [];
  const blocks = d.blocks;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    if ((b.status === 'available' || b.status === 'reserved') && !isSpent(d, b.id)) out.push(b);
  }
  return out;
}

/** Blocks partners committed to active coalitions this seat is in (docs/RULES.md §3.9 pooling); appended to `out`. */
export function pooledBlocks(d: Desk, out: Usable[] = []): Usable[] {
  const mine = d.obs.myCoalitions;
  for (let i = 0; i < mine.length; i++) {
    const c = mine[i]!;
    if (c.status !== 'active') continue;
    for (let k = 0; k < c.members.length; k++) {
      const m = c.members[k]!;
      if (m === d.me) continue;
      const ids = c.commitments[m]?.blockIds;
      if (ids === undefined) continue;
      for (let n = 0; n < ids.length; n++) {
        const id = ids[n]!;
        const b = blockOf(d, id);
        if (b && b.status === 'committed' && b.owner === m && !isSpent(d, id)) out.push(b);
      }
    }
  }
  return out;
}

/** Everything this seat may allocate now. `withPool` adds partners' committed blocks. */
export function usable(d: Desk, withPool: boolean): Usable[] {
  const own: Usable[] = ownLive(d);
  if (!withPool || d.obs.myCoalitions.length === 0) return own;
  return pooledBlocks(d, own);
}

/** The block fields {@link pick} reads. */
export interface Pickable {
  id: string;
  gpuHours: number;
  reliability: number;
  energyCost: number;
}

// Candidates still free in a pick, reused by every call: pick calls no outside code, so it never re-enters,
// and it clears the slots it used before returning (no block is kept alive). Bounded by the longest list.
const pool: (Pickable | null)[] = [];

/**
 * Blocks covering `need` GPU-hours with least waste: the smallest single block that covers what is left,
 * else the largest one and repeat. Ties: lower energy cost, then list order. Candidates below `minRel` or
 * in `taken` are left out.
 */
export function pick<T extends Pickable>(
  cands: readonly T[],
  need: number,
  minRel: number,
  taken: readonly string[],
): { chosen: T[]; hours: number } {
  // Chosen blocks are blanked (null) rather than spliced out: the others keep their order for ties.
  let n = 0;
  for (let i = 0; i < cands.length; i++) {
    const b = cands[i]!;
    if (b.reliability >= minRel && !hasId(taken, b.id)) pool[n++] = b;
  }
  const chosen: T[] = [];
  let hours = 0;
  let left = n;
  while (hours < need && left > 0) {
    const rest = need - hours;
    let best: Pickable | null = null;
    let at = -1;
    for (let i = 0; i < n; i++) {
      const b = pool[i];
      if (!b || b.gpuHours < rest) continue;
      if (!best || b.gpuHours < best.gpuHours || (b.gpuHours === best.gpuHours && b.energyCost < best.energyCost)) {
        best = b;
        at = i;
      }
    }
    if (!best) {
      for (let i = 0; i < n; i++) {
        const b = pool[i];
        if (!b) continue;
        if (!best || b.gpuHours > best.gpuHours || (b.gpuHours === best.gpuHours && b.energyCost < best.energyCost)) {
          best = b;
          at = i;
        }
      }
    }
    pool[at] = null;
    left--;
    chosen.push(best as T);
    hours += best!.gpuHours;
  }
  for (let i = 0; i < n; i++) pool[i] = null;
  return { chosen, hours };
}

/** One open job's situation in the plan. */
export interface JobPlan {
  job: Job;
  need: number;
  /** Blocks chosen for it (all of them if `complete`, else what partial coverage is possible). */
  chosen: Usable[];
  hours: number;
  complete: boolean;
  /** GPU-hours still missing after `chosen`. */
  deficit: number;
}

/**
 * Assign usable blocks to open jobs, deadline first (as `positionValue` does). A complete or
 * partial-credit job consumes its blocks; an incomplete job without partial credit keeps its candidate
 * blocks on hold (counted in its deficit, not consumed) so later jobs may still use them.
 */
export function plan(d: Desk, withPool: boolean): { jobs: JobPlan[]; spare: Usable[] } {
  const cands = usable(d, withPool);
  const taken: string[] = [];
  const held: string[] = [];
  const jobs: JobPlan[] = [];
  const open = openJobs(d);
  for (let i = 0; i < open.length; i++) {
    const job = open[i]!;
    const need = unmet(job);
    const { chosen, hours } = pick(cands, need, job.minReliability, taken);
    const complete = hours >= need;
    const into = complete || job.partialCreditAllowed ? taken : held;
    for (let k = 0; k < chosen.length; k++) into.push(chosen[k]!.id);
    jobs.push({ job, need, chosen, hours, complete, deficit: Math.max(0, need - hours) });
  }
  const spare: Usable[] = [];
  for (let i = 0; i < cands.length; i++) {
    const b = cands[i]!;
    if (b.owner === d.me && !hasId(taken, b.id) && !hasId(held, b.id)) spare.push(b);
  }
  return { jobs, spare };
}

/** Value (credits) realised by allocating `chosen` to `p.job` now: value × credit − energy. */
export function allocationValue(p: JobPlan, chosen: readonly Usable[]): number {
  let hours = 0;
  for (let i = 0; i < chosen.length; i++) hours += chosen[i]!.gpuHours;
  hours += p.job.allocatedHours;
  const credit = hours >= p.job.gpuHoursRequired ? 1 : p.job.partialCreditAllowed ? hours / p.job.gpuHoursRequired : 0;
  let energy = 0;
  for (let i = 0; i < chosen.length; i++) energy += chosen[i]!.energyCost;
  energy += p.job.energyCost;
  return jobValue(p.job) * credit - energy;
}

/** Record an allocation on the desk and push the action. */
export function allocate(d: Desk, job: Job, blocks: readonly { id: string }[]): boolean {
  if (blocks.length === 0) return false;
  if (!push(d, { action_type: 'allocate_to_job', job_id: job.id, block_ids: idsOf(blocks) })) return false;
  for (let i = 0; i < blocks.length; i++) d.spent.push(blocks[i]!.id);
  d.allocated.push(job.id);
  return true;
}

/**
 * The standard allocation step: every job the plan completes gets its blocks now (used blocks are safe
 * from shocks); a partial-credit job due this round gets what it can if that realises positive value.
 * Returns the plan of what is left (jobs not allocated now; the same spare blocks). `defer(plan)` may
 * pick one completable job to hold back this round (its blocks stay reserved in the plan).
 */
export function allocatePlanned(
  d: Desk,
  withPool: boolean,
  max = Infinity,
  defer?: (all: { jobs: JobPlan[]; spare: Usable[] }) => string | null,
): { jobs: JobPlan[]; spare: Usable[] } {
  let n = 0;
  const all = plan(d, withPool);
  const skip = defer ? defer(all) : null;
  for (let i = 0; i < all.jobs.length; i++) {
    const p = all.jobs[i]!;
    if (n >= max || !room(d)) break;
    if (p.job.id === skip) continue;
    const due = p.job.deadlineRound <= d.round;
    if (p.complete || (due && p.job.partialCreditAllowed && p.chosen.length > 0 && allocationValue(p, p.chosen) > 0)) {
      if (allocate(d, p.job, p.chosen)) n++;
    }
  }
  if (n === 0) return all;
  const jobs: JobPlan[] = [];
  for (let i = 0; i < all.jobs.length; i++) if (!isAllocated(d, all.jobs[i]!.job.id)) jobs.push(all.jobs[i]!);
  return { jobs, spare: all.spare };
}
