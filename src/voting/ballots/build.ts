/**
 * Building a ballot from a round's judged pitches: the latest pitch or counter-pitch of every unfinished
 * seat in the round (exactly what the judges score: src/engine/judge/rule-judge.ts `decide`, llm-judge
 * `judgedPitches`), in seat order, and every pair of them. Pure.
 */
import type { MatchState } from '../../engine/types.js';
import type { BallotPitch } from './types.js';

/** Fewest pitches a round needs for a ballot (one pair). */
export const MIN_BALLOT_PITCHES = 2;

/** Pitch id on ballots and votes: `p<round>_<lab>` with the 0-based engine round, e.g. `p2_lab_1`. */
export const pitchId = (round: number, lab: string): string => `p${round}_${lab}`;

/** Ballot id of a round's ballot: `v_<round + 1>` (the round number players see), e.g. `v_3`. */
export const ballotIdFor = (round: number): string => `v_${round + 1}`;

/**
 * The pitches of `state`'s current round a ballot holds: each unfinished seat's latest pitch of the round,
 * in seat order. Pass the state the judge judged (after the scripted seats' close-of-round turn,
 * src/match/judging.ts `stateForJudge`), so scripted seats' pitches are included.
 */
export function ballotPitches(state: MatchState): BallotPitch[] {
  const out: BallotPitch[] = [];
  for (const lab of state.labIds) {
    if (state.labs[lab]?.finished) continue;
    let latest = null;
    for (const p of state.pitches) if (p.lab === lab && p.round === state.round) latest = p;
    if (!latest) continue;
    out.push({
      id: pitchId(state.round, lab),
      lab,
      kind: latest.replyTo === null ? 'pitch' : 'counter_pitch',
      text: latest.text,
      jobIds: [...latest.jobIds],
      replyTo: latest.replyTo,
    });
  }
  return out;
}

/** Every unordered pair of `pitches` as canonical [a, b] with a < b, in seat order of the first, then the second. */
export function allPairs(pitches: readonly BallotPitch[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i < pitches.length; i++)
    for (let j = i + 1; j < pitches.length; j++) {
      const x = pitches[i]!.id;
      const y = pitches[j]!.id;
      pairs.push(x < y ? [x, y] : [y, x]);
    }
  return pairs;
}

/** The ballot of `state`'s round, or null when fewer than {@link MIN_BALLOT_PITCHES} pitches were judged. */
export function buildBallot(
  state: MatchState,
): { ballotId: string; round: number; pitches: BallotPitch[]; pairs: [string, string][] } | null {
  const pitches = ballotPitches(state);
  if (pitches.length < MIN_BALLOT_PITCHES) return null;
  return { ballotId: ballotIdFor(state.round), round: state.round, pitches, pairs: allPairs(pitches) };
}
