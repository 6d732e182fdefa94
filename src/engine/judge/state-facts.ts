/**
 * The facts of one seat answered straight from a {@link MatchState}, one question at a time: the
 * judge's hot path (it runs at every round close). Building a whole `SeatFacts` (facts.ts) scans every
 * job, offer, coalition and block and fills six sets, while a typical pitch names a job and a block or
 * two, each answered by one record lookup here. Answers equal those of `seatFacts` (records are keyed
 * by their entities' ids, as everywhere in the engine). Pure: reads the state, never changes it.
 */
import type { JobId, LabId, MatchState } from '../types.js';
import { own } from '../util.js';
import { type JobFacts, live, pendingFacts, pendingJobs } from './facts.js';
import type { FactSource } from './verify.js';

/** A {@link FactSource} over `state` for `lab`; the pending list is built on first use only. */
export class StateFacts implements FactSource {
  readonly round: number;
  private list: JobFacts[] | null = null;

  constructor(
    private readonly state: MatchState,
    private readonly lab: LabId,
  ) {
    this.round = state.round;
  }

  pending(): JobFacts[] {
    return (this.list ??= pendingJobs(this.state, this.lab));
  }

  pendingJob(id: JobId): JobFacts | undefined {
    const job = own(this.state.jobs, id);
    return job !== undefined && job.owner === this.lab ? (pendingFacts(job, this.round) ?? undefined) : undefined;
  }

  ownsJob(id: JobId): boolean {
    return own(this.state.jobs, id)?.owner === this.lab;
  }

  hasOffer(id: string): boolean {
    const o = own(this.state.offers, id);
    return o !== undefined && (o.from === this.lab || o.to === this.lab);
  }

  hasCoalition(id: string): boolean {
    const c = own(this.state.coalitions, id);
    return c !== undefined && c.members.includes(this.lab);
  }

  /** `SeatFacts.relatedBlockIds`: owned, or in one of the lab's offers or coalitions. */
  isRelatedBlock(id: string): boolean {
    if (own(this.state.blocks, id)?.owner === this.lab) return true;
    let found = false;
    this.eachDealtBlock((b) => (found ||= b === id));
    return found;
  }

  isMarketBlock(id: string): boolean {
    return Object.hasOwn(this.state.blocks, id);
  }

  /** Whether `test` holds for one of `SeatFacts.capacityHours`. */
  someCapacityHours(test: (hours: number) => boolean): boolean {
    const blocks = this.state.blocks;
    let ownLiveHours = 0;
    let found = false;
    for (const id in blocks) {
      const b = blocks[id]!;
      if (b.owner !== this.lab || !live(b.status)) continue;
      ownLiveHours += b.gpuHours; // summed in record order, as seatFacts does
      found ||= test(b.gpuHours);
    }
    if (found || (ownLiveHours > 0 && test(ownLiveHours))) return true;
    this.eachDealtBlock((id) => {
      const b = own(blocks, id);
      found ||= b !== undefined && live(b.status) && test(b.gpuHours);
    });
    return found;
  }

  /** Whether `test` holds for one of `SeatFacts.capacityReliabilities`. */
  someCapacityReliability(test: (reliability: number) => boolean): boolean {
    const blocks = this.state.blocks;
    for (const id in blocks) {
      const b = blocks[id]!;
      if (b.owner === this.lab && live(b.status) && test(b.reliability)) return true;
    }
    let found = false;
    this.eachDealtBlock((id) => {
      const b = own(blocks, id);
      found ||= b !== undefined && live(b.status) && test(b.reliability);
    });
    return found;
  }

  /** Every block id in the lab's offers (sent or received) and its coalitions' commitments. */
  private eachDealtBlock(visit: (id: string) => void): void {
    const { offers, coalitions } = this.state;
    for (const id in offers) {
      const o = offers[id]!;
      if (o.from !== this.lab && o.to !== this.lab) continue;
      for (let i = 0; i < o.offeredBlockIds.length; i++) visit(o.offeredBlockIds[i]!);
      for (let i = 0; i < o.requestedBlockIds.length; i++) visit(o.requestedBlockIds[i]!);
    }
    for (const id in coalitions) {
      const c = coalitions[id]!;
      if (!c.members.includes(this.lab)) continue;
      for (const m in c.commitments) {
        const ids = c.commitments[m]!.blockIds;
        for (let i = 0; i < ids.length; i++) visit(ids[i]!);
      }
    }
  }
}
