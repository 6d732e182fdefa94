/**
 * Checks a pitch's claims against a seat's true facts (docs/RULES.md §6). Each claim ends up
 * verified (a true fact about the seat's need or dealings), fabricated (contradicts the state),
 * unsupported (a bare future round number that is no deadline of the seat) or neutral (true but not
 * about need, e.g. the size of its own block, when the sentence is about blocks or trades). Counts are
 * of distinct facts, so repeating a claim never adds anything. Pure.
 */
import type { BlockId, CoalitionId, JobId, OfferId } from '../types.js';
import type { Claim } from './claims.js';
import type { JobFacts, SeatFacts } from './facts.js';

/** How one claim was ruled (the per-claim verdict, explain.ts); `neutral` claims are true but not counted. */
export type ClaimRuling = 'verified' | 'fabricated' | 'unsupported' | 'neutral';

/**
 * Why a claim got its ruling (machine codes; words in src/present/verdicts.ts):
 * `named` (own pending job, or a fact matching one: `job` says which), `total` (a sum of unmet or required
 * hours), `own_offer` / `own_coalition` / `own_block` (involves the seat); neutral: `settled_job`,
 * `capacity` (true of its blocks), `market_block` (another lab's block), `past_round`; fabricated:
 * `not_own_job`, `no_match`, `not_own_offer`, `not_own_coalition`, `unknown_block`, `no_deadline`.
 */
export type ClaimWhy =
  | 'named'
  | 'total'
  | 'own_offer'
  | 'own_coalition'
  | 'own_block'
  | 'settled_job'
  | 'capacity'
  | 'market_block'
  | 'past_round'
  | 'not_own_job'
  | 'no_match'
  | 'not_own_offer'
  | 'not_own_coalition'
  | 'unknown_block'
  | 'no_deadline'
  | 'future_round';

/** Receives each claim's ruling as the checker makes it (structured job ids come as `job` claims). */
export type ClaimTrace = (claim: Claim, ruling: ClaimRuling, why: ClaimWhy, job?: JobFacts) => void;

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

/**
 * The questions verification asks about a seat (answers as in {@link SeatFacts}). Implemented over a
 * built `SeatFacts` (below) and straight over the state (state-facts.ts, the judge's hot path).
 */
export interface FactSource {
  /** The current round (0-based). */
  readonly round: number;
  /** {@link SeatFacts.pending}, by deadline then id. */
  pending(): JobFacts[];
  /** The seat's pending job `id`, if it has one. */
  pendingJob(id: JobId): JobFacts | undefined;
  /** Whether the seat owns job `id` (pending or settled). */
  ownsJob(id: JobId): boolean;
  /** Whether the seat sent or received offer `id`. */
  hasOffer(id: OfferId): boolean;
  /** Whether the seat is a member of coalition `id`. */
  hasCoalition(id: CoalitionId): boolean;
  /** Whether block `id` is in {@link SeatFacts.relatedBlockIds}. */
  isRelatedBlock(id: BlockId): boolean;
  /** Whether block `id` exists in the market. */
  isMarketBlock(id: BlockId): boolean;
  /** Whether `test` holds for one of {@link SeatFacts.capacityHours}. */
  someCapacityHours(test: (hours: number) => boolean): boolean;
  /** Whether `test` holds for one of {@link SeatFacts.capacityReliabilities}. */
  someCapacityReliability(test: (reliability: number) => boolean): boolean;
}

/** The questions answered from built facts. */
function factsSource(f: SeatFacts): FactSource {
  return {
    round: f.round,
    pending: () => f.pending,
    pendingJob: (id) => f.pending.findLast((j) => j.id === id), // the last of a repeated id, as a Map by id would
    ownsJob: (id) => f.ownJobIds.has(id),
    hasOffer: (id) => f.offerIds.has(id),
    hasCoalition: (id) => f.coalitionIds.has(id),
    isRelatedBlock: (id) => f.relatedBlockIds.has(id),
    isMarketBlock: (id) => f.marketBlockIds.has(id),
    someCapacityHours: (test) => f.capacityHours.some(test),
    someCapacityReliability: (test) => f.capacityReliabilities.some(test),
  };
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

// The collections below are small arrays kept distinct by a linear search (a pitch makes a handful of
// claims), cheaper than a Set or Map per judged pitch; first-insertion order is kept as a Set's would be.
function addKey(keys: string[], key: string): void {
  if (!keys.includes(key)) keys.push(key);
}
function hasJob(jobs: readonly JobFacts[], id: JobId): boolean {
  for (let i = 0; i < jobs.length; i++) if (jobs[i]!.id === id) return true;
  return false;
}
function addJob(jobs: JobFacts[], job: JobFacts): void {
  if (!hasJob(jobs, job.id)) jobs.push(job);
}

/**
 * @param namedJobIds the pitch's structured `jobIds` (validated by the engine when pitched; any that
 *   are no longer pending are ignored)
 */
export function verifyClaims(facts: SeatFacts, claims: readonly Claim[], namedJobIds: readonly JobId[]): Verification {
  return checkClaims(factsSource(facts), claims, namedJobIds);
}

/** {@link verifyClaims} asking `facts` only the questions the claims raise. */
export function checkClaims(
  facts: FactSource,
  claims: readonly Claim[],
  namedJobIds: readonly JobId[],
  trace?: ClaimTrace,
): Verification {
  const v = new Checker(facts, trace ?? null);
  // Indexed loops: claim lists are frozen (shared by the claims memo), where for…of is slow.
  for (let i = 0; i < namedJobIds.length; i++) v.name(namedJobIds[i]!);
  for (let i = 0; i < claims.length; i++) {
    const c = claims[i]!;
    if (c.kind === 'job') v.jobClaim(c.id);
  }
  for (let i = 0; i < v.named.length; i++) v.verified.push(`job:${v.named[i]!.id}`);
  for (let i = 0; i < claims.length; i++) v.claim(claims[i]!);
  const argued = v.named.length > 0 ? v.named : v.claimJobs.length > 0 ? v.claimJobs : facts.pending();
  return { verified: v.verified, fabricated: v.fabricated, unsupported: v.unsupported, neutral: v.neutral, argued };
}

/** The running verdict of one pitch's claims (the rules of docs/RULES.md §6, claim by claim). */
class Checker {
  readonly verified: string[] = [];
  readonly fabricated: string[] = [];
  readonly unsupported: string[] = [];
  neutral = 0;
  /** The pending jobs the pitch names (structured ids, then job ids in its text). */
  readonly named: JobFacts[] = [];
  /** The pending jobs its hours, deadline and reliability claims matched. */
  readonly claimJobs: JobFacts[] = [];
  /** Σ unmet and Σ required hours of all pending and of the named jobs (the > 0 ones), at the first hours claim. */
  private hourTotals: number[] | null = null;

  constructor(
    private readonly facts: FactSource,
    private readonly trace: ClaimTrace | null,
  ) {}

  /** A structured job id: named if pending, else ignored. */
  name(id: JobId): void {
    const job = hasJob(this.named, id) ? undefined : this.facts.pendingJob(id);
    if (job) {
      this.named.push(job);
      this.trace?.({ kind: 'job', id }, 'verified', 'named', job);
    }
  }

  /** A job id in the text: named if pending; its own settled job is true but no need; else fabricated. */
  jobClaim(id: JobId): void {
    if (hasJob(this.named, id)) return; // named again: nothing new
    const job = this.facts.pendingJob(id);
    if (job) {
      this.named.push(job);
      this.trace?.({ kind: 'job', id }, 'verified', 'named', job);
    } else if (this.facts.ownsJob(id)) {
      this.neutral += 1;
      this.trace?.({ kind: 'job', id }, 'neutral', 'settled_job');
    } else {
      addKey(this.fabricated, `job:${id}`);
      this.trace?.({ kind: 'job', id }, 'fabricated', 'not_own_job');
    }
  }

  claim(c: Claim): void {
    switch (c.kind) {
      case 'job':
        break; // see jobClaim
      case 'hours':
        this.hours(c.value, c.capacity);
        break;
      case 'deadline':
        this.deadline(c.round, c.explicit);
        break;
      case 'deadline_in':
        this.deadlineIn(c.rounds);
        break;
      case 'reliability':
        this.reliability(c.value, c.capacity);
        break;
      case 'offer':
        if (this.facts.hasOffer(c.id)) this.rule(c, 'verified', 'own_offer', `offer:${c.id}`);
        else this.rule(c, 'fabricated', 'not_own_offer', `offer:${c.id}`);
        break;
      case 'coalition':
        if (this.facts.hasCoalition(c.id)) this.rule(c, 'verified', 'own_coalition', `coalition:${c.id}`);
        else this.rule(c, 'fabricated', 'not_own_coalition', `coalition:${c.id}`);
        break;
      case 'block':
        if (this.facts.isRelatedBlock(c.id)) this.rule(c, 'verified', 'own_block', `block:${c.id}`);
        else if (this.facts.isMarketBlock(c.id))
          this.rule(c, 'neutral', 'market_block'); // wanting another lab's (public) block is fair
        else this.rule(c, 'fabricated', 'unknown_block', `block:${c.id}`);
        break;
    }
  }

  /** Record a ruling: the fact `key` under verified / fabricated / unsupported, or one more neutral claim. */
  private rule(c: Claim, ruling: ClaimRuling, why: ClaimWhy, key?: string, job?: JobFacts): void {
    if (ruling === 'neutral') this.neutral += 1;
    else addKey(this[ruling], key!);
    this.trace?.(c, ruling, why, job);
  }

  /** Verified if it is a pending job's required or unmet hours or a total; neutral if true of capacity. */
  private hours(value: number, capacity: boolean): void {
    const pending = this.facts.pending();
    let matched: JobFacts | undefined;
    for (let i = 0; i < pending.length; i++) {
      const j = pending[i]!;
      if (!near(j.requiredHours, value) && !near(j.unmetHours, value)) continue;
      addJob(this.claimJobs, j);
      matched ??= j;
    }
    const named = this.named;
    this.hourTotals ??= [
      sumOf(pending, 'unmetHours'),
      sumOf(pending, 'requiredHours'),
      sumOf(named, 'unmetHours'),
      sumOf(named, 'requiredHours'),
    ].filter((h) => h > 0);
    const c: Claim = { kind: 'hours', value, capacity };
    if (matched) this.rule(c, 'verified', 'named', `hours:${value}`, matched);
    else if (this.hourTotals.some((h) => near(h, value))) this.rule(c, 'verified', 'total', `hours:${value}`);
    else if (capacity && this.facts.someCapacityHours((h) => near(h, value))) this.rule(c, 'neutral', 'capacity');
    else this.rule(c, 'fabricated', 'no_match', `hours:${value}`);
  }

  private deadline(round: number, explicit: boolean): void {
    // Chat shows rounds 1-based ("Round 2/5"), the engine and agents' JSON 0-based: accept either.
    const pending = this.facts.pending();
    let first: JobFacts | null = null;
    for (let i = 0; i < pending.length; i++) {
      const j = pending[i]!;
      if (j.deadlineRound !== round && j.deadlineRound + 1 !== round) continue;
      addJob(this.claimJobs, j);
      first ??= j;
    }
    const c: Claim = { kind: 'deadline', round, explicit };
    if (first) this.rule(c, 'verified', 'named', `deadline:${first.deadlineRound}`, first);
    else if (explicit) this.rule(c, 'fabricated', 'no_deadline', `deadline:${round}`);
    else if (round <= this.facts.round)
      this.rule(c, 'neutral', 'past_round'); // "we are in round 2": history, not a claim of need
    else this.rule(c, 'unsupported', 'future_round', `round:${round}`);
  }

  private deadlineIn(rounds: number): void {
    // "due in 2 rounds" may count the current round or not: accept either reading, the exact one first.
    const job =
      withRoundsLeft(this.named, rounds) ??
      withRoundsLeft(this.named, rounds - 1) ??
      withRoundsLeft(this.facts.pending(), rounds) ??
      withRoundsLeft(this.facts.pending(), rounds - 1);
    const c: Claim = { kind: 'deadline_in', rounds };
    if (job) {
      addJob(this.claimJobs, job);
      this.rule(c, 'verified', 'named', `deadline:${job.deadlineRound}`, job);
    } else this.rule(c, 'fabricated', 'no_deadline', `in:${rounds}`);
  }

  private reliability(value: number, capacity: boolean): void {
    const pending = this.facts.pending();
    let first: JobFacts | null = null;
    for (let i = 0; i < pending.length; i++) {
      const j = pending[i]!;
      if (!near(j.minReliability, value)) continue;
      addJob(this.claimJobs, j);
      first ??= j;
    }
    const c: Claim = { kind: 'reliability', value, capacity };
    if (first) this.rule(c, 'verified', 'named', `rel:${r2(first.minReliability)}`, first);
    else if (capacity && this.facts.someCapacityReliability((r) => near(r, value))) this.rule(c, 'neutral', 'capacity');
    else this.rule(c, 'fabricated', 'no_match', `rel:${value}`);
  }
}
