/**
 * The judge bonus paid through realised value (docs/RULES.md §4.2, §6.5). A round's winning pitch does
 * not pay at once: its bonus is **held** on the open jobs the pitch argued for (split evenly, at most
 * {@link HELD_BONUS_CAP} per job over the match) and **paid** into judge_argument when such a job
 * settles, × the job's credit (1 completed, allocated/required partial, 0 missed). What is not held (no
 * open job argued for, cap reached) or not paid (missed, partial remainder) is **forfeited**. So talking
 * earns nothing unless the argued-for work is done.
 */
import type { Job, JobId, JudgeDecision, LabId, MatchState } from './types.js';
import type { Draft, RewardSink } from './mut.js';
import type { PitchBonusEvent } from './views.js';
import { arguedJobs } from './judge/argued.js';
import { JUDGE_BONUS_MAX } from './judge/types.js';
import { FABRICATION_SATURATION } from './judge/rule-judge.js';
import { round4 } from './util.js';

/**
 * What one fabricated claim in a judged pitch costs its seat (docs/RULES.md §6.6, rules v3): judge_argument
 * −0.05 per distinct fabricated claim, at most {@link FABRICATION_SATURATION} claims (−0.10) per pitch,
 * charged at the close that judges the pitch, whichever judge decided and whoever won.
 */
export const FABRICATION_COST = 0.05;

/**
 * Charge every judged pitch's fabricated claims (the decision's `parts.fabricatedClaims` = min(1, F / 2),
 * so F = its × 2): judge_argument −0.05 × F into `sink`, with source `fabricated_pitch`.
 */
export function chargeFabrication(decision: JudgeDecision | null, sink: RewardSink): void {
  if (decision === null) return;
  for (let i = 0; i < decision.scores.length; i++) {
    const x = decision.scores[i]!;
    const f = x.parts.fabricatedClaims;
    if (!(f > 0)) continue;
    const claims = Math.min(FABRICATION_SATURATION, Math.max(1, Math.round(f * FABRICATION_SATURATION)));
    sink.add(x.lab, 'judge_argument', round4(-FABRICATION_COST * claims), { kind: 'fabricated_pitch', claims });
  }
}

/** Most judge bonus one job can hold over a match: one full win's worth (docs/RULES.md §6.5). */
export const HELD_BONUS_CAP = JUDGE_BONUS_MAX;

/** The winner's latest pitch of the state's round (what the judge decided on), or null. */
function winningPitch(s: MatchState, winner: LabId) {
  let out = null;
  for (const p of s.pitches) if (p.lab === winner && p.round === s.round) out = p;
  return out;
}

/** `total` split evenly over `k` parts at 4 dp; the first part takes the rounding remainder. */
function split(total: number, k: number): number[] {
  const each = Math.floor((total / k) * 10_000) / 10_000;
  const out = new Array<number>(k).fill(each);
  out[0] = round4(total - each * (k - 1));
  return out;
}

/**
 * Hold `bonus` for `winner` on the open jobs its winning pitch argued for (state `d.s` = what the judge
 * saw). Appends the held / forfeited events to `log`.
 */
export function holdBonus(d: Draft, winner: LabId, bonus: number, log: PitchBonusEvent[]): void {
  const round = d.s.round;
  const pitch = winningPitch(d.s, winner);
  const argued = pitch ? arguedJobs(d.s, pitch) : { named: [], open: [] };
  if (argued.open.length === 0) {
    const reason = argued.named.length > 0 ? 'covered' : 'no_job';
    log.push({
      round,
      lab: winner,
      jobId: argued.named[0] ?? null,
      kind: 'forfeited',
      amount: round4(bonus),
      reason,
      named: argued.named.length > 0,
    });
    return;
  }
  const shares = split(bonus, argued.open.length);
  const named = argued.named.length > 0;
  for (let i = 0; i < argued.open.length; i++) {
    const id: JobId = argued.open[i]!;
    const held = d.s.jobs[id]!.heldBonus ?? 0;
    const add = round4(Math.max(0, Math.min(shares[i]!, HELD_BONUS_CAP - held)));
    if (add > 0) {
      d.job(id).heldBonus = round4(held + add);
      log.push({ round, lab: winner, jobId: id, kind: 'held', amount: add, reason: 'won', named });
    }
    const over = round4(shares[i]! - add);
    if (over > 0) log.push({ round, lab: winner, jobId: id, kind: 'forfeited', amount: over, reason: 'cap', named });
  }
}

/**
 * At a job's settlement (settlement.ts): pay its held bonus × credit into the owner's judge_argument;
 * the rest is forfeited. `round` is the round whose close (or finish) settles it.
 */
export function settleHeld(
  j: Job,
  credit: number,
  round: number,
  sink: RewardSink,
  log: PitchBonusEvent[] | undefined,
): void {
  const held = j.heldBonus ?? 0;
  if (held <= 0) return;
  const paid = round4(held * credit);
  if (paid > 0) sink.add(j.owner, 'judge_argument', paid, { kind: 'pitch_bonus', jobId: j.id, credit });
  if (!log) return;
  if (paid > 0)
    log.push({
      round,
      lab: j.owner,
      jobId: j.id,
      kind: 'paid',
      amount: paid,
      reason: credit >= 1 ? 'completed' : 'partial',
    });
  const lost = round4(held - paid);
  if (lost > 0)
    log.push({
      round,
      lab: j.owner,
      jobId: j.id,
      kind: 'forfeited',
      amount: lost,
      reason: paid > 0 ? 'partial' : 'missed',
    });
}

/**
 * The events `lab` may see: all of its own; of others, those the channel may see (§6.5): held or
 * forfeited-at-judging on jobs the pitch named, and payments or forfeits of settled jobs except partial
 * ones (their amounts reveal the job's allocated share).
 */
export function visiblePitchBonus(events: readonly PitchBonusEvent[], lab: LabId): PitchBonusEvent[] {
  return events.filter((e) => {
    if (e.lab === lab) return true;
    if (e.named !== undefined) return e.named && e.reason !== 'no_job';
    return e.reason !== 'partial';
  });
}
