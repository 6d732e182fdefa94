/**
 * Handler plumbing: the context a handler gets, its outcome type and the shared id checks
 * (docs/RULES.md §3: repeated ids → duplicate_block; multi-block actions check every id before any
 * change, so a handler either fails without touching the draft or succeeds as a whole).
 *
 * A scripted seat's turn runs its actions through one shared draft (step.ts applyTurn), where an entity
 * an earlier action wrote is the draft's own object and is written in place. So a handler reads what it
 * needs from an entity before writing that entity through the draft, never from the object it read
 * after the write (it would see the new values where a fresh draft shows the old). test/engine/turn.test.ts
 * checks that a turn gives what its actions one by one give.
 */
import type { ActionResult, Block, LabId, MatchState, RewardBreakdown } from '../types.js';
import type { ErrorCode, SuccessCode } from '../codes.js';
import type { Draft, RewardSink } from '../mut.js';
import { firstDuplicate, own } from '../util.js';

export interface Ctx {
  d: Draft;
  /** The acting seat. */
  lab: LabId;
  /** The actor's step reward columns being built. */
  reward: RewardBreakdown;
  /** Routes reward: actor → `reward`, any other seat → its pending reward. */
  sink: RewardSink;
  created: NonNullable<ActionResult['created']>;
}

export interface Failure {
  ok: false;
  code: ErrorCode;
  message: string;
  /** Keep the draft's changes even though the action failed (a failed trade marks its offer invalid). */
  keep?: boolean;
  /** Not the actor's fault (the other party's position changed): no invalid-action penalty. */
  noPenalty?: boolean;
}

export type Outcome = { ok: true; code: SuccessCode; message: string } | Failure;

export const ok = (code: SuccessCode, message: string): Outcome => ({ ok: true, code, message });
export const fail = (code: ErrorCode, message: string): Failure => ({ ok: false, code, message });

/** duplicate_block for the first repeated id of `xs`, then of `ys` (each list on its own), else null. */
export function checkDuplicates(xs: readonly string[], ys?: readonly string[]): Failure | null {
  const dup = firstDuplicate(xs) ?? (ys === undefined ? undefined : firstDuplicate(ys));
  return dup === undefined ? null : fail('duplicate_block', `${dup} is listed twice`);
}

/**
 * Check that every id is a block owned by `owner` and passes `usable`; else the first failing id's
 * error: unknown_block, `notOwned` (unowned_block or target_does_not_own_block), `unusable` code.
 */
export function checkBlocks(
  s: MatchState,
  ids: readonly string[],
  owner: LabId,
  notOwned: ErrorCode,
  usable: (b: Block) => boolean,
  unusable: ErrorCode,
  what: string,
): Failure | null {
  for (const id of ids) {
    const b = own(s.blocks, id);
    if (!b) return fail('unknown_block', `no block ${id}`);
    if (b.owner !== owner) return fail(notOwned, `${id} is not owned by ${owner}`);
    if (!usable(b)) return fail(unusable, `${id} is ${b.status}: ${what}`);
  }
  return null;
}

/** A seat's own unsettled job, or an unknown_job outcome. */
export function ownPendingJob(s: MatchState, lab: LabId, jobId: string): Failure | null {
  const j = own(s.jobs, jobId);
  if (!j || j.owner !== lab) return fail('unknown_job', `${jobId} is not one of your jobs`);
  if (j.outcome !== 'pending') return fail('unknown_job', `${jobId} has already settled`);
  return null;
}
