/**
 * The five archetypes (docs/RULES.md §7.1) as one parameterised player (params.ts) with a few
 * archetype-specific moves. Every archetype is a full player: it decides offers addressed to it, buys
 * blocks its jobs need, allocates to its jobs before their deadlines and uses coalitions where allowed.
 *
 * Order of a round's actions (≤ 4): decide incoming offers → (deceptive) defect → allocate → coalitions
 * → buy → talk.
 */
import type { ArchetypeName, Block, LabId, Offer } from '../types';
import type { Observation } from '../views';
import type { Policy, PolicyContext } from './types';
import { type ArchetypeParams, archetypeParams } from './params';
import { type Desk, type JobPlan, allocatePlanned, isOpen, makeDesk, plan, push, room, round2 } from './desk';
import { accept, alreadyBuying, executable, findSeller, incoming, labInfo, offerGain, offerToBuy, others, overBid, pastBids, spareValue } from './market';
import { coalitionsEnabled, commit, committedOwn, contributed, defectFor, grudges, invitations, liveCoalitions, propose } from './coalition';
import { grudgeNotice, inflatedPitch, misleadingMessage, quote, truthfulPitch } from './talk';

interface Ctx {
  name: ArchetypeName;
  p: ArchetypeParams;
  rng: () => number;
  /** Labs this seat will not deal with (retaliatory grudges). */
  refused: Set<LabId>;
}

/** Rounds until the nearest open deadline (Infinity if none). */
function nearestDeadline(d: Desk): number {
  let best = Infinity;
  for (const j of d.jobs) if (isOpen(j, d.round)) best = Math.min(best, j.deadlineRound - d.round);
  return best;
}

/** Acceptance threshold now: deadline_panicked's falls by panicSlope per round inside its panic window. */
export function threshold(p: ArchetypeParams, roundsToDeadline: number): number {
  if (p.panicSlope <= 0 || roundsToDeadline > p.panicWindow) return p.acceptThreshold;
  return p.acceptThreshold - p.panicSlope * (p.panicWindow + 1 - Math.max(0, roundsToDeadline));
}

const trusted = (d: Desk, c: Ctx, lab: LabId): boolean => !c.refused.has(lab) && (labInfo(d, lab)?.reputation ?? 0) >= 1 - c.p.trust;

/** Accept, reject, counter or quote for each incoming offer. */
function decideOffers(d: Desk, c: Ctx): void {
  const offers = incoming(d);
  if (offers.length === 0) return;
  const thr = threshold(c.p, nearestDeadline(d));
  let rejections = 0;
  let changed = false;
  const scored = offers
    .map((o) => ({ o, gain: executable(d, o) ? offerGain(d, o) : -Infinity }))
    .sort((a, b) => b.gain - a.gain);
  for (const { o, gain } of scored) {
    if (!room(d)) return;
    if (c.refused.has(o.from)) {
      if (rejections++ < 1) push(d, { action_type: 'reject_offer', offer_id: o.id });
      continue;
    }
    if (gain === -Infinity || (changed && !executable(d, o))) continue;
    const fresh = changed ? offerGain(d, o) : gain; // the desk changes when it accepts
    if (fresh >= thr) {
      changed = accept(d, o) || changed;
    } else if (c.p.exploitGain > -Infinity && fresh < c.p.exploitGain) {
      retaliate(d, c, o);
    } else if (c.name === 'selfish' && rejections < 1) {
      rejections++;
      demandPayment(d, c, o, thr - fresh);
    }
  }
}

/** Retaliatory: counter an exploitative offer with a fair swap if one exists, else reject; then hold a grudge. */
function retaliate(d: Desk, c: Ctx, o: Offer): void {
  const mine = o.requestedBlockIds;
  const theirs = d.obs.blocks
    .filter((b) => b.owner === o.from && b.status === 'available')
    .sort((a, b) => b.gpuHours * b.reliability - a.gpuHours * a.reliability);
  const swap = theirs.find((b) => offerGain(d, { ...o, offeredBlockIds: [b.id], payment: 0 }) >= c.p.acceptThreshold);
  if (swap && mine.length > 0) {
    push(d, { action_type: 'counter_offer', offer_id: o.id, block_ids: [...mine], requested_block_ids: [swap.id], payment: 0, message: 'A fair swap or nothing.' });
  } else {
    push(d, { action_type: 'reject_offer', offer_id: o.id });
  }
  const target = labInfo(d, o.from)?.publicName ?? o.from;
  push(d, { action_type: 'send_message', target_lab_id: o.from, message: grudgeNotice(d.obs.self.publicName, target, `offer ${o.id} was exploitative`) });
  c.refused.add(o.from);
}

/** Selfish: reject an under-paying request for its blocks and quote the price it wants instead. */
function demandPayment(d: Desk, c: Ctx, o: Offer, shortfall: number): void {
  push(d, { action_type: 'reject_offer', offer_id: o.id });
  const blockId = o.requestedBlockIds[0];
  if (o.requestedBlockIds.length !== 1 || !blockId || o.offeredBlockIds.length > 0) return;
  const price = Math.ceil(o.payment + shortfall + 1);
  if (price <= 80) push(d, { action_type: 'send_message', target_lab_id: o.from, message: quote(d.obs.self.publicName, blockId, price) });
}

/** Own spare blocks still available and not spent this round. */
function spareBlocks(d: Desk, spareIds: readonly string[]): Block[] {
  return d.blocks.filter((b) => spareIds.includes(b.id) && b.status === 'available' && !d.spent.has(b.id));
}

/** Join invitations from trusted labs; cooperative proposes; contributors commit a spare block once. */
function coalitions(d: Desk, c: Ctx, spareIds: string[]): void {
  if (!coalitionsEnabled(d)) return;
  for (const co of invitations(d)) {
    if (!room(d) || !c.p.joinsCoalitions) break;
    if (!co.members.every((m) => m === d.me || trusted(d, c, m))) continue;
    // Deceptive commits its biggest block (it plans to take it back); others commit a spare block.
    const pickBlock =
      c.name === 'deceptive'
        ? d.blocks.filter((b) => b.status === 'available' && !d.spent.has(b.id)).sort((a, b) => b.gpuHours - a.gpuHours).slice(0, 1)
        : c.p.commitsBlocks
          ? spareBlocks(d, spareIds).slice(0, 1)
          : [];
    commit(d, co, pickBlock, pickBlock.length > 0 ? c.p.commitPayment : 0);
  }
  const live = liveCoalitions(d);
  if (c.p.proposesCoalitions && live.length === 0 && d.round <= 1 && room(d)) {
    const partners = others(d)
      .filter((l) => trusted(d, c, l.id))
      .sort((a, b) => b.reputation - a.reputation)
      .slice(0, 2)
      .map((l) => l.id);
    propose(d, partners, 'Pool spare GPU capacity so everyone meets their deadlines.');
  }
  for (const co of live) {
    const blocks = spareBlocks(d, spareIds).slice(0, 1);
    if (co.status === 'active' && c.p.commitsBlocks && !contributed(d, co) && blocks.length > 0 && room(d)) commit(d, co, blocks, c.p.commitPayment);
  }
}

/** Buy for the most urgent job with a deficit, within the archetype's risk window. */
function buy(d: Desk, c: Ctx, jobs: JobPlan[], spareIds: string[]): void {
  if (!c.p.buys) return;
  let tried: Set<string> | null = null;
  for (const p of jobs) {
    if (!room(d)) return;
    const ahead = p.job.deadlineRound - d.round;
    if (p.complete || p.deficit <= 0 || ahead < 1 || ahead > c.p.risk + 1 || alreadyBuying(d, p)) continue;
    tried ??= overBid(pastBids(d), 2); // refused twice: look elsewhere
    const block = findSeller(d, p, (lab) => !trusted(d, c, lab), tried);
    if (!block) continue;
    const near = ahead <= c.p.panicWindow;
    let payment = spareValue(block) + c.p.generosity + (near ? c.p.overpay : 0);
    const give: string[] = [];
    const swap = c.name === 'cooperative' ? d.blocks.find((b) => spareIds.includes(b.id) && b.status === 'available' && !d.spent.has(b.id)) : undefined;
    if (swap) {
      give.push(swap.id);
      payment = Math.max(1, payment - spareValue(swap));
    }
    const text = near && c.p.overpay > 0 ? `Urgent: our deadline is close, we pay extra for ${block.id}.` : `${block.id} for one of our jobs; fair price.`;
    if (offerToBuy(d, block, round2(payment), 0, text, give)) return;
  }
}

/** Pitch when a job is short and due soon; deceptive also spreads misleading public messages. */
function talk(d: Desk, c: Ctx, jobs: JobPlan[]): void {
  if (!room(d)) return;
  const name = d.obs.self.publicName;
  if (c.name === 'deceptive' && c.rng() < (1 - c.p.honesty) * 0.5) {
    push(d, { action_type: 'send_message', target_lab_id: null, message: misleadingMessage(name, d.round, c.rng()) });
  }
  const short = jobs.find((p) => !p.complete && p.deficit > 0 && p.job.deadlineRound - d.round === 1 && !d.allocated.has(p.job.id));
  if (!c.p.pitches || !short || !room(d)) return;
  const honest = c.rng() < c.p.honesty;
  const text = honest ? truthfulPitch(name, short.job, d.round) : inflatedPitch(name, short.job, d.round);
  push(d, { action_type: 'make_pitch', message: text, job_ids: [short.job.id] });
}

/** Build an archetype policy. */
export function archetype(name: ArchetypeName): Policy {
  return (obs: Observation, ctx: PolicyContext) => {
    if (obs.over || obs.self.finished) return [];
    const d = makeDesk(obs);
    const c: Ctx = { name, p: archetypeParams(name, ctx.holdout), rng: ctx.rng, refused: name === 'retaliatory' ? grudges(d) : new Set() };
    decideOffers(d, c);
    if (name === 'deceptive' && committedOwn(d).length > 0) {
      for (const p of plan(d, true).jobs) {
        if (!p.complete && p.job.deadlineRound - d.round <= 1 && defectFor(d, p)) break;
      }
    }
    // Deceptive commits before allocating: it pledges a block it needs and takes it back later.
    if (name === 'deceptive') coalitions(d, c, []);
    const after = allocatePlanned(d, true);
    const spareIds = after.spare.map((b) => b.id);
    if (name !== 'deceptive') coalitions(d, c, spareIds);
    buy(d, c, after.jobs, spareIds);
    talk(d, c, after.jobs);
    return d.actions;
  };
}
