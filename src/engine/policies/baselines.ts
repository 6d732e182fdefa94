/**
 * The original's simple baselines, written against our rules (docs/RULES.md §7.3):
 * greedy_hoarder, always_accept, no_negotiation_allocator, base_instruct_naive. (random_validish is in
 * random.ts, rule_based_expert in expert.ts.)
 */
import type { Job, LabId, Message } from '../types.js';
import type { Observation, PublicBlock } from '../views.js';
import type { Policy, PolicyContext } from './types.js';
import { type Desk, isAllocated, isOpen, isSpent, makeDesk, push, room } from './desk.js';
import { allocate, allocatePlanned } from './plan.js';
import { accept, executable, incoming, others, outgoing } from './market.js';
import { naivePlea, speakerOf } from './talk.js';

/**
 * Greedy allocation (the original's greedy_hoarder): the first open job in list order that has any eligible
 * block gets *all* eligible blocks, needed or not.
 */
function greedyAllocate(d: Desk): void {
  for (const job of d.jobs) {
    if (!isOpen(job, d.round) || isAllocated(d, job.id)) continue;
    const blocks = d.blocks.filter(
      (b) =>
        (b.status === 'available' || b.status === 'reserved') &&
        !isSpent(d, b.id) &&
        b.reliability >= job.minReliability,
    );
    if (blocks.length > 0) {
      allocate(d, job, blocks);
      return;
    }
  }
}

/**
 * greedy_hoarder: never gives a block away. Accepts only gifts (offers requesting none of its blocks and no credits),
 * rejects requests for its blocks, reserves every free block for itself (reserved blocks cannot be
 * traded away; idle reservations cost at settlement), then allocates greedily.
 */
export const greedyHoarder: Policy = (obs: Observation) => {
  if (obs.over || obs.self.finished) return [];
  const d = makeDesk(obs);
  let rejected = false;
  for (const o of incoming(d)) {
    if (o.requestedBlockIds.length === 0 && (o.ask ?? 0) === 0 && executable(d, o)) accept(d, o);
    else if (!rejected) rejected = push(d, { action_type: 'reject_offer', offer_id: o.id });
  }
  greedyAllocate(d);
  const free = d.blocks.filter((b) => b.status === 'available' && !isSpent(d, b.id));
  if (free.length > 0) push(d, { action_type: 'reserve_capacity', block_ids: free.map((b) => b.id), job_id: null });
  return d.actions;
};

/** always_accept: accepts every incoming offer that can execute, whatever it costs, then allocates greedily. */
export const alwaysAccept: Policy = (obs: Observation) => {
  if (obs.over || obs.self.finished) return [];
  const d = makeDesk(obs);
  for (const o of incoming(d)) if (room(d) && executable(d, o)) accept(d, o);
  greedyAllocate(d);
  return d.actions;
};

/**
 * no_negotiation_allocator: allocates only, never trades, talks or reserves. Gives each job, earliest
 * deadline first, just enough eligible blocks to complete it (or, when due, what it has for partial credit).
 */
export const noNegotiationAllocator: Policy = (obs: Observation) => {
  if (obs.over || obs.self.finished) return [];
  const d = makeDesk(obs);
  allocatePlanned(d, false);
  return d.actions;
};

const POLITE = /urgent|please|fair|deadline/i;
const SURPLUS = /(\d+) spare GPU-hours/i;

/** The latest public message of another lab claiming spare GPU-hours. */
function lastClaim(d: Desk): Message | undefined {
  const messages = d.obs.messages;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.to === null && m.from !== d.me && SURPLUS.test(m.text)) return m;
  }
  return undefined;
}

/** The first of `owner`'s available blocks with the most GPU-hours. */
function biggestAvailable(blocks: readonly PublicBlock[], owner: LabId): PublicBlock | undefined {
  let best: PublicBlock | undefined;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    if (b.owner === owner && b.status === 'available' && (!best || b.gpuHours > best.gpuHours)) best = b;
  }
  return best;
}

/**
 * base_instruct_naive: an instruction model without judgement. Accepts offers that sound urgent or
 * polite whatever they cost; believes public claims of spare capacity and asks that lab for its biggest
 * block for a token payment; pitches a vague plea (no checkable facts) every round; allocates greedily.
 */
export const baseInstructNaive: Policy = (obs: Observation, _ctx: PolicyContext) => {
  if (obs.over || obs.self.finished) return [];
  const d = makeDesk(obs);
  for (const o of incoming(d)) if (room(d) && POLITE.test(o.message) && executable(d, o)) accept(d, o);
  greedyAllocate(d);
  const claim = lastClaim(d);
  if (claim && !outgoing(d).some((o) => o.to === claim.from) && others(d).some((l) => l.id === claim.from)) {
    const target = biggestAvailable(obs.blocks, claim.from);
    const pay = Math.min(5, d.budget);
    if (target && pay > 0) {
      push(d, {
        action_type: 'send_offer',
        target_lab_id: claim.from,
        requested_block_ids: [target.id],
        payment: pay,
        message: 'You said you have spare capacity, please share it with us.',
      });
    }
  }
  const firstJob: Job | undefined = d.jobs.find((j) => isOpen(j, d.round));
  if (firstJob) push(d, { action_type: 'make_pitch', message: naivePlea(speakerOf(d), d.round), job_ids: [] });
  return d.actions;
};
