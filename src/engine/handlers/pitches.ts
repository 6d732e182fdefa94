/**
 * Pitches (docs/RULES.md §3.5–3.6): public texts judged at round close. A seat's latest pitch of the
 * round (make_pitch or counter_pitch) replaces its earlier one.
 */
import type { Action } from '../actions.js';
import { PITCH_MIN } from '../actions.js';
import type { LabId, MatchState, Pitch, PitchFacts } from '../types.js';
import { own } from '../util.js';
import { rulesOf } from '../config.js';
import { pitchFactsOf } from '../judge/snapshot.js';
import { checkDuplicates, fail, ok, ownPendingJob } from './common.js';
import type { Ctx, Outcome } from './common.js';

type MakePitch = Extract<Action, { action_type: 'make_pitch' }>;
type CounterPitch = Extract<Action, { action_type: 'counter_pitch' }>;

function checkJobs(ctx: Ctx, jobIds: readonly string[]): Outcome | null {
  const dup = checkDuplicates(jobIds);
  if (dup) return dup;
  for (const id of jobIds) {
    const err = ownPendingJob(ctx.d.s, ctx.lab, id);
    if (err) return err;
  }
  return null;
}

/**
 * The state's pitch snapshots with `lab`'s replaced by `f`: a new record (copy-on-write), keys in seat order,
 * built by assignment rather than a spread with a computed key (slow, and a new object shape per seat).
 */
function withFacts(s: MatchState, lab: LabId, f: PitchFacts): Record<LabId, PitchFacts> {
  const prev = s.pitchFacts;
  const next: Record<LabId, PitchFacts> = {};
  const labIds = s.labIds;
  for (let i = 0; i < labIds.length; i++) {
    const l = labIds[i]!;
    if (l === lab) next[l] = f;
    else if (prev !== undefined && Object.hasOwn(prev, l)) next[l] = prev[l]!;
  }
  return next;
}

function record(ctx: Ctx, text: string, jobIds: readonly string[], replyTo: string | null): void {
  const { d, lab } = ctx;
  const s = d.s;
  const pitch: Pitch = { round: s.round, lab, text, jobIds: jobIds.slice(), replyTo };
  // Rules v4: the judge checks the pitch against the seat's facts now, not at the close (§6.1).
  if (rulesOf(s) >= 4) s.pitchFacts = withFacts(s, lab, pitchFactsOf(s, lab));
  // The seat's earlier pitch of the round (if any) is dropped, the others keep their order.
  const prev = s.pitches;
  const pitches: Pitch[] = [];
  for (let i = 0; i < prev.length; i++) if (prev[i]!.lab !== lab) pitches.push(prev[i]!);
  pitches.push(pitch);
  s.pitches = pitches;
  d.addMessage({ round: s.round, from: lab, to: null, text, kind: replyTo === null ? 'pitch' : 'counter_pitch' });
}

export function makePitch(ctx: Ctx, a: MakePitch): Outcome {
  if (a.message.length < PITCH_MIN) return fail('empty_pitch', `a pitch needs at least ${PITCH_MIN} characters`);
  const err = checkJobs(ctx, a.job_ids);
  if (err) return err;
  record(ctx, a.message, a.job_ids, null);
  return ok('pitch_recorded', 'pitch recorded for this round');
}

export function counterPitch(ctx: Ctx, a: CounterPitch): Outcome {
  if (a.message.length < PITCH_MIN) return fail('empty_pitch', `a pitch needs at least ${PITCH_MIN} characters`);
  const s = ctx.d.s;
  if (!own(s.labs, a.target_lab_id)) return fail('unknown_lab', `no lab ${a.target_lab_id}`);
  if (a.target_lab_id === ctx.lab || !s.pitches.some((p) => p.lab === a.target_lab_id))
    return fail('no_pitch_to_counter', `${a.target_lab_id} has not pitched this round`);
  const err = checkJobs(ctx, a.job_ids);
  if (err) return err;
  record(ctx, a.message, a.job_ids, a.target_lab_id);
  return ok('counter_pitch_recorded', `counter-pitch to ${a.target_lab_id} recorded`);
}
