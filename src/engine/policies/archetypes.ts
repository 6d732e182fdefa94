/**
 * The five archetypes (docs/RULES.md §7.1) as one parameterised player (params.ts) with a few
 * archetype-specific moves. Every archetype is a full player: it decides offers addressed to it, buys
 * blocks its jobs need, allocates to its jobs before their deadlines and uses coalitions where allowed.
 *
 * Order of a round's actions (≤ 4): decide incoming offers (accept, or haggle with a counter-offer at its
 * price) → (deceptive) defect → allocate → bid in an open emergency auction → coalitions → buy → talk.
 */
import type { ArchetypeName, Block, LabId, Offer } from '../types.js';
import type { Observation, PublicBlock, PublicLab } from '../views.js';
import type { Policy, PolicyContext } from './types.js';
import { type ArchetypeParams, archetypeParams } from './params.js';
import {
  type Desk,
  blockOf,
  hasId,
  idsOf,
  isAllocated,
  isOpen,
  isSpent,
  makeDesk,
  push,
  room,
  round2,
  sortSmall,
} from './desk.js';
import { type JobPlan, type Usable, allocatePlanned, plan } from './plan.js';
import {
  accept,
  alreadyBuying,
  executable,
  incoming,
  labInfo,
  netIn,
  offerGain,
  others,
  pastBids,
  spareValue,
} from './market.js';
import { bidInAuction } from './auction.js';
import { findSeller, offerToBuy, overBid } from './buying.js';
import {
  coalitionsEnabled,
  commit,
  committedOwn,
  contributed,
  defectFor,
  grudges,
  invitations,
  liveCoalitions,
  propose,
} from './coalition.js';
import {
  exploitedText,
  grudgeNotice,
  inflatedPitch,
  misleadingMessage,
  quote,
  speakerOf,
  truthfulPitch,
} from './talk.js';
import { GRUDGE_ROUNDS, isExploitative, offerWorth } from '../grudges.js';

interface Ctx {
  name: ArchetypeName;
  p: ArchetypeParams;
  rng: () => number;
  /** Labs this seat will not deal with (retaliatory grudges). */
  refused: LabId[];
}

/** Rounds until the nearest open deadline (Infinity if none). */
function nearestDeadline(d: Desk): number {
  let best = Infinity;
  for (let i = 0; i < d.jobs.length; i++)
    if (isOpen(d.jobs[i]!, d.round)) best = Math.min(best, d.jobs[i]!.deadlineRound - d.round);
  return best;
}

/** Acceptance threshold now: deadline_panicked's falls by panicSlope per round inside its panic window. */
export function threshold(p: ArchetypeParams, roundsToDeadline: number): number {
  if (p.panicSlope <= 0 || roundsToDeadline > p.panicWindow) return p.acceptThreshold;
  return p.acceptThreshold - p.panicSlope * (p.panicWindow + 1 - Math.max(0, roundsToDeadline));
}

const trusted = (d: Desk, c: Ctx, lab: LabId): boolean =>
  !hasId(c.refused, lab) && (labInfo(d, lab)?.reputation ?? 0) >= 1 - c.p.trust;

// Ties (and pairs of −Infinity, whose difference is NaN) keep offer order, as Array.prototype.sort does.
const byGainDesc = (a: { gain: number }, b: { gain: number }): number => b.gain - a.gain;

/** Accept, reject or counter (haggle: name its price) each incoming offer. */
function decideOffers(d: Desk, c: Ctx): void {
  const offers = incoming(d);
  if (offers.length === 0) return;
  const thr = threshold(c.p, nearestDeadline(d));
  let rejections = 0;
  let changed = false;
  const scored: { o: Offer; gain: number }[] = [];
  for (let i = 0; i < offers.length; i++)
    scored.push({ o: offers[i]!, gain: executable(d, offers[i]!) ? offerGain(d, offers[i]!) : -Infinity });
  sortSmall(scored, byGainDesc);
  for (let i = 0; i < scored.length; i++) {
    const { o, gain } = scored[i]!;
    if (!room(d)) return;
    if (hasId(c.refused, o.from)) {
      if (rejections++ < 1) push(d, { action_type: 'reject_offer', offer_id: o.id });
      continue;
    }
    if (gain === -Infinity || (changed && !executable(d, o))) continue;
    // Rules v4: an offer exploitative at the public reference price is refused whatever it is worth to the seat.
    if (d.rules >= 4 && c.p.exploitGain > -Infinity && exploitative(d, o)) {
      retaliate(d, c, o);
      continue;
    }
    const fresh = changed ? offerGain(d, o) : gain; // the desk changes when it accepts
    if (fresh >= thr) {
      changed = accept(d, o) || changed;
    } else if (d.rules < 4 && c.p.exploitGain > -Infinity && fresh < c.p.exploitGain) {
      retaliate(d, c, o);
    } else if (rejections < 1) {
      rejections++;
      haggle(d, c, o, thr - fresh);
    }
  }
}

/** The public facts of the blocks of `ids` this seat can see. */
function publicFacts(d: Desk, ids: readonly string[]): PublicBlock[] {
  const out: PublicBlock[] = [];
  for (let i = 0; i < ids.length; i++) {
    const b = blockOf(d, ids[i]!);
    if (b !== undefined) out.push(b);
  }
  return out;
}

/** Rules v4: whether `o` is exploitative for this seat at the public reference price (grudges.ts). */
function exploitative(d: Desk, o: Offer): boolean {
  return isExploitative(
    offerWorth(publicFacts(d, o.requestedBlockIds), publicFacts(d, o.offeredBlockIds), o.payment, o.ask ?? 0),
  );
}

/** Why `o` was exploitative, in terms its sender can check, and how long the grudge holds (v4). */
function exploitedWhy(d: Desk, o: Offer): string {
  const w = offerWorth(publicFacts(d, o.requestedBlockIds), publicFacts(d, o.offeredBlockIds), o.payment, o.ask ?? 0);
  return exploitedText(o.id, w, d.round + GRUDGE_ROUNDS - 1);
}

const byWorthDesc = (a: PublicBlock, b: PublicBlock): number => b.gpuHours * b.reliability - a.gpuHours * a.reliability;

/** Retaliatory: counter an exploitative offer with a fair swap if one exists, else reject; then hold a grudge. */
function retaliate(d: Desk, c: Ctx, o: Offer): void {
  const mine = o.requestedBlockIds;
  const theirs: PublicBlock[] = [];
  for (let i = 0; i < d.obs.blocks.length; i++) {
    const b = d.obs.blocks[i]!;
    if (b.owner === o.from && b.status === 'available') theirs.push(b);
  }
  sortSmall(theirs, byWorthDesc);
  const swap = theirs.find(
    (b) => offerGain(d, { ...o, offeredBlockIds: [b.id], payment: 0, ask: 0 }) >= c.p.acceptThreshold,
  );
  if (swap && mine.length > 0) {
    push(d, {
      action_type: 'counter_offer',
      offer_id: o.id,
      block_ids: [...mine],
      requested_block_ids: [swap.id],
      payment: 0,
      message: 'A fair swap or nothing.',
    });
  } else {
    push(d, { action_type: 'reject_offer', offer_id: o.id });
  }
  const target = labInfo(d, o.from)?.publicName ?? o.from;
  push(d, {
    action_type: 'send_message',
    target_lab_id: o.from,
    message: grudgeNotice(
      d.obs.self.publicName,
      target,
      d.rules >= 4 ? exploitedWhy(d, o) : `offer ${o.id} was exploitative`,
    ),
  });
  c.refused.push(o.from);
}

/** Highest price (credits) an archetype names when it haggles; above it, it just rejects. */
export const MAX_PRICE = 80;

/**
 * Haggle (rules v3): answer an offer below its threshold with a counter-offer on the same blocks at the
 * price that would make it acceptable — the credits it wants, `shortfall` + 1 plus its archetype's markup,
 * asked of the sender (or, when it would still pay, a lower payment). Selfish names the price it wants
 * (`<name> asks <p> credits for <block>`); a price above 80 credits, or an offer it cannot execute, is
 * rejected instead.
 */
function haggle(d: Desk, c: Ctx, o: Offer, shortfall: number): void {
  const want = Math.ceil(netIn(o) + shortfall + 1 + c.p.markup);
  const ask = want > 0 ? want : 0;
  const payment = want < 0 ? -want : 0;
  if (want > MAX_PRICE || payment > d.budget || (o.requestedBlockIds.length === 0 && o.offeredBlockIds.length === 0)) {
    if (c.name === 'selfish') push(d, { action_type: 'reject_offer', offer_id: o.id });
    return;
  }
  const blockId = o.requestedBlockIds[0];
  const text =
    ask > 0 && blockId !== undefined && o.requestedBlockIds.length === 1
      ? quote(d.obs.self.publicName, blockId, ask)
      : ask > 0
        ? `${d.obs.self.publicName} asks ${ask.toFixed(2)} credits for this trade.`
        : `${d.obs.self.publicName} would pay ${payment.toFixed(2)} credits for this trade.`;
  if (
    push(d, {
      action_type: 'counter_offer',
      offer_id: o.id,
      block_ids: [...o.requestedBlockIds],
      requested_block_ids: [...o.offeredBlockIds],
      payment,
      ask,
      message: text,
    })
  ) {
    for (let i = 0; i < o.requestedBlockIds.length; i++) d.spent.push(o.requestedBlockIds[i]!);
    d.budget = round2(d.budget - payment);
  }
}

/**
 * The first of the plan's own spare blocks (`spare`, in the desk's block order: plan.ts builds it from
 * them) still available and not spent this round, as a 0- or 1-element list.
 */
function firstSpare(d: Desk, spare: readonly Usable[]): Usable[] {
  for (let i = 0; i < spare.length; i++) {
    const b = spare[i]!;
    if (b.status === 'available' && !isSpent(d, b.id)) return [b];
  }
  return [];
}

/** The first own block still available and not spent with the most GPU-hours (as a 0- or 1-element list). */
function biggestFree(d: Desk): Block[] {
  let best: Block | null = null;
  for (let i = 0; i < d.blocks.length; i++) {
    const b = d.blocks[i]!;
    if (b.status === 'available' && !isSpent(d, b.id) && (!best || b.gpuHours > best.gpuHours)) best = b;
  }
  return best ? [best] : [];
}

const PROPOSAL = 'Pool spare GPU capacity so everyone meets their deadlines.';

const byReputationDesc = (a: PublicLab, b: PublicLab): number => b.reputation - a.reputation;

/** Up to two trusted labs still playing, most reputable first (ties: seat order). */
function partnersFor(d: Desk, c: Ctx): LabId[] {
  const labs = others(d);
  const ok: PublicLab[] = [];
  for (let i = 0; i < labs.length; i++) if (trusted(d, c, labs[i]!.id)) ok.push(labs[i]!);
  sortSmall(ok, byReputationDesc);
  return idsOf(ok.length > 2 ? ok.slice(0, 2) : ok);
}

/** Join invitations from trusted labs; cooperative proposes; contributors commit a spare block once. */
function coalitions(d: Desk, c: Ctx, spare: readonly Usable[]): void {
  if (!coalitionsEnabled(d)) return;
  if (d.obs.myCoalitions.length === 0) {
    // Nothing to join or commit to: only a proposal is possible (the general path below, shortened).
    if (c.p.proposesCoalitions && d.round <= 1 && room(d)) propose(d, partnersFor(d, c), PROPOSAL);
    return;
  }
  const invited = invitations(d);
  for (let i = 0; i < invited.length; i++) {
    const co = invited[i]!;
    if (!room(d) || !c.p.joinsCoalitions) break;
    if (!co.members.every((m) => m === d.me || trusted(d, c, m))) continue;
    // Deceptive commits its biggest block (it plans to take it back); others commit a spare block.
    const pickBlock: readonly { id: string }[] =
      c.name === 'deceptive' ? biggestFree(d) : c.p.commitsBlocks ? firstSpare(d, spare) : [];
    commit(d, co, pickBlock, pickBlock.length > 0 ? c.p.commitPayment : 0);
  }
  const live = liveCoalitions(d);
  if (c.p.proposesCoalitions && live.length === 0 && d.round <= 1 && room(d)) {
    propose(d, partnersFor(d, c), PROPOSAL);
  }
  for (let i = 0; i < live.length; i++) {
    const co = live[i]!;
    if (co.status !== 'active' || !c.p.commitsBlocks || contributed(d, co) || !room(d)) continue;
    const blocks = firstSpare(d, spare);
    if (blocks.length > 0) commit(d, co, blocks, c.p.commitPayment);
  }
}

/**
 * The sellers `c` does not trust, as a predicate. Made by a function rather than written inline as
 * `x ??= (lab) => …`: tsx (the bench and the CLIs) keeps function names by calling a defineProperty
 * helper on every named closure it creates, and this one would be created at every buy decision.
 */
function distrustOf(d: Desk, c: Ctx): (lab: LabId) => boolean {
  return (lab) => !trusted(d, c, lab);
}

/** Buy for the most urgent job with a deficit, within the archetype's risk window. */
function buy(d: Desk, c: Ctx, jobs: JobPlan[], spare: readonly Usable[]): void {
  if (!c.p.buys) return;
  let tried: string[] | null = null;
  let distrusted: ((lab: LabId) => boolean) | null = null;
  for (let i = 0; i < jobs.length; i++) {
    const p = jobs[i]!;
    if (!room(d)) return;
    const ahead = p.job.deadlineRound - d.round;
    if (p.complete || p.deficit <= 0 || ahead < 1 || ahead > c.p.risk + 1 || alreadyBuying(d, p)) continue;
    tried ??= overBid(pastBids(d), 2); // refused twice: look elsewhere
    distrusted ??= distrustOf(d, c);
    const block = findSeller(d, p, distrusted, tried);
    if (!block) continue;
    const near = ahead <= c.p.panicWindow;
    let payment = spareValue(block) + c.p.generosity + (near ? c.p.overpay : 0);
    const give: string[] = [];
    const swap = c.name === 'cooperative' ? firstSpare(d, spare)[0] : undefined;
    if (swap) {
      give.push(swap.id);
      payment = Math.max(1, payment - spareValue(swap));
    }
    const text =
      near && c.p.overpay > 0
        ? `Urgent: our deadline is close, we pay extra for ${block.id}.`
        : `${block.id} for one of our jobs; fair price.`;
    if (offerToBuy(d, block, round2(payment), 0, text, give)) return;
  }
}

/** The first job that lacks GPU-hours, is due next round and was not allocated this round. */
function shortJob(d: Desk, jobs: readonly JobPlan[]): JobPlan | undefined {
  for (let i = 0; i < jobs.length; i++) {
    const p = jobs[i]!;
    if (!p.complete && p.deficit > 0 && p.job.deadlineRound - d.round === 1 && !isAllocated(d, p.job.id)) return p;
  }
  return undefined;
}

/** Pitch when a job is short and due soon; deceptive also spreads misleading public messages. */
function talk(d: Desk, c: Ctx, jobs: JobPlan[]): void {
  if (!room(d)) return;
  const name = d.obs.self.publicName;
  if (c.name === 'deceptive' && c.rng() < (1 - c.p.honesty) * 0.5) {
    push(d, { action_type: 'send_message', target_lab_id: null, message: misleadingMessage(name, d.round, c.rng()) });
  }
  const short = shortJob(d, jobs);
  if (!c.p.pitches || !short || !room(d)) return;
  // A draw is in [0, 1), so an honesty of 1 needs none: the rng is this turn's own (made for this call,
  // and this is its last use), and its first draw is its costliest (it seeds the generator).
  const honest = c.p.honesty >= 1 || c.rng() < c.p.honesty;
  const text = honest
    ? truthfulPitch(speakerOf(d), short.job, d.round)
    : inflatedPitch(speakerOf(d), short.job, d.round);
  push(d, { action_type: 'make_pitch', message: text, job_ids: [short.job.id] });
}

/** Build an archetype policy. */
export function archetype(name: ArchetypeName): Policy {
  const train = archetypeParams(name, false);
  const holdout = archetypeParams(name, true);
  return (obs: Observation, ctx: PolicyContext) => {
    if (obs.over || obs.self.finished) return [];
    const d = makeDesk(obs);
    const c: Ctx = {
      name,
      p: ctx.holdout ? holdout : train,
      rng: ctx.rng,
      refused: name === 'retaliatory' ? grudges(d) : [],
    };
    decideOffers(d, c);
    if (name === 'deceptive' && committedOwn(d).length > 0) {
      for (const p of plan(d, true).jobs) {
        if (!p.complete && p.job.deadlineRound - d.round <= 1 && defectFor(d, p)) break;
      }
    }
    // Deceptive commits before allocating: it pledges a block it needs and takes it back later.
    if (name === 'deceptive') coalitions(d, c, []);
    const after = allocatePlanned(d, true);
    bidInAuction(d, c.p.bidShare);
    if (name !== 'deceptive') coalitions(d, c, after.spare);
    buy(d, c, after.jobs, after.spare);
    talk(d, c, after.jobs);
    return d.actions;
  };
}
