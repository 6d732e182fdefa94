/**
 * Serving a ballot to one voter, pure: which pairs the voter may judge (never one holding the pitch of the
 * voter's own seat), which one comes next, the order the two pitches are shown in (randomised per voter,
 * but deterministic, so a restart or a second look shows the same order), and turning the voter's choice
 * on what they were shown into the canonical choice stored in a VoteRecord.
 */
import { createHash } from 'node:crypto';
import type { LabId } from '../../engine/types.js';
import type { BlindText } from './blind.js';
import type { Ballot, BallotPitch, VoteChoice } from './types.js';

/**
 * A pair as one voter sees it: 1-based `pair`, the pitch shown as "Pitch A" and as "Pitch B" (their raw
 * records: never show `text`), the redacted texts a voter is shown (`blindA`, `blindB`), and whether
 * neither still identifies its author (`anonymous`, stored with the vote).
 */
export interface ShownPair {
  pair: number;
  shownA: BallotPitch;
  shownB: BallotPitch;
  blindA: BlindText;
  blindB: BlindText;
  anonymous: boolean;
}

/** The pitch as voters see it (its raw text with no finding only if the ballot lacks it: a corrupt fold). */
export function blindOf(b: Ballot, id: string): BlindText {
  return b.blind[id] ?? { text: pitchOf(b, id).text, leaks: [{ kind: 'name', text: '(not redacted)' }] };
}

/**
 * Codes of {@link checkPair}: `unknown_pair` (no such pair on the ballot), `own_pitch` (the pair holds the
 * pitch of the voter's own seat), `ballot_closed`.
 */
export type PairErrorCode = 'unknown_pair' | 'own_pitch' | 'ballot_closed';

/** The pitch with this id on the ballot (throws on a ballot whose pairs name unknown pitches: a corrupt log). */
export function pitchOf(b: Ballot, id: string): BallotPitch {
  const p = b.pitches.find((x) => x.id === id);
  if (!p) throw new Error(`ballot ${b.id}: no pitch ${id}`);
  return p;
}

/** True when the voter's seat (`voterLab`, null for spectators) wrote one of the pair's pitches. */
export function holdsOwnPitch(b: Ballot, pair: number, voterLab: LabId | null): boolean {
  const ids = b.pairs[pair - 1];
  if (!ids || voterLab === null) return false;
  return ids.some((id) => pitchOf(b, id).lab === voterLab);
}

/** 1-based pairs the voter may judge (all but those holding the voter's own pitch), in ballot order. */
export function eligiblePairs(b: Ballot, voterLab: LabId | null): number[] {
  return b.pairs.map((_, i) => i + 1).filter((n) => !holdsOwnPitch(b, n, voterLab));
}

/** The first eligible pair the voter has not judged yet, or null when none is left. */
export function nextPair(b: Ballot, voterLab: LabId | null, judged: ReadonlySet<number>): number | null {
  return eligiblePairs(b, voterLab).find((n) => !judged.has(n)) ?? null;
}

/**
 * Whether the voter sees the pair's canonical second pitch first: one bit of SHA-256 over (match, ballot,
 * pair, voter). Deterministic (same voter, same order after a restart), uniform over voters, independent
 * across pairs; not a secret (the order only needs to be unrelated to the pitches).
 */
export function swappedFor(matchId: string, ballotId: string, pair: number, voterId: string): boolean {
  const h = createHash('sha256').update(`${matchId}\u0000${ballotId}\u0000${pair}\u0000${voterId}`).digest();
  return (h[0]! & 1) === 1;
}

/** Pair `pair` (1-based) in the order this voter sees it. Throws when the pair does not exist (check first). */
export function shownPair(matchId: string, b: Ballot, pair: number, voterId: string): ShownPair {
  const ids = b.pairs[pair - 1];
  if (!ids) throw new Error(`ballot ${b.id}: no pair ${pair}`);
  const [a, c] = ids;
  const swap = swappedFor(matchId, b.id, pair, voterId);
  const [first, second] = swap ? [c, a] : [a, c];
  const blindA = blindOf(b, first);
  const blindB = blindOf(b, second);
  return {
    pair,
    shownA: pitchOf(b, first),
    shownB: pitchOf(b, second),
    blindA,
    blindB,
    anonymous: blindA.leaks.length === 0 && blindB.leaks.length === 0,
  };
}

/**
 * The canonical choice (relative to pitchA < pitchB) of a choice made on what the voter was shown: `a` means
 * "the pitch shown as A is better". Tie and both-bad are symmetric.
 */
export function canonicalChoice(shown: VoteChoice, shownFirst: string, pitchA: string): VoteChoice {
  if (shown === 'tie' || shown === 'both_bad' || shownFirst === pitchA) return shown;
  return shown === 'a' ? 'b' : 'a';
}

/** The inverse of {@link canonicalChoice}: a stored choice as the voter made it on screen. */
export function shownChoice(canonical: VoteChoice, shownFirst: string, pitchA: string): VoteChoice {
  return canonicalChoice(canonical, shownFirst, pitchA);
}

/** Whether the ballot takes votes at `now` (ms): not closed and not past its clock deadline. */
export function isOpenAt(b: Ballot, now: number): boolean {
  return b.closed === null && (b.closesAt === null || now < b.closesAt);
}

/** Check that `voterLab` may vote on `pair` of `b` at `now`; null when allowed. */
export function checkPair(b: Ballot, pair: number, voterLab: LabId | null, now: number): PairErrorCode | null {
  if (!isOpenAt(b, now)) return 'ballot_closed';
  if (!Number.isInteger(pair) || pair < 1 || pair > b.pairs.length) return 'unknown_pair';
  if (holdsOwnPitch(b, pair, voterLab)) return 'own_pitch';
  return null;
}
