/**
 * Do-nothing probes (docs/RULES.md §7.4): non-negotiating policies that each exercise one reward column
 * without doing the work the column is meant to reward (never trade for a job, never allocate a block).
 * The reward is valid only if none of them beats random_validish (test/eval/probes.test.ts). Each is a
 * pure function of its own observation, like every scripted policy.
 */
import type { ActionInput } from '../actions.js';
import type { Job, ProbeName } from '../types.js';
import type { Observation } from '../views.js';
import type { Policy } from './types.js';

const active = (obs: Observation): boolean => !obs.over && !obs.self.finished && obs.self.actionsLeftThisRound > 0;

/** Unmet GPU-hours of a job. */
const unmet = (j: Job): number => Math.max(0, j.gpuHoursRequired - j.allocatedHours);

/** The seat's most urgent unmet job still actable (deadline ≥ round), by deadline then id; null if none. */
function neediestJob(obs: Observation): Job | null {
  let best: Job | null = null;
  for (const j of obs.self.jobs) {
    if (j.outcome !== 'pending' || j.deadlineRound < obs.round || unmet(j) === 0) continue;
    if (best === null || j.deadlineRound < best.deadlineRound) best = j;
  }
  return best;
}

/**
 * True facts about one unmet job, read from the seat's own observation: id, GPU-hours still needed,
 * deadline and reliability need (every one a verified claim for the rule judge, §6.2). Two phrasings
 * alternate by round, so no text repeats the previous one (spam, §4.1).
 */
export function jobFacts(name: string, j: Job, round: number): string {
  const rel = j.minReliability.toFixed(2);
  return round % 2 === 0
    ? `${name}: job ${j.id} still needs ${unmet(j)} GPU-hours, deadline round ${j.deadlineRound}, min reliability ${rel}.`
    : `Job ${j.id} of ${name} is due by round ${j.deadlineRound} and lacks ${unmet(j)} GPU-hours at reliability ${rel} or better.`;
}

/** pitch_only: every round, a truthful, specific pitch for its neediest job; nothing else. */
export const pitchOnly: Policy = (obs) => {
  if (!active(obs)) return [];
  const j = neediestJob(obs);
  return j
    ? [{ action_type: 'make_pitch', message: jobFacts(obs.self.publicName, j, obs.round), job_ids: [j.id] }]
    : [];
};

/** message_only: the same true facts as pitch_only, as a public message instead of a pitch. */
export const messageOnly: Policy = (obs) => {
  if (!active(obs)) return [];
  const j = neediestJob(obs);
  return j
    ? [{ action_type: 'send_message', target_lab_id: null, message: jobFacts(obs.self.publicName, j, obs.round) }]
    : [];
};

/** reserve_only: reserves every available block for its neediest job, and never uses them. */
export const reserveOnly: Policy = (obs) => {
  if (!active(obs)) return [];
  const free = obs.self.blocks.filter((b) => b.status === 'available').map((b) => b.id);
  if (free.length === 0) return [];
  const j = neediestJob(obs);
  return [{ action_type: 'reserve_capacity', block_ids: free, job_id: j ? j.id : null }];
};

/**
 * coalition_only: proposes a coalition with every other unfinished seat in round 0 and consents to every
 * coalition it is in with a 5-credit escrow (the least that used to qualify for coalition_reliability);
 * never commits a block, never uses a pooled one.
 */
export const coalitionOnly: Policy = (obs) => {
  if (!active(obs) || obs.difficulty === 'easy') return [];
  const out: ActionInput[] = [];
  const me = obs.self.id;
  if (obs.round === 0) {
    const targets = obs.labs.filter((l) => l.id !== me && !l.finished).map((l) => l.id);
    if (targets.length > 0)
      out.push({ action_type: 'form_coalition', target_lab_ids: targets, message: 'Pool capacity together.' });
  }
  for (const c of obs.myCoalitions) {
    if (out.length >= 3) break;
    if (c.status !== 'proposed' && c.status !== 'active') continue;
    const mine = c.commitments[me];
    if (mine && mine.escrow > 0) continue;
    if (obs.self.budget >= 5)
      out.push({ action_type: 'commit_to_coalition', coalition_id: c.id, block_ids: [], payment: 5 });
  }
  return out;
};

/** accept_only_gifts: accepts offers that ask nothing of it (no blocks requested, no credits asked); never allocates. */
export const acceptOnlyGifts: Policy = (obs) => {
  if (!active(obs)) return [];
  const out: ActionInput[] = [];
  for (const o of obs.offers) {
    if (
      o.to === obs.self.id &&
      o.status === 'active' &&
      o.requestedBlockIds.length === 0 &&
      (o.ask ?? 0) === 0 &&
      out.length < 4
    )
      out.push({ action_type: 'accept_offer', offer_id: o.id });
  }
  return out;
};

/** finish_at_once: ends its match in round 0 without doing anything. */
export const finishAtOnce: Policy = (obs) => (active(obs) ? [{ action_type: 'finish' }] : []);

/** The probes by name. */
export const PROBES: Readonly<Record<ProbeName, Policy>> = {
  pitch_only: pitchOnly,
  message_only: messageOnly,
  reserve_only: reserveOnly,
  coalition_only: coalitionOnly,
  accept_only_gifts: acceptOnlyGifts,
  finish_at_once: finishAtOnce,
};

/** One-line descriptions (policy lists, eval). */
export const PROBE_DESCRIPTIONS: Readonly<Record<ProbeName, string>> = {
  pitch_only: 'Probe: pitches true facts about its own unmet job every round; never trades or allocates.',
  message_only: 'Probe: posts the same true facts as a public message every round; nothing else.',
  reserve_only: 'Probe: reserves all its free blocks for its neediest job and never uses them.',
  coalition_only: 'Probe: proposes and joins coalitions with a 5-credit escrow; never commits or uses a block.',
  accept_only_gifts: 'Probe: accepts offers that ask nothing of it; never allocates.',
  finish_at_once: 'Probe: finishes in round 0.',
};
