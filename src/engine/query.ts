/**
 * Read-only look-ups over a MatchState used by handlers, settlement and views. Iteration follows the
 * records' insertion order, which is deterministic (creation order), never user input order.
 */
import type { Block, Job, LabId, MatchState } from './types.js';

export function labBlocks(s: MatchState, lab: LabId): Block[] {
  const out: Block[] = [];
  for (const id in s.blocks) {
    const b = s.blocks[id]!;
    if (b.owner === lab) out.push(b);
  }
  return out;
}

export function labJobs(s: MatchState, lab: LabId): Job[] {
  const out: Job[] = [];
  for (const id in s.jobs) {
    const j = s.jobs[id]!;
    if (j.owner === lab) out.push(j);
  }
  return out;
}

/** A lab's jobs and blocks, each in record order (labJobs, labBlocks). */
export interface Holdings {
  jobs: readonly Job[];
  blocks: readonly Block[];
}

/** The {@link Holdings} of two different labs (the parties of a trade), reading each record once. */
export function holdingsOf(s: MatchState, a: LabId, b: LabId): [Holdings, Holdings] {
  const jobsA: Job[] = [];
  const jobsB: Job[] = [];
  for (const id in s.jobs) {
    const j = s.jobs[id]!;
    if (j.owner === a) jobsA.push(j);
    else if (j.owner === b) jobsB.push(j);
  }
  const blocksA: Block[] = [];
  const blocksB: Block[] = [];
  for (const id in s.blocks) {
    const x = s.blocks[id]!;
    if (x.owner === a) blocksA.push(x);
    else if (x.owner === b) blocksB.push(x);
  }
  return [
    { jobs: jobsA, blocks: blocksA },
    { jobs: jobsB, blocks: blocksB },
  ];
}

/** Credits this lab holds in coalition escrow. */
export function escrowOf(s: MatchState, lab: LabId): number {
  let sum = 0;
  for (const id in s.coalitions) sum += s.coalitions[id]!.commitments[lab]?.escrow ?? 0;
  return Math.round(sum * 100) / 100;
}

/** True when block `id` exists, belongs to `owner` and is live (available or reserved). */
export function holdsLive(s: MatchState, id: string, owner: LabId): boolean {
  const b = Object.hasOwn(s.blocks, id) ? s.blocks[id] : undefined;
  return b !== undefined && b.owner === owner && (b.status === 'available' || b.status === 'reserved');
}
