/**
 * A policy's working copy of its own situation, built from its observation and updated locally as it
 * decides (a trade it accepts changes its blocks and budget for the decisions that follow in the same
 * round), plus the allocation planner every player shares. Pure and cheap: small arrays, no deep copies.
 */
import type { ActionInput } from '../actions';
import type { Block, Job, LabId, Offer } from '../types';
import type { Observation, PublicBlock, PublicLab } from '../views';
import { jobValue } from '../valuation';
import { MAX_SCRIPTED_ACTIONS } from './types';

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

export interface Desk {
  obs: Observation;
  me: LabId;
  round: number;
  /** Budget left after the payments this round's chosen actions promise (credits). */
  budget: number;
  /** Own blocks, as they will be after this round's chosen actions (status copied, objects shared). */
  blocks: Block[];
  jobs: Job[];
  /** Public facts of blocks changed by this round's chosen actions (see {@link blockOf}). */
  changed: Map<string, PublicBlock>;
  /** Blocks spent by chosen actions (allocated, given away, committed). */
  spent: Set<string>;
  /** Jobs an allocation was chosen for this round. */
  allocated: Set<string>;
  actions: ActionInput[];
  /** Actions this policy may still return (≤ MAX_SCRIPTED_ACTIONS and the seat's actions left). */
  limit: number;
  /**
   * Memo of the seat's current position (market.ts `position`): own blocks not spent, for a given
   * `blocks` array and spent count (spent only grows), and their value at a given budget.
   */
  memo: { blocks: Block[] | null; spent: number; live: Block[]; budget: number; value: number };
  /**
   * Facts of the observation computed once per desk (market.ts): incoming and outgoing active offers,
   * blocks asked for in the outgoing ones, past bids per block, other labs still playing. Shared:
   * read-only for callers.
   */
  seen: {
    incoming: Offer[] | null;
    outgoing: Offer[] | null;
    asked: Set<string> | null;
    bids: Map<string, number> | null;
    others: PublicLab[] | null;
  };
}

export const round2 = (x: number): number => Math.round(x * 100) / 100;

/** A job is open while it is pending and not fully allocated. */
export const isOpen = (j: Job, round: number): boolean =>
  j.outcome === 'pending' && j.allocatedHours < j.gpuHoursRequired && j.deadlineRound >= round;

export const unmet = (j: Job): number => Math.max(0, j.gpuHoursRequired - j.allocatedHours);

/** Build the desk. `limit` defaults to the scripted cap (docs/RULES.md §2: ≤ 4 actions). */
export function makeDesk(obs: Observation, limit = MAX_SCRIPTED_ACTIONS): Desk {
  return {
    obs,
    me: obs.self.id,
    round: obs.round,
    budget: obs.self.budget,
    blocks: obs.self.blocks.slice(),
    jobs: obs.self.jobs,
    changed: new Map(),
    spent: new Set(),
    allocated: new Set(),
    actions: [],
    limit: Math.max(0, Math.min(limit, obs.self.actionsLeftThisRound)),
    memo: { blocks: null, spent: 0, live: [], budget: NaN, value: 0 },
    seen: { incoming: null, outgoing: null, asked: null, bids: null, others: null },
  };
}

// The engine shares one frozen public-block list per version of the blocks (public.ts), so the index
// is built once per version, not once per policy call (a one-entry cache: the last list indexed).
let lastIndex: { list: readonly PublicBlock[]; index: Map<string, PublicBlock> } | null = null;

/** Public facts of block `id` as this round's chosen actions leave it (undefined if unknown). */
export function blockOf(d: Desk, id: string): PublicBlock | undefined {
  const c = d.changed.get(id);
  if (c) return c;
  let hit = lastIndex;
  if (hit === null || hit.list !== d.obs.blocks) {
    const index = new Map<string, PublicBlock>();
    for (const b of d.obs.blocks) index.set(b.id, b);
    hit = lastIndex = { list: d.obs.blocks, index };
  }
  return hit.index.get(id);
}

/** Room for another action this round. */
export const room = (d: Desk): boolean => d.actions.length < d.limit;

/** Add an action if there is room; returns whether it was added. */
export function push(d: Desk, a: ActionInput): boolean {
  if (!room(d)) return false;
  d.actions.push(a);
  return true;
}

const byDeadlineThenValue = (a: Job, b: Job): number => a.deadlineRound - b.deadlineRound || jobValue(b) - jobValue(a) || (a.id < b.id ? -1 : 1);

/** Open jobs, deadline first, then value (the order of `positionValue`). */
export function openJobs(d: Desk): Job[] {
  const out: Job[] = [];
  for (const j of d.jobs) if (isOpen(j, d.round) && !d.allocated.has(j.id)) out.push(j);
  return out.sort(byDeadlineThenValue);
}

/** Own live blocks not spent this round (available or reserved). */
export function ownLive(d: Desk): Block[] {
  const out: Block[] = [];
  for (const b of d.blocks) if ((b.status === 'available' || b.status === 'reserved') && !d.spent.has(b.id)) out.push(b);
  return out;
}

/** Blocks partners committed to active coalitions this seat is in (docs/RULES.md §3.9 pooling). */
export function pooledBlocks(d: Desk): Usable[] {
  const out: Usable[] = [];
  for (const c of d.obs.myCoalitions) {
    if (c.status !== 'active') continue;
    for (const m of c.members) {
      if (m === d.me) continue;
      for (const id of c.commitments[m]?.blockIds ?? []) {
        const b = blockOf(d, id);
        if (b && b.status === 'committed' && b.owner === m && !d.spent.has(id)) out.push(b);
      }
    }
  }
  return out;
}

/** True for a partner's pooled block. */
export const isPooled = (d: Desk, b: Usable): boolean => b.owner !== d.me;

/** Everything this seat may allocate now. `withPool` adds partners' committed blocks. */
export function usable(d: Desk, withPool: boolean): Usable[] {
  const own: Usable[] = ownLive(d);
  if (!withPool || d.obs.myCoalitions.length === 0) return own;
  return own.concat(pooledBlocks(d));
}

/**
 * Blocks covering `need` GPU-hours with least waste: the smallest single block that covers what is left,
 * else the largest one and repeat. Ties: lower energy cost.
 */
export function pick<T extends { id: string; gpuHours: number; reliability: number; energyCost: number }>(
  cands: readonly T[],
  need: number,
  minRel: number,
  taken: readonly string[],
): { chosen: T[]; hours: number } {
  const pool: T[] = [];
  for (const b of cands) if (b.reliability >= minRel && !taken.includes(b.id)) pool.push(b);
  const chosen: T[] = [];
  let hours = 0;
  while (hours < need && pool.length > 0) {
    const rest = need - hours;
    let best = -1;
    for (let i = 0; i < pool.length; i++) {
      const b = pool[i]!;
      if (b.gpuHours < rest) continue;
      const cur = best >= 0 ? pool[best]! : null;
      if (!cur || b.gpuHours < cur.gpuHours || (b.gpuHours === cur.gpuHours && b.energyCost < cur.energyCost)) best = i;
    }
    if (best < 0) {
      for (let i = 0; i < pool.length; i++) {
        const b = pool[i]!;
        const cur = best >= 0 ? pool[best]! : null;
        if (!cur || b.gpuHours > cur.gpuHours || (b.gpuHours === cur.gpuHours && b.energyCost < cur.energyCost)) best = i;
      }
    }
    const b = pool.splice(best, 1)[0]!;
    chosen.push(b);
    hours += b.gpuHours;
  }
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
  // Short id lists (a seat has a handful of blocks): cheaper than Sets here.
  const taken: string[] = [];
  const held: string[] = [];
  const jobs: JobPlan[] = [];
  for (const job of openJobs(d)) {
    const need = unmet(job);
    const { chosen, hours } = pick(cands, need, job.minReliability, taken);
    const complete = hours >= need;
    if (complete || job.partialCreditAllowed) for (const b of chosen) taken.push(b.id);
    else for (const b of chosen) held.push(b.id);
    jobs.push({ job, need, chosen, hours, complete, deficit: Math.max(0, need - hours) });
  }
  const spare: Usable[] = [];
  for (const b of cands) if (b.owner === d.me && !taken.includes(b.id) && !held.includes(b.id)) spare.push(b);
  return { jobs, spare };
}

/** Value (credits) realised by allocating `chosen` to `p.job` now: value × credit − energy. */
export function allocationValue(p: JobPlan, chosen: readonly Usable[]): number {
  const hours = chosen.reduce((s, b) => s + b.gpuHours, 0) + p.job.allocatedHours;
  const credit = hours >= p.job.gpuHoursRequired ? 1 : p.job.partialCreditAllowed ? hours / p.job.gpuHoursRequired : 0;
  const energy = chosen.reduce((s, b) => s + b.energyCost, 0) + p.job.energyCost;
  return jobValue(p.job) * credit - energy;
}

/** Record an allocation on the desk and push the action. */
export function allocate(d: Desk, job: Job, blocks: readonly { id: string }[]): boolean {
  if (blocks.length === 0) return false;
  if (!push(d, { action_type: 'allocate_to_job', job_id: job.id, block_ids: blocks.map((b) => b.id) })) return false;
  for (const b of blocks) d.spent.add(b.id);
  d.allocated.add(job.id);
  return true;
}

/**
 * The standard allocation step: every job the plan completes gets its blocks now (used blocks are safe
 * from shocks); a partial-credit job due this round gets what it can if that realises positive value.
 * Returns the plan of what is left (jobs not allocated now; the same spare blocks).
 */
export function allocatePlanned(d: Desk, withPool: boolean, max = Infinity): { jobs: JobPlan[]; spare: Usable[] } {
  let n = 0;
  const all = plan(d, withPool);
  for (const p of all.jobs) {
    if (n >= max || !room(d)) break;
    const due = p.job.deadlineRound <= d.round;
    if (p.complete || (due && p.job.partialCreditAllowed && p.chosen.length > 0 && allocationValue(p, p.chosen) > 0)) {
      if (allocate(d, p.job, p.chosen)) n++;
    }
  }
  return { jobs: all.jobs.filter((p) => !d.allocated.has(p.job.id)), spare: all.spare };
}
