/**
 * rule_based_expert (docs/RULES.md §7.3): plays our rules well.
 * 1. Accepts only offers with a positive own gain (> 0.5 credits, so the trade can count as mutual).
 * 2. Allocates exactly the blocks that complete a job (accumulating partial allocations, respecting the
 *    minimum reliability, using partners' pooled blocks), and a partial-credit job's blocks when it is due.
 * 3. Buys the missing hours of jobs due later with fair offers (seller's resale value + a margin, or the
 *    seller's quoted price) to labs that own eligible blocks.
 * 4. Pitches truthfully with checkable facts (job id, unmet and required hours, deadline, reliability).
 * 5. Joins and proposes coalitions only when they create value (a missing-hours job or a spare block),
 *    commits spare blocks, never breaches.
 * 6. Names its price (rules v3): an under-paying request for its blocks gets a counter-offer with an ask.
 * 7. Bids a share of the lot's value to it in an emergency auction (sealed bid, §5.1).
 * Never repeats itself (no spam): one pitch per round, alternating phrasing.
 */
import type { Block, Coalition, Job } from '../types.js';
import type { Observation, PublicBlock, PublicLab } from '../views.js';
import type { Policy, PolicyContext } from './types.js';
import { type Desk, blockOf, hasId, idsOf, isAllocated, isSpent, makeDesk, push, room } from './desk.js';
import { type JobPlan, allocatePlanned } from './plan.js';
import {
  accept,
  alreadyBuying,
  executable,
  gainAt,
  incoming,
  netIn,
  offerGain,
  others,
  pastBids,
  spareValue,
  tradeCore,
} from './market.js';
import { bidInAuction } from './auction.js';
import { findPurchase, offerToBuy, overBid } from './buying.js';
import {
  breachers,
  coalitionsEnabled,
  commit,
  contributed,
  invitations,
  liveCoalitions,
  propose,
} from './coalition.js';
import { factsPitch, joinList, parseQuotes, speakerOf, truthfulPitch } from './talk.js';

/** Minimum own gain (credits) for a trade: above the 0.5 "mutually beneficial" line (§3.2). */
const MIN_GAIN = 0.5;
/** Margin over the seller's resale value (credits): clears the selfish archetype's threshold of 8 (§7.1). */
const MARGIN = 9;
/** Extra margin when the job is due next round (last chance to buy). */
const LAST_CHANCE = 6;
/** Credits added per earlier refused bid for the same block (a refusal means the price was too low). */
const RAISE = 5;
/** Bids for one block before looking elsewhere (also keeps identical offers from repeating: spam, §4.1). */
const MAX_BIDS = 2;
/** Never pay more than this share of the trade's gain to us before payment. */
const MAX_SHARE = 0.6;

const NO_IDS: readonly string[] = [];

function acceptGood(d: Desk): void {
  for (let pass = 0; pass < 2 && room(d); pass++) {
    let best: { id: string; gain: number } | null = null;
    for (const o of incoming(d)) {
      if (!executable(d, o)) continue;
      const g = offerGain(d, o);
      if (g > MIN_GAIN && (!best || g > best.gain)) best = { id: o.id, gain: g };
    }
    const o = best && incoming(d).find((x) => x.id === best.id);
    if (!o || !accept(d, o)) return;
  }
}

/** Credits above its own break-even the expert asks when it names a price for blocks asked of it. */
const SELL_MARGIN = 4;
/** Highest price it names (credits); a block worth more to it than that is not for sale. */
const MAX_ASK = 60;
/** Share of an emergency-auction lot's value to its own position that it bids (§5.1). */
const BID_SHARE = 0.6;

/**
 * Name a price (rules v3): one offer a round that asks for its own available blocks but pays too little
 * is answered with a counter-offer on the same blocks asking the credits that give it MIN_GAIN +
 * SELL_MARGIN (at most MAX_ASK).
 */
function haggle(d: Desk): void {
  if (!room(d)) return;
  for (const o of incoming(d)) {
    if (o.requestedBlockIds.length === 0 || !executable(d, o) || o.requestedBlockIds.some((id) => isSpent(d, id)))
      continue;
    const g = offerGain(d, o);
    if (g > MIN_GAIN) continue;
    const ask = Math.ceil(netIn(o) + (MIN_GAIN - g) + SELL_MARGIN);
    if (ask <= 0 || ask > MAX_ASK) continue;
    const ok = push(d, {
      action_type: 'counter_offer',
      offer_id: o.id,
      block_ids: [...o.requestedBlockIds],
      requested_block_ids: [...o.offeredBlockIds],
      payment: 0,
      ask,
      message: `${d.obs.self.publicName} asks ${ask.toFixed(2)} credits for ${joinList(o.requestedBlockIds)}; accept this counter-offer if that works for you.`,
    });
    if (ok) for (const id of o.requestedBlockIds) d.spent.push(id);
    return;
  }
}

/** The note of a buy offer, written only if the offer is made (formatting numbers is not free). */
const buyText = (blocks: readonly PublicBlock[], pay: number, p: JobPlan) => (): string => {
  const ids = joinList(idsOf(blocks));
  const hours = blocks.reduce((s, b) => s + b.gpuHours, 0);
  return `Offering ${pay.toFixed(2)} credits for ${ids} (${hours} GPU-hours) to complete job ${p.job.id}.`;
};

/**
 * A predicate true for the labs of `bad` (made by a function: see archetypes.ts distrustOf, a named
 * closure costs a defineProperty call under tsx).
 */
function excluding(bad: readonly string[]): (lab: string) => boolean {
  return (lab) => hasId(bad, lab);
}

function buy(d: Desk, jobs: JobPlan[], maxBuys: number): void {
  // Read from the observation only once a job needs buying (most rounds none does).
  let quotes: Map<string, { price: number; from: string }> | null = null;
  let bad: string[] | null = null;
  let bids: Map<string, number> | null = null;
  let tried: string[] | null = null;
  let exclude: ((lab: string) => boolean) | null = null;
  let n = 0;
  for (let i = 0; i < jobs.length; i++) {
    const p = jobs[i]!;
    if (n >= maxBuys || !room(d)) return;
    const ahead = p.job.deadlineRound - d.round;
    if (p.complete || p.deficit <= 0 || ahead < 1 || alreadyBuying(d, p)) continue;
    bad ??= breachers(d);
    const past = (bids ??= pastBids(d));
    tried ??= overBid(past, MAX_BIDS);
    exclude ??= excluding(bad);
    const blocks = findPurchase(d, p, exclude, tried);
    if (blocks.length === 0) continue;
    quotes ??= parseQuotes(d.obs.messages, d.me);
    // Fair price: the seller's resale value of each block (or the price it quoted) plus one margin.
    let quoted = false;
    let pay = 0;
    for (const b of blocks) {
      const q = quotes.get(b.id);
      if (q && q.from === b.owner) quoted = true;
      pay += q && q.from === b.owner ? q.price : spareValue(b);
    }
    if (!quoted)
      pay += MARGIN + (ahead === 1 ? LAST_CHANCE : 0) + RAISE * Math.max(0, ...blocks.map((b) => past.get(b.id) ?? 0));
    // One valuation prices the trade at any payment (market.ts tradeCore/gainAt).
    const core = tradeCore(d, NO_IDS, blocks);
    pay = Math.min(pay, Math.max(0, gainAt(d, core, -0) * MAX_SHARE));
    if (offerToBuy(d, blocks, pay, MIN_GAIN, buyText(blocks, pay, p), NO_IDS, core)) n++;
  }
}

/**
 * A completable job worth holding back one round to pitch for it (docs/RULES.md §6.5: a won bonus is
 * held on an argued job that is still short of hours, and paid when it completes): the earliest such job
 * that its own blocks complete, is due after this round, holds no bonus yet, and whose blocks can all be
 * reserved for it (reserved for a job, they are shielded from capacity failures, §5).
 */
function deferTarget(d: Desk, all: { jobs: JobPlan[] }): string | null {
  if (d.actions.length + 2 > d.limit) return null;
  for (let i = 0; i < all.jobs.length; i++) {
    const p = all.jobs[i]!;
    if (!p.complete || p.chosen.length === 0 || p.job.deadlineRound <= d.round || (p.job.heldBonus ?? 0) > 0) continue;
    if (p.chosen.every((b) => b.owner === d.me && (b.status === 'available' || b.status === 'reserved')))
      return p.job.id;
  }
  return null;
}

/** Reserve the held-back job's blocks for it (those not already reserved for it) and pitch for it. */
function pitchDeferred(d: Desk, p: JobPlan): void {
  const free: string[] = [];
  for (let i = 0; i < p.chosen.length; i++) {
    const b = blockOf(d, p.chosen[i]!.id);
    if (b && b.status === 'available') free.push(b.id);
  }
  if (free.length > 0) push(d, { action_type: 'reserve_capacity', block_ids: free, job_id: p.job.id });
  push(d, { action_type: 'make_pitch', message: truthfulPitch(speakerOf(d), p.job, d.round), job_ids: [p.job.id] });
}

/** The job to argue for: the most urgent open job not being allocated this round. */
function pitchJob(d: Desk, jobs: JobPlan[]): Job | null {
  const open = jobs.filter((p) => !isAllocated(d, p.job.id) && p.need > 0);
  const short = open.find((p) => !p.complete) ?? open[0];
  return short?.job ?? null;
}

/**
 * One truthful pitch a round: the most urgent open job's facts; with no open job, the ids of its own
 * blocks and live offers and coalitions (true facts the judge can check; no numbers, so nothing can
 * read as a false need).
 */
function pitch(d: Desk, jobs: JobPlan[]): void {
  if (!room(d)) return;
  const job = pitchJob(d, jobs);
  if (job) {
    push(d, { action_type: 'make_pitch', message: truthfulPitch(speakerOf(d), job, d.round), job_ids: [job.id] });
    return;
  }
  const facts: string[] = [];
  const own = d.obs.self.blocks;
  for (let i = 0; i < own.length && i < 2; i++) facts.push(own[i]!.id);
  if (d.obs.offers.length > 0) facts.push(d.obs.offers[0]!.id);
  const live = liveCoalitions(d);
  if (live.length > 0) facts.push(live[0]!.id);
  if (facts.length > 0)
    push(d, { action_type: 'make_pitch', message: factsPitch(speakerOf(d), facts, d.round), job_ids: [] });
}

/** The first own spare block still available and not spent this round (as a 0- or 1-element list). */
function spareOne(d: Desk, spareIds: readonly string[]): Block[] {
  if (spareIds.length === 0) return [];
  for (let i = 0; i < d.blocks.length; i++) {
    const b = d.blocks[i]!;
    if (b.status === 'available' && !isSpent(d, b.id) && hasId(spareIds, b.id)) return [b];
  }
  return [];
}

/** Whether `lab` is a member of one of `coalitions` (already asked). */
function inAny(coalitions: readonly Coalition[], lab: string): boolean {
  for (let i = 0; i < coalitions.length; i++) if (hasId(coalitions[i]!.members, lab)) return true;
  return false;
}

function coalitions(d: Desk, jobs: JobPlan[], spareIds: string[]): void {
  if (!coalitionsEnabled(d)) return;
  const bad = breachers(d);
  const short = jobs.some((p) => !p.complete && p.deficit > 0);
  for (const co of invitations(d)) {
    if (!room(d)) return;
    if (co.members.some((m) => hasId(bad, m))) continue;
    const give = spareOne(d, spareIds);
    if (give.length > 0 || short) commit(d, co, give, 0);
  }
  const live = liveCoalitions(d);
  for (const co of live) {
    if (co.status !== 'active' || contributed(d, co) || !room(d)) continue;
    const give = spareOne(d, spareIds);
    if (give.length > 0) commit(d, co, give, 0);
  }
  // Propose only when a pool would help (we lack hours, or have a block others could use), and only
  // while no coalition of ours is active or freshly proposed; a proposal left unanswered for a round
  // means no, so the next most reputable lab is asked instead.
  if (d.round > 1 || !room(d) || live.some((c) => c.status === 'active' || c.roundCreated === d.round)) return;
  if (!short && spareOne(d, spareIds).length === 0) return;
  let partner: PublicLab | null = null;
  const labs = others(d);
  for (let i = 0; i < labs.length; i++) {
    const l = labs[i]!;
    if (!hasId(bad, l.id) && !inAny(live, l.id) && (!partner || l.reputation > partner.reputation)) partner = l;
  }
  if (partner)
    propose(d, [partner.id], 'Pool spare GPU capacity: committed blocks go to whoever needs them for a deadline.');
}

/** The expert policy. */
export const ruleBasedExpert: Policy = (obs: Observation, _ctx: PolicyContext) => {
  if (obs.over || obs.self.finished) return [];
  const d = makeDesk(obs);
  acceptGood(d);
  const deferred = { id: null as string | null };
  const after = allocatePlanned(d, true, Infinity, (all) => (deferred.id = deferTarget(d, all)));
  const held = deferred.id === null ? undefined : after.jobs.find((p) => p.job.id === deferred.id);
  if (held) pitchDeferred(d, held);
  bidInAuction(d, BID_SHARE);
  buy(d, after.jobs, 2);
  if (!held) pitch(d, after.jobs);
  coalitions(d, after.jobs, idsOf(after.spare));
  haggle(d);
  return d.actions;
};
