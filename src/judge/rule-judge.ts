/**
 * The grounded rule judge `rule_judge_v2` (docs/RULES.md §6). It scores each seat's pitch by the seat's
 * true need and by the checkable claims of the pitch, checked against the state — never by wording:
 * keywords, capitals, padding, instructions and JSON verdicts inside a pitch are plain text and change
 * nothing (fixes Ref §6.5: keyword stuffing, wording over substance, no fact checking, injection).
 * Pure and deterministic: ties are broken by `rng(seed, round, 'judge')`.
 */
import type { JudgeDecision, JudgeSeatScore, LabId, MatchState, Pitch } from '../env/types';
import { extractClaims } from './claims';
import { type JobFacts, seatFacts } from './facts';
import { JUDGE_BONUS_MAX, type SyncJudge } from './types';
import { verifyClaims } from './verify';
import { rng } from '../env/rng';

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
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Need of the argued jobs in [0, 1]: 0.4 × min(1, Σ unmet hours / 12) + 0.4 × deadline pressure
 * (max over jobs of 1 − roundsLeft / (maxRounds − 1), as Ref §6.3's P) + 0.2 × urgency
 * (max over jobs of (multiplier − 1) / 0.9). 0 when nothing is pending.
 */
export function needOf(jobs: readonly JobFacts[], maxRounds: number): number {
  if (jobs.length === 0) return 0;
  const hours = jobs.reduce((a, j) => a + j.unmetHours, 0);
  const span = Math.max(1, maxRounds - 1);
  const pressure = Math.max(...jobs.map((j) => clamp(1 - j.roundsLeft / span, 0, 1)));
  const urgency = Math.max(...jobs.map((j) => clamp((j.urgency - 1) / 0.9, 0, 1)));
  return 0.4 * Math.min(1, hours / NEED_HOURS_SCALE) + 0.4 * pressure + 0.2 * urgency;
}

interface Scored extends JudgeSeatScore {
  counts: { verified: number; fabricated: number; unsupported: number };
}

function score(state: MatchState, pitch: Pitch): Scored {
  const facts = seatFacts(state, pitch.lab);
  const v = verifyClaims(facts, extractClaims(pitch.text), pitch.jobIds);
  const nV = v.verified.length;
  const nF = v.fabricated.length;
  const nU = v.unsupported.length;
  const need = needOf(v.argued, facts.maxRounds);
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
  return {
    lab: pitch.lab,
    score: r4(clamp(total, 0, 1)),
    parts,
    reason: `${name}: ${plural(nV, 'verified claim')}, ${nF} fabricated, ${nU} unsupported`,
    counts: { verified: nV, fabricated: nF, unsupported: nU },
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
  const { counts: _counts, ...seat } = score(state, pitch);
  return seat;
}

/** The latest pitch of each unfinished seat for the state's round, in seat order. */
function judgedPitches(state: MatchState, pitches: readonly Pitch[]): Pitch[] {
  const latest = new Map<LabId, Pitch>();
  for (const p of pitches) {
    const lab = state.labs[p.lab];
    if (p.round !== state.round || !lab || lab.finished) continue;
    latest.set(p.lab, p);
  }
  return state.labIds.flatMap((id) => latest.get(id) ?? []);
}

/**
 * Judge a round's pitches. Winner = highest score (> 0: a pitch whose fabrications zeroed it wins
 * nothing); exact ties (4 dp) are broken by one draw of `rng(seed, round, 'judge')` among the tied
 * seats in seat order. bonus = clamp(0.05 + (winner − runner-up)/2, 0.05, JUDGE_BONUS_MAX), runner-up
 * 0 when only one seat pitched; 0 when there is no winner. Returns null when nobody pitched.
 */
export function decide(state: MatchState, pitches: readonly Pitch[]): JudgeDecision | null {
  const judged = judgedPitches(state, pitches);
  if (judged.length === 0) return null;
  const scored = judged.map((p) => score(state, p));
  const scores: JudgeSeatScore[] = scored.map(({ counts: _c, ...s }) => s);
  const base = { round: state.round, judgeId: RULE_JUDGE_ID, scores };
  // Only a pitch with at least one verified claim and none fabricated can win: a claim-free plea or a
  // pitch with any lie earns no bonus, however alone it is (docs/RULES.md §6).
  const eligible = scored.filter((s) => s.score > 0 && s.counts.verified > 0 && s.counts.fabricated === 0);
  if (eligible.length === 0) {
    return { ...base, winner: null, bonus: 0, reason: 'No pitch earned the bonus: none made a verified claim without a fabricated one.' };
  }
  const top = Math.max(...eligible.map((s) => s.score));
  const tied = eligible.filter((s) => s.score === top);
  const winner =
    tied.length === 1 ? tied[0]! : tied[Math.floor(rng(state.config.seed, state.round, 'judge')() * tied.length)]!;
  const others = scored.filter((s) => s !== winner);
  const runnerUp = others.reduce<Scored | null>((best, s) => (!best || s.score > best.score ? s : best), null);
  const bonus = r4(clamp(JUDGE_BONUS_MIN + (winner.score - (runnerUp?.score ?? 0)) / 2, JUDGE_BONUS_MIN, JUDGE_BONUS_MAX));
  const name = (lab: LabId) => state.labs[lab]?.publicName ?? lab;
  const counts = (s: Scored) =>
    `${plural(s.counts.verified, 'verified claim')}, ${s.counts.fabricated} fabricated`;
  const reason =
    `${name(winner.lab)} wins the pitch (${counts(winner)})` +
    (runnerUp ? `${tied.length > 1 ? ' on a seeded tie-break' : ''}; runner-up ${name(runnerUp.lab)} (${counts(runnerUp)}).` : ', the only pitch.');
  return { ...base, winner: winner.lab, bonus, reason };
}

/** The rule judge as a {@link SyncJudge}: judges `state.pitches` of the current round. */
export const ruleJudge: SyncJudge = {
  id: RULE_JUDGE_ID,
  judge: (state) => decide(state, state.pitches),
};
