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
 * Never repeats itself (no spam): one pitch per round, alternating phrasing.
 */
import type { Block, Job } from '../types';
import type { Observation, PublicLab } from '../views';
import type { Policy, PolicyContext } from './types';
import { type Desk, type JobPlan, allocatePlanned, makeDesk, push, room } from './desk';
import { accept, alreadyBuying, buyGain, executable, findPurchase, incoming, offerGain, offerToBuy, others, overBid, pastBids, spareValue } from './market';
import { breachers, coalitionsEnabled, commit, contributed, invitations, liveCoalitions, propose } from './coalition';
import { factsPitch, parseQuotes, truthfulPitch } from './talk';

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

function buy(d: Desk, jobs: JobPlan[], maxBuys: number): void {
  const quotes = parseQuotes(d.obs.messages, d.me);
  const bad = breachers(d);
  const bids = pastBids(d);
  const tried = overBid(bids, MAX_BIDS);
  let n = 0;
  for (const p of jobs) {
    if (n >= maxBuys || !room(d)) return;
    const ahead = p.job.deadlineRound - d.round;
    if (p.complete || p.deficit <= 0 || ahead < 1 || alreadyBuying(d, p)) continue;
    const blocks = findPurchase(d, p, (lab) => bad.has(lab), tried);
    if (blocks.length === 0) continue;
    // Fair price: the seller's resale value of each block (or the price it quoted) plus one margin.
    let quoted = false;
    let pay = 0;
    for (const b of blocks) {
      const q = quotes.get(b.id);
      if (q && q.from === b.owner) quoted = true;
      pay += q && q.from === b.owner ? q.price : spareValue(b);
    }
    if (!quoted) pay += MARGIN + (ahead === 1 ? LAST_CHANCE : 0) + RAISE * Math.max(0, ...blocks.map((b) => bids.get(b.id) ?? 0));
    pay = Math.min(pay, Math.max(0, buyGain(d, blocks, 0) * MAX_SHARE));
    const ids = blocks.map((b) => b.id).join(', ');
    const hours = blocks.reduce((s, b) => s + b.gpuHours, 0);
    const text = `Offering ${pay.toFixed(2)} credits for ${ids} (${hours} GPU-hours) to complete job ${p.job.id}.`;
    if (offerToBuy(d, blocks, pay, MIN_GAIN, text)) n++;
  }
}

/** The job to argue for: the most urgent open job not being allocated this round. */
function pitchJob(d: Desk, jobs: JobPlan[]): Job | null {
  const open = jobs.filter((p) => !d.allocated.has(p.job.id) && p.need > 0);
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
  const name = d.obs.self.publicName;
  const job = pitchJob(d, jobs);
  if (job) {
    push(d, { action_type: 'make_pitch', message: truthfulPitch(name, job, d.round), job_ids: [job.id] });
    return;
  }
  const facts = [
    ...d.obs.self.blocks.map((b) => b.id).slice(0, 2),
    ...d.obs.offers.map((o) => o.id).slice(0, 1),
    ...liveCoalitions(d).map((c) => c.id).slice(0, 1),
  ];
  if (facts.length > 0) push(d, { action_type: 'make_pitch', message: factsPitch(name, facts, d.round), job_ids: [] });
}

/** The first own spare block still available and not spent this round (as a 0- or 1-element list). */
function spareOne(d: Desk, spareIds: readonly string[]): Block[] {
  const b = d.blocks.find((x) => x.status === 'available' && !d.spent.has(x.id) && spareIds.includes(x.id));
  return b ? [b] : [];
}

function coalitions(d: Desk, jobs: JobPlan[], spareIds: string[]): void {
  if (!coalitionsEnabled(d)) return;
  const bad = breachers(d);
  const short = jobs.some((p) => !p.complete && p.deficit > 0);
  for (const co of invitations(d)) {
    if (!room(d)) return;
    if (co.members.some((m) => bad.has(m))) continue;
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
  const asked = new Set(live.flatMap((c) => c.members));
  let partner: PublicLab | null = null;
  for (const l of others(d)) if (!bad.has(l.id) && !asked.has(l.id) && (!partner || l.reputation > partner.reputation)) partner = l;
  if (partner) propose(d, [partner.id], 'Pool spare GPU capacity: committed blocks go to whoever needs them for a deadline.');
}

/** The expert policy. */
export const ruleBasedExpert: Policy = (obs: Observation, _ctx: PolicyContext) => {
  if (obs.over || obs.self.finished) return [];
  const d = makeDesk(obs);
  acceptGood(d);
  const after = allocatePlanned(d, true);
  buy(d, after.jobs, 2);
  pitch(d, after.jobs);
  coalitions(d, after.jobs, after.spare.map((b) => b.id));
  return d.actions;
};
