/**
 * Claims judged against the pitch's own moment (rules v4, docs/RULES.md §6.1): when a seat pitches, the
 * engine keeps a snapshot of its facts ({@link PitchFacts}, in `MatchState.pitchFacts`), and the judge
 * checks the pitch against that snapshot at the round close. A seat that pitches only true facts about a
 * pending job and then allocates to it in the same round is judged on what was true when it spoke. Under
 * rules v3 (no snapshot) the judge reads the state at the close, as v3 did. Pure.
 */
import type { JobId, LabId, MatchState, Pitch, PitchFacts } from '../types.js';
import { ownedBlocks } from '../public.js';
import { rulesOf } from '../config.js';
import { type JobFacts, type SeatFacts, live, pendingJobs, seatFacts } from './facts.js';
import { StateFacts } from './state-facts.js';
import type { FactSource } from './verify.js';

/** Append `id` to `ids` unless it is there (the lists are a handful of ids: no Set). */
function addOnce(ids: string[], id: string): void {
  for (let i = 0; i < ids.length; i++) if (ids[i] === id) return;
  ids.push(id);
}

/**
 * The snapshot of `lab`'s facts in `state`, as stored with its pitch: the lists of `seatFacts` (facts.ts), in
 * its order, built straight into arrays (every pitch takes one, so no Sets and nothing the checks never ask).
 */
export function pitchFactsOf(state: MatchState, lab: LabId): PitchFacts {
  const offerIds: string[] = [];
  const related: string[] = [];
  const { blocks } = state;
  // Object.values: the entries in key order (as for…in), without a keyed load per entry.
  const offers = Object.values(state.offers);
  for (let k = 0; k < offers.length; k++) {
    const o = offers[k]!;
    if (o.from !== lab && o.to !== lab) continue;
    offerIds.push(o.id);
    for (let i = 0; i < o.offeredBlockIds.length; i++) addOnce(related, o.offeredBlockIds[i]!);
    for (let i = 0; i < o.requestedBlockIds.length; i++) addOnce(related, o.requestedBlockIds[i]!);
  }
  const coalitionIds: string[] = [];
  const coalitions = Object.values(state.coalitions);
  for (let k = 0; k < coalitions.length; k++) {
    const c = coalitions[k]!;
    if (!c.members.includes(lab)) continue;
    coalitionIds.push(c.id);
    for (const m in c.commitments) {
      const ids = c.commitments[m]!.blockIds;
      for (let i = 0; i < ids.length; i++) addOnce(related, ids[i]!);
    }
  }
  // The seat's own blocks in record order, from the list shared per version of the blocks record (public.ts).
  const own = ownedBlocks(state, lab);
  let ownLiveHours = 0;
  for (let k = 0; k < own.length; k++) {
    const b = own[k]!;
    addOnce(related, b.id);
    if (live(b.status)) ownLiveHours += b.gpuHours;
  }
  const capacityHours: number[] = [];
  const capacityReliabilities: number[] = [];
  for (let i = 0; i < related.length; i++) {
    const b = Object.hasOwn(blocks, related[i]!) ? blocks[related[i]!] : undefined;
    if (!b || !live(b.status)) continue;
    capacityHours.push(b.gpuHours);
    capacityReliabilities.push(b.reliability);
  }
  if (ownLiveHours > 0) capacityHours.push(ownLiveHours);
  return {
    round: state.round,
    pending: pendingJobs(state, lab),
    offerIds,
    coalitionIds,
    relatedBlockIds: related,
    capacityHours,
    capacityReliabilities,
  };
}

/** The stored snapshot of `pitch`'s facts, if the rules keep one and it is this round's. */
function snapshotOf(state: MatchState, pitch: Pitch): PitchFacts | undefined {
  if (rulesOf(state) < 4) return undefined;
  const f =
    state.pitchFacts !== undefined && Object.hasOwn(state.pitchFacts, pitch.lab)
      ? state.pitchFacts[pitch.lab]
      : undefined;
  return f !== undefined && f.round === pitch.round ? f : undefined;
}

/** A {@link FactSource} over a stored snapshot; job ownership and the market's block ids come from `state` (a round cannot change either). */
class SnapshotFacts implements FactSource {
  readonly round: number;

  constructor(
    private readonly state: MatchState,
    private readonly lab: LabId,
    private readonly f: PitchFacts,
  ) {
    this.round = f.round;
  }

  pending(): JobFacts[] {
    return this.f.pending;
  }

  pendingJob(id: JobId): JobFacts | undefined {
    const p = this.f.pending;
    for (let i = p.length - 1; i >= 0; i--) if (p[i]!.id === id) return p[i]; // the last of a repeated id, as SeatFacts
    return undefined;
  }

  ownsJob(id: JobId): boolean {
    return Object.hasOwn(this.state.jobs, id) && this.state.jobs[id]!.owner === this.lab;
  }

  hasOffer(id: string): boolean {
    return this.f.offerIds.includes(id);
  }

  hasCoalition(id: string): boolean {
    return this.f.coalitionIds.includes(id);
  }

  isRelatedBlock(id: string): boolean {
    return this.f.relatedBlockIds.includes(id);
  }

  isMarketBlock(id: string): boolean {
    return Object.hasOwn(this.state.blocks, id);
  }

  someCapacityHours(test: (hours: number) => boolean): boolean {
    const xs = this.f.capacityHours;
    for (let i = 0; i < xs.length; i++) if (test(xs[i]!)) return true;
    return false;
  }

  someCapacityReliability(test: (reliability: number) => boolean): boolean {
    const xs = this.f.capacityReliabilities;
    for (let i = 0; i < xs.length; i++) if (test(xs[i]!)) return true;
    return false;
  }
}

/**
 * The facts `pitch` is judged against: its snapshot under rules v4, else the state at the close (v3, or a
 * state without a snapshot for it).
 */
export function factsForPitch(state: MatchState, pitch: Pitch): FactSource {
  const f = snapshotOf(state, pitch);
  return f === undefined ? new StateFacts(state, pitch.lab) : new SnapshotFacts(state, pitch.lab, f);
}

/**
 * The facts of `lab` the judge weighs for its pitch this round, as {@link SeatFacts}: the snapshot of its
 * latest pitch under rules v4, else the state's (for the LLM judge's fact sheet, agents/llm-prompt.ts).
 */
export function judgedSeatFacts(state: MatchState, lab: LabId): SeatFacts {
  const live = seatFacts(state, lab);
  let pitch: Pitch | undefined;
  for (const p of state.pitches) if (p.lab === lab && p.round === state.round) pitch = p;
  const f = pitch === undefined ? undefined : snapshotOf(state, pitch);
  if (f === undefined) return live;
  return {
    ...live,
    round: f.round,
    pending: f.pending,
    offerIds: new Set(f.offerIds),
    coalitionIds: new Set(f.coalitionIds),
    relatedBlockIds: new Set(f.relatedBlockIds),
    capacityHours: f.capacityHours,
    capacityReliabilities: f.capacityReliabilities,
  };
}

/** Whether job `id` was pending with unmet hours in the facts `pitch` is judged against (argued.ts). */
export function openForPitch(state: MatchState, pitch: Pitch, id: JobId): boolean {
  const j = Object.hasOwn(state.jobs, id) ? state.jobs[id]! : undefined;
  if (j === undefined || j.outcome !== 'pending') return false;
  const f = snapshotOf(state, pitch);
  if (f === undefined) return j.allocatedHours < j.gpuHoursRequired;
  for (let i = 0; i < f.pending.length; i++) if (f.pending[i]!.id === id) return true;
  return false;
}
