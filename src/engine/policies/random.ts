/**
 * random_validish (docs/RULES.md §7.3; the original's only rejected or waited): one random action a
 * round, drawn with the seat's seeded rng among actions built from its observation. "Valid-ish": ids are
 * real and owned where the action needs it, but nothing checks reliability, value or timing, so some
 * actions fail (e.g. low_reliability) and most trades are poor.
 */
import type { ActionInput } from '../actions.js';
import type { Block, Coalition, Job, LabId, Offer } from '../types.js';
import type { Observation, PublicBlock, PublicLab } from '../views.js';
import type { Policy, PolicyContext } from './types.js';
import { isOpen } from './desk.js';

/**
 * `pickOne(xs.filter((x) => test(x, arg)), rng)` without building the filtered list: one draw (none when
 * nothing matches) picks the k-th match. Tests are module-level functions, so a call makes no closure.
 */
function pickWhere<T, A>(xs: readonly T[], test: (x: T, arg: A) => boolean, arg: A, rng: () => number): T | undefined {
  let n = 0;
  for (let i = 0; i < xs.length; i++) if (test(xs[i]!, arg)) n++;
  if (n === 0) return undefined;
  let k = Math.floor(rng() * n);
  for (let i = 0; i < xs.length; i++) {
    if (!test(xs[i]!, arg)) continue;
    if (k === 0) return xs[i];
    k--;
  }
  return undefined;
}

const toMe = (x: Offer, me: LabId): boolean => x.to === me;
const openAt = (j: Job, round: number): boolean => isOpen(j, round);
const hasStatus = (b: { status: string }, status: string): boolean => b.status === status;
const liveBlock = (b: Block): boolean => b.status === 'available' || b.status === 'reserved';
const othersAvailable = (b: PublicBlock, me: LabId): boolean => b.owner !== me && b.status === 'available';
const otherPlaying = (l: PublicLab, me: LabId): boolean => l.id !== me && !l.finished;
const joinable = (c: Coalition): boolean => c.status === 'proposed' || c.status === 'active';

/** Candidate builders; each returns an action or null when the observation offers none of that kind. */
type Builder = (obs: Observation, rng: () => number) => ActionInput | null;

const builders: Builder[] = [
  (o, r) => {
    const off = pickWhere(o.offers, toMe, o.self.id, r);
    return off ? { action_type: r() < 0.5 ? 'accept_offer' : 'reject_offer', offer_id: off.id } : null;
  },
  (o, r) => {
    const job = pickWhere(o.self.jobs, openAt, o.round, r);
    const block = pickWhere(o.self.blocks, liveBlock, null, r);
    return job && block ? { action_type: 'allocate_to_job', job_id: job.id, block_ids: [block.id] } : null;
  },
  (o, r) => {
    const mine = pickWhere(o.self.blocks, hasStatus, 'available', r);
    const theirs = pickWhere(o.blocks, othersAvailable, o.self.id, r);
    if (!theirs) return null;
    const payment = Math.min(o.self.budget, Math.round(r() * 1000) / 100);
    return {
      action_type: 'send_offer',
      target_lab_id: theirs.owner,
      block_ids: mine ? [mine.id] : [],
      requested_block_ids: [theirs.id],
      payment,
      message: 'Trade?',
    };
  },
  (o, r) => {
    const job = pickWhere(o.self.jobs, openAt, o.round, r);
    return job
      ? {
          action_type: 'make_pitch',
          message: `Please prioritise ${o.self.publicName}, job ${job.id} matters (${Math.floor(r() * 100)}).`,
          job_ids: [job.id],
        }
      : null;
  },
  (o, r) => ({
    action_type: 'send_message',
    target_lab_id: null,
    message: `${o.self.publicName} is open to trades (${Math.floor(r() * 1000)}).`,
  }),
  (o, r) => {
    const b = pickWhere(o.self.blocks, hasStatus, 'available', r);
    return b ? { action_type: 'reserve_capacity', block_ids: [b.id], job_id: null } : null;
  },
  (o, r) => {
    const b = pickWhere(o.self.blocks, hasStatus, 'reserved', r);
    return b ? { action_type: 'release_capacity', block_ids: [b.id] } : null;
  },
  (o, r) => {
    if (o.difficulty === 'easy') return null;
    const lab = pickWhere(o.labs, otherPlaying, o.self.id, r);
    return lab ? { action_type: 'form_coalition', target_lab_ids: [lab.id], message: 'Share capacity?' } : null;
  },
  (o, r) => {
    const c = pickWhere(o.myCoalitions, joinable, null, r);
    return c ? { action_type: 'commit_to_coalition', coalition_id: c.id, block_ids: [], payment: 0 } : null;
  },
  () => ({ action_type: 'wait' }),
];

/** One random valid-ish action (falls back to wait when the drawn kind has no candidate). */
export const randomValidish: Policy = (obs: Observation, ctx: PolicyContext) => {
  if (obs.over || obs.self.finished || obs.self.actionsLeftThisRound <= 0) return [];
  const b = builders[Math.floor(ctx.rng() * builders.length)]!;
  return [b(obs, ctx.rng) ?? { action_type: 'wait' }];
};
