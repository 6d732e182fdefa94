/**
 * A policy's working copy of its own situation, built from its observation and updated locally as it
 * decides (a trade it accepts changes its blocks and budget for the decisions that follow in the same
 * round), and the small helpers every player shares (plan.ts is the allocation planner). Pure and cheap:
 * small arrays, no deep copies.
 *
 * Written for speed (a policy runs for every scripted seat at every round close): indexed loops rather
 * than for…of over the engine's frozen arrays, short id lists rather than Sets (a seat holds a handful of
 * blocks and jobs), and hand-written stable sorts of a few elements rather than Array.prototype.sort.
 */
import type { ActionInput } from '../actions.js';
import type { Block, Job, LabId, Offer, RulesVersion } from '../types.js';
import type { Observation, PublicBlock, PublicLab } from '../views.js';
import { MAX_SCRIPTED_ACTIONS } from './types.js';

export interface Desk {
  obs: Observation;
  me: LabId;
  round: number;
  /** Budget left after the payments this round's chosen actions promise (credits). */
  budget: number;
  /**
   * Own blocks, as they will be after this round's chosen actions. The observation's list until a trade
   * is accepted (then a new list: never mutated in place).
   */
  blocks: readonly Block[];
  jobs: readonly Job[];
  /** Public facts of blocks changed by this round's chosen actions (see {@link blockOf}); null until one is. */
  changed: Map<string, PublicBlock> | null;
  /** Ids of blocks spent by chosen actions (allocated, given away, committed); may repeat an id. */
  spent: string[];
  /** Ids of jobs an allocation was chosen for this round. */
  allocated: string[];
  actions: ActionInput[];
  /** Actions this policy may still return (≤ MAX_SCRIPTED_ACTIONS and the seat's actions left). */
  limit: number;
  /**
   * Memo of the seat's position (market.ts `position`): own blocks not spent (`posLive`) for the
   * `posBlocks` list and `posSpent` spent entries (spent only grows), and their valuation core
   * `positionValue(jobs, posLive, 0)` (credits; NaN until computed).
   */
  posBlocks: readonly Block[] | null;
  posSpent: number;
  posLive: Block[];
  posCore: number;
  /** The match's rules version (the observation's `rules`, absent = 3). */
  rules: RulesVersion;
  /** Value positions by the best assignment of blocks to jobs (rules v4), else greedily (v3). */
  exact: boolean;
  /**
   * Facts of the observation computed once per desk (market.ts): incoming and outgoing active offers,
   * block ids asked for in the outgoing ones, past bids per block, other labs still playing. Shared:
   * read-only for callers; null until first asked for.
   */
  incoming: readonly Offer[] | null;
  outgoing: readonly Offer[] | null;
  asked: string[] | null;
  bids: Map<string, number> | null;
  others: PublicLab[] | null;
}

export const round2 = (x: number): number => Math.round(x * 100) / 100;

/** A job is open while it is pending and not fully allocated. */
export const isOpen = (j: Job, round: number): boolean =>
  j.outcome === 'pending' && j.allocatedHours < j.gpuHoursRequired && j.deadlineRound >= round;

export const unmet = (j: Job): number => Math.max(0, j.gpuHoursRequired - j.allocatedHours);

/** Build the desk. `limit` defaults to the scripted cap (docs/RULES.md §2: ≤ 4 actions). */
export function makeDesk(obs: Observation, limit = MAX_SCRIPTED_ACTIONS): Desk {
  const self = obs.self;
  return {
    obs,
    me: self.id,
    round: obs.round,
    budget: self.budget,
    blocks: self.blocks,
    jobs: self.jobs,
    changed: null,
    spent: [],
    allocated: [],
    actions: [],
    limit: Math.max(0, Math.min(limit, self.actionsLeftThisRound)),
    posBlocks: null,
    posSpent: 0,
    posLive: [],
    posCore: NaN,
    rules: obs.rules ?? 3,
    exact: obs.rules !== undefined && obs.rules >= 4,
    incoming: null,
    outgoing: null,
    asked: null,
    bids: null,
    others: null,
  };
}

/** Whether `id` is among `ids` (indexed: the lists are short and often frozen or empty, where a loop beats a call to includes). */
export function hasId(ids: readonly string[], id: string): boolean {
  for (let i = 0; i < ids.length; i++) if (ids[i] === id) return true;
  return false;
}

/** Whether a chosen action already spends block `id`. */
export const isSpent = (d: Desk, id: string): boolean => hasId(d.spent, id);

/** Whether an allocation to job `id` was already chosen. */
export const isAllocated = (d: Desk, id: string): boolean => hasId(d.allocated, id);

/** Ids of `blocks`, in order. */
export function idsOf(blocks: readonly { id: string }[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < blocks.length; i++) out.push(blocks[i]!.id);
  return out;
}

/** Stable in-place insertion sort (the lists are a few elements long; same order as Array.prototype.sort). */
export function sortSmall<T>(xs: T[], cmp: (a: T, b: T) => number): T[] {
  for (let i = 1; i < xs.length; i++) {
    const x = xs[i]!;
    let j = i - 1;
    while (j >= 0 && cmp(xs[j]!, x) > 0) {
      xs[j + 1] = xs[j]!;
      j--;
    }
    xs[j + 1] = x;
  }
  return xs;
}

// The engine shares one frozen public-block list per version of the blocks (public.ts). A lookup scans
// it; once a list has served SCANS lookups an index is built for it and kept for later calls (a
// one-entry cache keyed by the identity of a frozen list: it can never change a result; a list that is not
// frozen, a caller's own copy, is only scanned). Most
// policy calls look up a handful of blocks, and most lists are seen by one or two seats only.
const SCANS = 8;
let lastList: readonly PublicBlock[] | null = null;
let lastScans = 0;
let lastIndex: Map<string, PublicBlock> | null = null;

function lookup(list: readonly PublicBlock[], id: string): PublicBlock | undefined {
  if (list !== lastList) {
    lastList = list;
    lastScans = 0;
    lastIndex = null;
  }
  if (lastIndex !== null) return lastIndex.get(id);
  if (++lastScans > SCANS && Object.isFrozen(list)) {
    const index = new Map<string, PublicBlock>();
    for (let i = 0; i < list.length; i++) index.set(list[i]!.id, list[i]!);
    lastIndex = index;
    return index.get(id);
  }
  // From the end: with duplicate ids (never in a valid state) the index too would keep the last.
  for (let i = list.length - 1; i >= 0; i--) if (list[i]!.id === id) return list[i];
  return undefined;
}

/** Public facts of block `id` as this round's chosen actions leave it (undefined if unknown). */
export function blockOf(d: Desk, id: string): PublicBlock | undefined {
  if (d.changed !== null) {
    const c = d.changed.get(id);
    if (c) return c;
  }
  return lookup(d.obs.blocks, id);
}

/** Room for another action this round. */
export const room = (d: Desk): boolean => d.actions.length < d.limit;

/** Add an action if there is room; returns whether it was added. */
export function push(d: Desk, a: ActionInput): boolean {
  if (d.actions.length >= d.limit) return false;
  d.actions.push(a);
  return true;
}
