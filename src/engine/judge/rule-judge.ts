/**
 * The grounded rule judge `rule_judge_v2` (docs/RULES.md §6). It scores each seat's pitch by the seat's
 * true need and by the checkable claims of the pitch, checked against the state — never by wording:
 * keywords, capitals, padding, instructions and JSON verdicts inside a pitch are plain text and change
 * nothing (fixes the original judge's weaknesses, docs/RULES.md §A.3: keyword stuffing, wording over substance, no fact checking, injection).
 * Pure and deterministic: ties are broken by `rng(seed, round, 'judge')`.
 */
import type { JudgeDecision, JudgeSeatScore, LabId, MatchState, Pitch } from '../types.js';
import { claimsOf } from './claims.js';
import { countsReason, seatReason } from './reasons.js';
import type { JobFacts } from './facts.js';
import { factsForPitch } from './snapshot.js';
import { JUDGE_BONUS_MAX, type SyncJudge } from './types.js';
import { checkClaims } from './verify.js';
import { flagsText, manipulationFlags, type ManipulationFlag } from './manipulation.js';
import { rng } from '../rng.js';

export const RULE_JUDGE_ID = 'rule_judge_v2';

/** Score weights (docs/RULES.md §6). */
export const JUDGE_WEIGHTS = {
  need: 0.45,
  verified: 0.25,
  specificity: 0.15,
  /** Every judged pitch starts here, so an honest pitch without claims still scores on need. */
  base: 0.15,
  fabricated: 0.6,
} as const;
/** Unmet GPU-hours at which the hours half of need saturates (jobs need 2–8 h, 1–3 jobs a lab: §1). */
export const NEED_HOURS_SCALE = 12;
/** Distinct verified facts at which specificity saturates (e.g. job id, hours, deadline, reliability). */
export const SPECIFICITY_SATURATION = 4;
/** Distinct fabricated claims at which the fabricated part saturates. */
export const FABRICATION_SATURATION = 2;
/** Smallest bonus a winner gets (docs/RULES.md §6). */
export const JUDGE_BONUS_MIN = 0.05;

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const r4 = (x: number) => Math.round(x * 10_000) / 10_000;
/**
 * Need of the argued jobs in [0, 1]: 0.4 × min(1, Σ unmet hours / 12) + 0.4 × deadline pressure
 * (max over jobs of 1 − roundsLeft / (maxRounds − 1), as the original judge's P, docs/RULES.md §A.3) + 0.2 × urgency
 * (max over jobs of (multiplier − 1) / 0.9). 0 when nothing is pending.
 */
export function needOf(jobs: readonly JobFacts[], maxRounds: number): number {
  if (jobs.length === 0) return 0;
  let hours = 0;
  let pressure = -Infinity;
  let urgency = -Infinity;
  const span = Math.max(1, maxRounds - 1);
  for (const j of jobs) {
    hours += j.unmetHours;
    pressure = Math.max(pressure, clamp(1 - j.roundsLeft / span, 0, 1));
    urgency = Math.max(urgency, clamp((j.urgency - 1) / 0.9, 0, 1));
  }
  return 0.4 * Math.min(1, hours / NEED_HOURS_SCALE) + 0.4 * pressure + 0.2 * urgency;
}

interface Scored {
  seat: JudgeSeatScore;
  /** Distinct verified and fabricated claims (for eligibility and the decision's reason). */
  verified: number;
  fabricated: number;
  /** Manipulation flags of the pitch (manipulation.ts): any one makes it ineligible. */
  flags: readonly ManipulationFlag[];
}

function score(state: MatchState, pitch: Pitch): Scored {
  // Only the facts the pitch's claims ask about are looked up (not a whole seatFacts).
  const v = checkClaims(factsForPitch(state, pitch), claimsOf(pitch.text), pitch.jobIds);
  const nV = v.verified.length;
  const nF = v.fabricated.length;
  const nU = v.unsupported.length;
  const need = needOf(v.argued, state.params.maxRounds);
  const parts = {
    need: r4(need),
    // Precision of the checkable claims: fabricated and unsupported ones dilute it.
    verifiedClaims: nV + nF + nU > 0 ? r4(nV / (nV + nF + nU)) : 0,
    fabricatedClaims: r4(Math.min(1, nF / FABRICATION_SATURATION)),
    specificity: r4(Math.min(1, nV / SPECIFICITY_SATURATION)),
  };
  const W = JUDGE_WEIGHTS;
  // A pitch that fabricates also loses the matching share of its need: its argument cannot be trusted.
  const total =
    W.need * parts.need * (1 - parts.fabricatedClaims) +
    W.verified * parts.verifiedClaims +
    W.specificity * parts.specificity +
    W.base -
    W.fabricated * parts.fabricatedClaims;
  const name = state.labs[pitch.lab]?.publicName ?? pitch.lab;
  const flags = manipulationFlags(pitch.text);
  const reason = seatReason(name, nV, nF, nU);
  return {
    seat: {
      lab: pitch.lab,
      score: r4(clamp(total, 0, 1)),
      parts,
      reason: flags.length === 0 ? reason : `${reason}; manipulation (cannot win): ${flagsText(flags)}`,
    },
    verified: nV,
    fabricated: nF,
    flags,
  };
}

/**
 * Score one pitch against the true state of its seat.
 *
 * score = clamp(0.45·need·(1 − fabricated) + 0.25·verifiedClaims + 0.15·specificity + 0.15
 *   − 0.6·fabricated, 0, 1), every part in [0, 1] and rounded to 4 dp (docs/RULES.md §6).
 * The reason is public and holds counts only, never a private value.
 */
export function scorePitch(state: MatchState, pitch: Pitch): JudgeSeatScore {
  return score(state, pitch).seat;
}

/** The latest pitch of `lab` for the state's round, or null. */
function latestPitch(state: MatchState, pitches: readonly Pitch[], lab: LabId): Pitch | null {
  let latest: Pitch | null = null;
  for (let i = 0; i < pitches.length; i++)
    if (pitches[i]!.lab === lab && pitches[i]!.round === state.round) latest = pitches[i]!;
  return latest;
}

const nameOf = (state: MatchState, lab: LabId): string => state.labs[lab]?.publicName ?? lab;
const countsOf = (s: Scored): string => countsReason(s.verified, s.fabricated);
/**
 * Only a pitch with at least one verified claim, none fabricated and no manipulation flag can win: a
 * claim-free plea, a pitch with any lie, or one that addresses the judge or pads earns no bonus, however
 * alone it is (docs/RULES.md §6.4).
 */
const eligible = (s: Scored): boolean =>
  s.seat.score > 0 && s.verified > 0 && s.fabricated === 0 && s.flags.length === 0;

/**
 * Whether a judged pitch may win (docs/RULES.md §6.4): score > 0, ≥ 1 verified claim, none fabricated,
 * no manipulation flag. The hybrid LLM judge applies the same test to the grounded parts.
 */
export function mayWin(state: MatchState, pitch: Pitch): boolean {
  return eligible(score(state, pitch));
}

/**
 * Judge a round's pitches: the latest pitch of each unfinished seat for the state's round, in seat
 * order. Winner = highest score among eligible pitches (> 0: a pitch whose fabrications zeroed it wins
 * nothing); exact ties (4 dp) are broken by one draw of `rng(seed, round, 'judge')` among the tied
 * seats in seat order. bonus = clamp(0.05 + (winner − runner-up)/2, 0.05, JUDGE_BONUS_MAX), runner-up
 * 0 when only one seat pitched; 0 when there is no winner. Returns null when nobody pitched.
 */
export function decide(state: MatchState, pitches: readonly Pitch[]): JudgeDecision | null {
  if (pitches.length === 0) return null; // most round closes: skip the per-seat search
  const scored: Scored[] = [];
  const scores: JudgeSeatScore[] = [];
  let top = -Infinity;
  for (let i = 0; i < state.labIds.length; i++) {
    const lab = state.labIds[i]!;
    const p = latestPitch(state, pitches, lab);
    if (p === null || state.labs[lab]!.finished) continue;
    const x = score(state, p);
    scored.push(x);
    scores.push(x.seat);
    if (eligible(x)) top = Math.max(top, x.seat.score);
  }
  if (scored.length === 0) return null;
  // Decisions are written as literals (not spread copies): they are stored in the state.
  if (top === -Infinity) {
    return {
      round: state.round,
      judgeId: RULE_JUDGE_ID,
      scores,
      winner: null,
      bonus: 0,
      reason: 'No pitch earned the bonus: none made a verified claim without a fabricated one or a manipulation flag.',
    };
  }
  const tied = scored.filter((s) => eligible(s) && s.seat.score === top);
  const winner =
    tied.length === 1 ? tied[0]! : tied[Math.floor(rng(state.config.seed, state.round, 'judge')() * tied.length)]!;
  let runnerUp: Scored | null = null;
  for (const s of scored) if (s !== winner && (!runnerUp || s.seat.score > runnerUp.seat.score)) runnerUp = s;
  const bonus = r4(
    clamp(JUDGE_BONUS_MIN + (winner.seat.score - (runnerUp?.seat.score ?? 0)) / 2, JUDGE_BONUS_MIN, JUDGE_BONUS_MAX),
  );
  const reason =
    `${nameOf(state, winner.seat.lab)} wins the pitch (${countsOf(winner)})` +
    (runnerUp
      ? `${tied.length > 1 ? ' on a seeded tie-break' : ''}; runner-up ${nameOf(state, runnerUp.seat.lab)} (${countsOf(runnerUp)}).`
      : ', the only pitch.');
  return { round: state.round, judgeId: RULE_JUDGE_ID, scores, winner: winner.seat.lab, bonus, reason };
}

/** The rule judge as a {@link SyncJudge}: judges `state.pitches` of the current round. */
export const ruleJudge: SyncJudge = {
  id: RULE_JUDGE_ID,
  judge: (state) => decide(state, state.pitches),
};
