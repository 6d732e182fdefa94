/** Ballots on a round's pitches: building them, serving pairs to voters, checking votes. Pure. */
export * from './types.js';
export {
  blindPitch,
  identifyingLeft,
  identitiesOf,
  redactPitch,
  type BlindText,
  type Leak,
  type SeatIdentity,
} from './blind.js';
export { MIN_BALLOT_PITCHES, allPairs, ballotIdFor, ballotPitches, buildBallot, pitchId } from './build.js';
export {
  blindOf,
  canonicalChoice,
  checkPair,
  eligiblePairs,
  holdsOwnPitch,
  isOpenAt,
  nextPair,
  pitchOf,
  shownChoice,
  shownPair,
  swappedFor,
  type PairErrorCode,
  type ShownPair,
} from './serve.js';
