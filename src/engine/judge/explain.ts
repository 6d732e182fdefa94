/**
 * The judge's work, claim by claim (docs/RULES.md §6.6): for each judged pitch, which claims
 * the grounded check read, how each was ruled (verified, fabricated, unsupported, or not counted) and why,
 * its manipulation flags, and — for its author only — the truth about the seat's own pending jobs as the
 * judge saw them. The same checker as the score (verify.ts), so the verdict shown is the verdict used.
 * Pure; reads the state only.
 */
import { z } from 'zod';
import type { JobId, LabId, MatchState, Pitch } from '../types.js';
import { claimsOf, type Claim } from './claims.js';
import { manipulationFlags, type ManipulationFlag } from './manipulation.js';
import { factsForPitch } from './snapshot.js';
import { checkClaims, type ClaimRuling, type ClaimWhy } from './verify.js';

/** One checked claim, in the order the checker met it (structured job ids first, then the text's claims). */
export interface ClaimCheck {
  claim: Claim;
  ruling: ClaimRuling;
  why: ClaimWhy;
  /** The seat's own pending job it matched (verified claims), if any. Private to the author unless the pitch named it. */
  jobId?: JobId;
}

/** A pending job of the author as the judge saw it (private to the author). Hours in GPU-hours, rounds 0-based. */
export interface JobTruth {
  id: JobId;
  unmetHours: number;
  requiredHours: number;
  deadlineRound: number;
  minReliability: number;
}

/** The judge's work on one pitch. Counts are of distinct facts (as the score counts them). */
export interface PitchCheck {
  lab: LabId;
  round: number;
  claims: ClaimCheck[];
  flags: readonly ManipulationFlag[];
  verified: number;
  fabricated: number;
  unsupported: number;
  /** Private to the author: the seat's pending jobs when the round was judged. */
  truth: JobTruth[];
}

/** The judge's work on `pitch` against `state` (the state the judge saw). */
export function checkPitch(state: MatchState, pitch: Pitch): PitchCheck {
  const facts = factsForPitch(state, pitch);
  const claims: ClaimCheck[] = [];
  const v = checkClaims(facts, claimsOf(pitch.text), pitch.jobIds, (claim, ruling, why, job) => {
    claims.push(job ? { claim: { ...claim }, ruling, why, jobId: job.id } : { claim: { ...claim }, ruling, why });
  });
  const truth = facts.pending().map((j) => ({
    id: j.id,
    unmetHours: j.unmetHours,
    requiredHours: j.requiredHours,
    deadlineRound: j.deadlineRound,
    minReliability: j.minReliability,
  }));
  return {
    lab: pitch.lab,
    round: state.round,
    claims,
    flags: manipulationFlags(pitch.text),
    verified: v.verified.length,
    fabricated: v.fabricated.length,
    unsupported: v.unsupported.length,
    truth,
  };
}

/** The judge's work on every judged pitch of `state`'s round (latest per unfinished seat, seat order). */
export function checkRound(state: MatchState): PitchCheck[] {
  const out: PitchCheck[] = [];
  for (const lab of state.labIds) {
    if (state.labs[lab]?.finished) continue;
    let latest: Pitch | null = null;
    for (const p of state.pitches) if (p.lab === lab && p.round === state.round) latest = p;
    if (latest) out.push(checkPitch(state, latest));
  }
  return out;
}

const num = z.number().finite();
const ClaimSchema = z.union([
  z.object({ kind: z.enum(['job', 'offer', 'coalition', 'block']), id: z.string().max(64) }),
  z.object({ kind: z.literal('hours'), value: num, capacity: z.boolean() }),
  z.object({ kind: z.literal('deadline'), round: num, explicit: z.boolean() }),
  z.object({ kind: z.literal('deadline_in'), rounds: num }),
  z.object({ kind: z.literal('reliability'), value: num, capacity: z.boolean() }),
]);
const WHY = [
  'named',
  'total',
  'own_offer',
  'own_coalition',
  'own_block',
  'settled_job',
  'capacity',
  'market_block',
  'past_round',
  'not_own_job',
  'no_match',
  'not_own_offer',
  'not_own_coalition',
  'unknown_block',
  'no_deadline',
  'future_round',
] as const;

/** {@link PitchCheck}s as stored in a decision's `meta.checks` (read back from the event log). */
export const PitchChecksSchema = z.array(
  z.object({
    lab: z.string().max(64),
    round: z.number().int().nonnegative(),
    claims: z
      .array(
        z.object({
          claim: ClaimSchema,
          ruling: z.enum(['verified', 'fabricated', 'unsupported', 'neutral']),
          why: z.enum(WHY),
          jobId: z.string().max(64).optional(),
        }),
      )
      .max(200),
    flags: z
      .array(
        z.object({ kind: z.enum(['instruction', 'verdict', 'repetition', 'padding']), detail: z.string().max(200) }),
      )
      .max(4),
    verified: z.number().int().nonnegative(),
    fabricated: z.number().int().nonnegative(),
    unsupported: z.number().int().nonnegative(),
    truth: z
      .array(
        z.object({
          id: z.string().max(64),
          unmetHours: num,
          requiredHours: num,
          deadlineRound: num,
          minReliability: num,
        }),
      )
      .max(50),
  }),
);

/** The checks stored in a decision's meta (`meta.checks`), or null when absent or malformed. */
export function storedChecks(meta: Record<string, unknown> | undefined): PitchCheck[] | null {
  const r = PitchChecksSchema.safeParse(meta?.['checks']);
  return r.success ? (r.data as PitchCheck[]) : null;
}
