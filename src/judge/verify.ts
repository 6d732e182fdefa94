/**
 * Checks a pitch's claims against a seat's true facts (docs/RULES.md §6). Each claim ends up
 * verified (a true fact about the seat's need or dealings), fabricated (contradicts the state),
 * unsupported (a bare future round number that is no deadline of the seat) or neutral (true but not
 * about need, e.g. the size of its own block, when the sentence is about blocks or trades). Counts are of distinct facts, so repeating a claim never
 * adds anything. Pure.
 */
import type { JobId } from '../env/types';
import type { Claim } from './claims';
import type { JobFacts, SeatFacts } from './facts';

/** Hours and reliability values within this distance match (values are written with 2 decimals). */
export const MATCH_TOLERANCE = 0.006;

export interface Verification {
  /** Distinct verified facts, e.g. `job:j_0_1`, `hours:8`, `deadline:3`, `rel:0.85`, `offer:o_2`. */
  verified: string[];
  /** Distinct fabricated claims, e.g. `job:j_0_99`, `hours:640`. */
  fabricated: string[];
  /** Bare future round numbers that are no deadline of the seat (`round:4`). */
  unsupported: string[];
  /** Claims that are true but say nothing about need (another lab's block, one's own block size). */
  neutral: number;
  /** The jobs the pitch argues for: named pending jobs, else the jobs its claims matched, else all pending. */
  argued: JobFacts[];
}

const near = (a: number, b: number) => Math.abs(a - b) < MATCH_TOLERANCE;
const r2 = (x: number) => Math.round(x * 100) / 100;
/** Σ of one field over jobs, left to right from 0 (as `xs.map(f).reduce((a, b) => a + b, 0)`). */
function sumOf(jobs: readonly JobFacts[], key: 'unmetHours' | 'requiredHours'): number {
  let t = 0;
  for (const j of jobs) t += j[key];
  return t;
}

/** The first job with exactly `rounds` rounds left. */
function withRoundsLeft(jobs: readonly JobFacts[], rounds: number): JobFacts | undefined {
  for (const j of jobs) if (j.roundsLeft === rounds) return j;
  return undefined;
}

/**
 * @param namedJobIds the pitch's structured `jobIds` (validated by the engine when pitched; any that
 *   are no longer pending are ignored)
 */
export function verifyClaims(facts: SeatFacts, claims: readonly Claim[], namedJobIds: readonly JobId[]): Verification {
  const verified = new Set<string>();
  const fabricated = new Set<string>();
  const unsupported = new Set<string>();
  let neutral = 0;
  const pendingById = new Map(facts.pending.map((j) => [j.id, j]));
  const named = new Map<JobId, JobFacts>();
  const claimJobs = new Map<JobId, JobFacts>();

  for (const id of namedJobIds) {
    const job = pendingById.get(id);
    if (job) named.set(id, job);
  }
  for (const c of claims) {
    if (c.kind !== 'job') continue;
    const job = pendingById.get(c.id);
    if (job) named.set(c.id, job);
    else if (facts.ownJobIds.has(c.id)) neutral += 1; // its own settled job: true, but no need
    else fabricated.add(`job:${c.id}`);
  }
  for (const id of named.keys()) verified.add(`job:${id}`);
  const namedJobs = [...named.values()];

  const hourTotals = [
    sumOf(facts.pending, 'unmetHours'),
    sumOf(facts.pending, 'requiredHours'),
    sumOf(namedJobs, 'unmetHours'),
    sumOf(namedJobs, 'requiredHours'),
  ].filter((h) => h > 0);

  for (const c of claims) {
    switch (c.kind) {
      case 'job':
        break;
      case 'hours': {
        const jobs = facts.pending.filter((j) => near(j.requiredHours, c.value) || near(j.unmetHours, c.value));
        for (const j of jobs) claimJobs.set(j.id, j);
        if (jobs.length > 0 || hourTotals.some((h) => near(h, c.value))) verified.add(`hours:${c.value}`);
        else if (c.capacity && facts.capacityHours.some((h) => near(h, c.value))) neutral += 1;
        else fabricated.add(`hours:${c.value}`);
        break;
      }
      case 'deadline': {
        // Chat shows rounds 1-based ("Round 2/5"), the engine and agents' JSON 0-based: accept either.
        const jobs = facts.pending.filter((j) => j.deadlineRound === c.round || j.deadlineRound + 1 === c.round);
        for (const j of jobs) claimJobs.set(j.id, j);
        if (jobs[0]) verified.add(`deadline:${jobs[0].deadlineRound}`);
        else if (c.explicit) fabricated.add(`deadline:${c.round}`);
        else if (c.round <= facts.round) neutral += 1; // "we are in round 2": history, not a claim of need
        else unsupported.add(`round:${c.round}`);
        break;
      }
      case 'deadline_in': {
        // "due in 2 rounds" may count the current round or not: accept either reading, the exact one first.
        const job =
          withRoundsLeft(namedJobs, c.rounds) ??
          withRoundsLeft(namedJobs, c.rounds - 1) ??
          withRoundsLeft(facts.pending, c.rounds) ??
          withRoundsLeft(facts.pending, c.rounds - 1);
        if (job) {
          claimJobs.set(job.id, job);
          verified.add(`deadline:${job.deadlineRound}`);
        } else fabricated.add(`in:${c.rounds}`);
        break;
      }
      case 'reliability': {
        const jobs = facts.pending.filter((j) => near(j.minReliability, c.value));
        for (const j of jobs) claimJobs.set(j.id, j);
        if (jobs[0]) verified.add(`rel:${r2(jobs[0].minReliability)}`);
        else if (c.capacity && facts.capacityReliabilities.some((r) => near(r, c.value))) neutral += 1;
        else fabricated.add(`rel:${c.value}`);
        break;
      }
      case 'offer':
        if (facts.offerIds.has(c.id)) verified.add(`offer:${c.id}`);
        else fabricated.add(`offer:${c.id}`);
        break;
      case 'coalition':
        if (facts.coalitionIds.has(c.id)) verified.add(`coalition:${c.id}`);
        else fabricated.add(`coalition:${c.id}`);
        break;
      case 'block':
        if (facts.relatedBlockIds.has(c.id)) verified.add(`block:${c.id}`);
        else if (facts.marketBlockIds.has(c.id)) neutral += 1; // wanting another lab's (public) block is fair
        else fabricated.add(`block:${c.id}`);
        break;
    }
  }

  const argued = namedJobs.length > 0 ? namedJobs : claimJobs.size > 0 ? [...claimJobs.values()] : facts.pending;
  return {
    verified: [...verified],
    fabricated: [...fabricated],
    unsupported: [...unsupported],
    neutral,
    argued,
  };
}
