/**
 * random_validish (docs/RULES.md §7.3; Ref §8 named it but only rejected or waited): one random action a
 * round, drawn with the seat's seeded rng among actions built from its observation. "Valid-ish": ids are
 * real and owned where the action needs it, but nothing checks reliability, value or timing, so some
 * actions fail (e.g. low_reliability) and most trades are poor.
 */
import type { ActionInput } from '../actions.js';
import type { Observation } from '../views.js';
import type { Policy, PolicyContext } from './types.js';
import { isOpen } from './desk.js';

const pickOne = <T>(xs: readonly T[], rng: () => number): T | undefined => (xs.length ? xs[Math.floor(rng() * xs.length)] : undefined);

/** Candidate builders; each returns an action or null when the observation offers none of that kind. */
type Builder = (obs: Observation, rng: () => number) => ActionInput | null;

const builders: Builder[] = [
  (o, r) => {
    const off = pickOne(o.offers.filter((x) => x.to === o.self.id), r);
    return off ? { action_type: r() < 0.5 ? 'accept_offer' : 'reject_offer', offer_id: off.id } : null;
  },
  (o, r) => {
    const job = pickOne(o.self.jobs.filter((j) => isOpen(j, o.round)), r);
    const block = pickOne(o.self.blocks.filter((b) => b.status === 'available' || b.status === 'reserved'), r);
    return job && block ? { action_type: 'allocate_to_job', job_id: job.id, block_ids: [block.id] } : null;
  },
  (o, r) => {
    const mine = pickOne(o.self.blocks.filter((b) => b.status === 'available'), r);
    const theirs = pickOne(o.blocks.filter((b) => b.owner !== o.self.id && b.status === 'available'), r);
    if (!theirs) return null;
    const payment = Math.min(o.self.budget, Math.round(r() * 1000) / 100);
    return { action_type: 'send_offer', target_lab_id: theirs.owner, block_ids: mine ? [mine.id] : [], requested_block_ids: [theirs.id], payment, message: 'Trade?' };
  },
  (o, r) => {
    const job = pickOne(o.self.jobs.filter((j) => isOpen(j, o.round)), r);
    return job ? { action_type: 'make_pitch', message: `Please prioritise ${o.self.publicName}, job ${job.id} matters (${Math.floor(r() * 100)}).`, job_ids: [job.id] } : null;
  },
  (o, r) => ({ action_type: 'send_message', target_lab_id: null, message: `${o.self.publicName} is open to trades (${Math.floor(r() * 1000)}).` }),
  (o, r) => {
    const b = pickOne(o.self.blocks.filter((x) => x.status === 'available'), r);
    return b ? { action_type: 'reserve_capacity', block_ids: [b.id], job_id: null } : null;
  },
  (o, r) => {
    const b = pickOne(o.self.blocks.filter((x) => x.status === 'reserved'), r);
    return b ? { action_type: 'release_capacity', block_ids: [b.id] } : null;
  },
  (o, r) => {
    if (o.difficulty === 'easy') return null;
    const lab = pickOne(o.labs.filter((l) => l.id !== o.self.id && !l.finished), r);
    return lab ? { action_type: 'form_coalition', target_lab_ids: [lab.id], message: 'Share capacity?' } : null;
  },
  (o, r) => {
    const c = pickOne(o.myCoalitions.filter((x) => x.status === 'proposed' || x.status === 'active'), r);
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
