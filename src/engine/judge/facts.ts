/**
 * The true situation of one seat, read from a {@link MatchState}: what a pitch's claims are checked
 * against (docs/RULES.md §6). Private values live here; nothing from this file may reach a public
 * reason string except as counts. Pure.
 */
import type { BlockId, CoalitionId, Job, JobFacts, JobId, LabId, MatchState, OfferId } from '../types.js';

export type { JobFacts } from '../types.js';

export interface SeatFacts {
  lab: LabId;
  round: number;
  maxRounds: number;
  /** The lab's pending jobs, by deadline then id. */
  pending: JobFacts[];
  /** Every job id the lab owns (pending or settled). */
  ownJobIds: ReadonlySet<JobId>;
  /** Offers the lab sent or received, any status. */
  offerIds: ReadonlySet<OfferId>;
  /** Coalitions the lab is a member of, any status. */
  coalitionIds: ReadonlySet<CoalitionId>;
  /** Blocks the lab owns, or that appear in its offers or are committed to its coalitions. */
  relatedBlockIds: ReadonlySet<BlockId>;
  /** Every block id of the market (block ids are public). */
  marketBlockIds: ReadonlySet<BlockId>;
  /**
   * GPU-hour values that are true about the lab's capacity but are not need: each related live block's
   * hours and the sum of its own live blocks. A claim matching one is neither verified nor fabricated.
   */
  capacityHours: number[];
  /** Reliabilities of related live blocks (true, not need; neutral like {@link capacityHours}). */
  capacityReliabilities: number[];
}

/** Whether a block of this status is still capacity (not used or failed). */
export const live = (status: string): boolean =>
  status === 'available' || status === 'reserved' || status === 'committed';

const byDeadlineThenId = (a: JobFacts, b: JobFacts): number =>
  a.deadlineRound - b.deadlineRound || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The market's block ids, shared read-only between the facts of one version of the blocks record. */
let lastMarket: { blocks: object; ids: ReadonlySet<BlockId> } | null = null;
function marketIds(state: MatchState): ReadonlySet<BlockId> {
  if (lastMarket === null || lastMarket.blocks !== state.blocks)
    lastMarket = { blocks: state.blocks, ids: new Set(Object.keys(state.blocks)) };
  return lastMarket.ids;
}

/** `job` as the judge sees it in `round`, or null when it is not pending (settled or fully allocated). */
export function pendingFacts(job: Job, round: number): JobFacts | null {
  if (job.outcome !== 'pending') return null;
  const unmet = job.gpuHoursRequired - job.allocatedHours;
  if (unmet <= 0) return null;
  return {
    id: job.id,
    requiredHours: job.gpuHoursRequired,
    unmetHours: unmet,
    deadlineRound: job.deadlineRound,
    roundsLeft: Math.max(0, job.deadlineRound - round),
    minReliability: job.minReliability,
    urgency: job.urgencyMultiplier,
  };
}

/** The pending jobs of `lab`, by deadline then id ({@link SeatFacts.pending}). */
export function pendingJobs(state: MatchState, lab: LabId): JobFacts[] {
  const pending: JobFacts[] = [];
  for (const id in state.jobs) {
    const job = state.jobs[id]!;
    if (job.owner !== lab) continue;
    const f = pendingFacts(job, state.round);
    if (f === null) continue;
    // Insertion sort (a lab has a handful of jobs): cheaper than Array#sort here, same order (both are stable).
    let i = pending.length;
    pending.push(f);
    for (; i > 0 && byDeadlineThenId(pending[i - 1]!, f) > 0; i--) pending[i] = pending[i - 1]!;
    pending[i] = f;
  }
  return pending;
}

/** Collect the facts about `lab`. A lab id not in the state gets empty facts. */
export function seatFacts(state: MatchState, lab: LabId): SeatFacts {
  const round = state.round;
  const pending = pendingJobs(state, lab);
  const ownJobIds = new Set<JobId>();
  for (const id in state.jobs) if (state.jobs[id]!.owner === lab) ownJobIds.add(state.jobs[id]!.id);

  const offerIds = new Set<OfferId>();
  const related = new Set<BlockId>();
  for (const id in state.offers) {
    const offer = state.offers[id]!;
    if (offer.from !== lab && offer.to !== lab) continue;
    offerIds.add(offer.id);
    for (const b of offer.offeredBlockIds) related.add(b);
    for (const b of offer.requestedBlockIds) related.add(b);
  }
  const coalitionIds = new Set<CoalitionId>();
  for (const id in state.coalitions) {
    const c = state.coalitions[id]!;
    if (!c.members.includes(lab)) continue;
    coalitionIds.add(c.id);
    for (const m in c.commitments) for (const b of c.commitments[m]!.blockIds) related.add(b);
  }
  let ownLiveHours = 0;
  for (const id in state.blocks) {
    const b = state.blocks[id]!;
    if (b.owner !== lab) continue;
    related.add(b.id);
    if (live(b.status)) ownLiveHours += b.gpuHours;
  }
  const capacityHours: number[] = [];
  const capacityReliabilities: number[] = [];
  for (const id of related) {
    const b = Object.hasOwn(state.blocks, id) ? state.blocks[id] : undefined;
    if (!b || !live(b.status)) continue;
    capacityHours.push(b.gpuHours);
    capacityReliabilities.push(b.reliability);
  }
  if (ownLiveHours > 0) capacityHours.push(ownLiveHours);

  return {
    lab,
    round,
    maxRounds: state.params.maxRounds,
    pending,
    ownJobIds,
    offerIds,
    coalitionIds,
    relatedBlockIds: related,
    marketBlockIds: marketIds(state),
    capacityHours,
    capacityReliabilities,
  };
}
