/**
 * Ballots: blind pairwise battles between the pitches of one closed round, voted on by anyone
 * in the channel. Pure data shapes; the round host folds them from `ballot_*` events (src/events/schema.ts)
 * and the votes themselves are rows of the store (VoteRecord, src/store/types.ts).
 */
import type { JudgeDecision, LabId } from '../../engine/types.js';
import type { VoteChoice } from '../../store/types.js';
import type { BlindText } from './blind.js';

export type { VoteChoice } from '../../store/types.js';

/** Every choice a voter can make, relative to what the voter was shown ("Pitch A" / "Pitch B"). */
export const VOTE_CHOICES: readonly VoteChoice[] = ['a', 'b', 'tie', 'both_bad'];

/** One pitch on a ballot (a copy of the engine's Pitch, with its ballot id `p<round>_<lab>`, round 0-based). */
export interface BallotPitch {
  id: string;
  lab: LabId;
  kind: 'pitch' | 'counter_pitch';
  text: string;
  jobIds: string[];
  replyTo: LabId | null;
}

/** Why a ballot closed (the `ballot_closed` event's reason). */
export type BallotCloseReason = 'next_round' | 'timer' | 'match_ended' | 'host';

/** A ballot folded from its events. Times in ms since the epoch (from event timestamps, never the clock). */
export interface Ballot {
  /** `v_<round + 1>`, e.g. `v_3` for the ballot on round 3/5's pitches. */
  id: string;
  /** Engine round (0-based) whose pitches it holds. */
  round: number;
  pitches: BallotPitch[];
  /** Canonical pairs [pitchA, pitchB], pitchA < pitchB; pair n (1-based) is pairs[n - 1]. */
  pairs: [string, string][];
  openedAt: number;
  /** When it closes on a clock; null = when the next round closes. */
  closesAt: number | null;
  closed: { reason: BallotCloseReason; at: number } | null;
  /** The judge's (public) decision on these pitches, hidden from voters until they vote / the ballot closes. */
  judge: JudgeDecision | null;
  /**
   * Each pitch as voters see it, by pitch id: redacted of every token naming a seat, with what still
   * identifies its author (blind.ts; computed from the seats' names when the ballot opened).
   */
  blind: Record<string, BlindText>;
}
