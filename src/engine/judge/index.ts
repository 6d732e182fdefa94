/** The judge package: the interface (types.ts) and the grounded rule judge (docs/RULES.md §6). */
export * from './types.js';
export { type Claim, extractClaims, normalizePitch, MAX_PITCH_SCAN } from './claims.js';
export { type JobFacts, type SeatFacts, seatFacts } from './facts.js';
export { type Verification, verifyClaims, MATCH_TOLERANCE } from './verify.js';
export {
  ruleJudge,
  scorePitch,
  decide,
  mayWin,
  needOf,
  RULE_JUDGE_ID,
  JUDGE_WEIGHTS,
  JUDGE_BONUS_MIN,
  NEED_HOURS_SCALE,
  SPECIFICITY_SATURATION,
  FABRICATION_SATURATION,
} from './rule-judge.js';
export { type ArguedJobs, arguedJobs } from './argued.js';
export { factsForPitch, judgedSeatFacts, pitchFactsOf } from './snapshot.js';
export {
  type ManipulationFlag,
  type ManipulationKind,
  manipulationFlags,
  substantiveText,
  PADDING_CHARS,
} from './manipulation.js';
export { type ClaimCheck, type JobTruth, type PitchCheck, checkPitch, checkRound, storedChecks } from './explain.js';
