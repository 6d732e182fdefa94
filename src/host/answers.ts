/**
 * Scripted seats answer within the round: when a person sends an offer, a counter or a
 * direct message to a scripted seat, the seat decides at once with its own policy (accept, counter or
 * reject; an offer its policy does not take up is rejected) and says why in a short message in character.
 * The reason names no private value: it says whether the trade helps the seat's own position and which
 * of its blocks it will not part with, never by how much.
 */
import { MESSAGE_MAX, observe, rng, tradeGain, exactValuation } from '../engine/index.js';
import { ARCHETYPES, archetypeParams, getPolicy } from '../engine/policies/index.js';
import { MAX_PRICE, threshold } from '../engine/policies/archetypes.js';
import { isOpen } from '../engine/policies/desk.js';
import { exploitedText, grudgeNotice } from '../engine/policies/talk.js';
import { grudgeEnd, isExploitative, offerWorth } from '../engine/grudges.js';
import { EXPLOITATIVE_GAIN } from '../engine/handlers/offers.js';
import type { ArchetypeName, LabId, MatchState, Offer, PolicyName } from '../engine/types.js';

/** The actions a scripted seat takes in answer (its decision, then a direct message with the reason). */
export interface ScriptedAnswer {
  lab: LabId;
  actions: unknown[];
}

type Decision = { kind: 'accept' } | { kind: 'reject' } | { kind: 'counter'; action: Record<string, unknown> };

/** The policy's own decision on offer `o`, if its turn now would take one. */
function policyDecision(s: MatchState, lab: LabId, policy: PolicyName, o: Offer): Decision | null {
  let acts: unknown;
  try {
    acts = getPolicy(policy)(observe(s, lab), {
      rng: rng(s.config.seed, s.round, `answer:${lab}:${o.id}`),
      holdout: s.config.holdout,
    });
  } catch {
    return null;
  }
  if (!Array.isArray(acts)) return null;
  for (const a of acts as Record<string, unknown>[]) {
    if (a?.['offer_id'] !== o.id) continue;
    if (a['action_type'] === 'accept_offer') return { kind: 'accept' };
    if (a['action_type'] === 'reject_offer') return { kind: 'reject' };
    if (a['action_type'] === 'counter_offer') return { kind: 'counter', action: a };
  }
  return null;
}

type Terms = Pick<Offer, 'offeredBlockIds' | 'requestedBlockIds' | 'payment' | 'ask'>;

/** The trade's gain to the seat's own valuation of its position, credits (private: only its sign is said). */
function gainOf(s: MatchState, lab: LabId, o: Terms): number {
  const jobs = Object.values(s.jobs).filter((j) => j.owner === lab && j.outcome === 'pending');
  const blocks = Object.values(s.blocks).filter((b) => b.owner === lab);
  const receive = o.offeredBlockIds.map((id) => s.blocks[id]!).filter(Boolean);
  const money = o.payment - (o.ask ?? 0);
  return tradeGain(jobs, blocks, s.labs[lab]!.budget, o.requestedBlockIds, receive, money, exactValuation(s));
}

/** Whether the trade raises the seat's own valuation of its position (sign only; the amount stays private). */
function helps(s: MatchState, lab: LabId, o: Terms): boolean {
  return gainOf(s, lab, o) > 0;
}

/**
 * Whether the seat would pay anything at all for `ids` given to it: its gain from them for nothing clears
 * its archetype's haggling margin (its acceptance threshold now + 1 + markup, as its haggle prices a
 * counter: engine/policies/archetypes.ts), or is positive for a policy without one.
 */
function wouldPayFor(s: MatchState, lab: LabId, policy: PolicyName, ids: readonly string[]): boolean {
  const t = acceptance(s, lab, policy);
  const margin = t ? t.threshold + 1 + t.markup : 0;
  return gainOf(s, lab, { offeredBlockIds: [...ids], requestedBlockIds: [], payment: 0, ask: 0 }) > margin;
}

/** An archetype's acceptance threshold now (deadline_panicked's falls near a deadline) and haggling markup; null for other policies. */
function acceptance(s: MatchState, lab: LabId, policy: PolicyName): { threshold: number; markup: number } | null {
  if (!(ARCHETYPES as readonly string[]).includes(policy)) return null;
  const p = archetypeParams(policy as ArchetypeName, s.config.holdout);
  let nearest = Infinity;
  for (const j of Object.values(s.jobs))
    if (j.owner === lab && isOpen(j, s.round)) nearest = Math.min(nearest, j.deadlineRound - s.round);
  return { threshold: threshold(p, nearest), markup: p.markup };
}

/**
 * Whether an archetype would refuse to sell the blocks `o` asks for even for MAX_PRICE credits, the most
 * its haggle ever names (engine/policies/archetypes.ts, docs/RULES.md §7): then "ask again" is no advice,
 * and the answer says so with that public cap, never the block's worth to the seat. At that price the
 * policy accepts when its gain clears its threshold; below, only selfish rejects, the others leave the
 * offer lying and {@link answerOffer} accepts it if the gain is positive.
 */
function notForSale(s: MatchState, lab: LabId, policy: PolicyName, o: Offer): boolean {
  const t = acceptance(s, lab, policy);
  if (!t || o.offeredBlockIds.length > 0 || o.requestedBlockIds.length === 0) return false;
  const gain = gainOf(s, lab, {
    offeredBlockIds: [],
    requestedBlockIds: o.requestedBlockIds,
    payment: MAX_PRICE,
    ask: 0,
  });
  return gain < t.threshold && (policy === 'selfish' || gain <= 0);
}

/** A block of `lab`'s that its own pending jobs are using or could use (reliability high enough). */
function neededBlock(s: MatchState, lab: LabId, ids: readonly string[]): string | null {
  const jobs = Object.values(s.jobs).filter(
    (j) => j.owner === lab && j.outcome === 'pending' && j.allocatedHours < j.gpuHoursRequired,
  );
  for (const id of ids) {
    const b = s.blocks[id];
    if (b && jobs.some((j) => b.reliability >= j.minReliability)) return id;
  }
  return null;
}

/** Whether `blocks` of another seat, given for nothing, would raise `lab`'s valuation (sign only). */
function wouldUse(s: MatchState, lab: LabId, ids: readonly string[]): boolean {
  return helps(s, lab, { offeredBlockIds: [...ids], requestedBlockIds: [], payment: 0, ask: 0 });
}

/**
 * Why a retaliatory seat refuses every deal with `o`'s sender, in its grudge-notice format, or null when it
 * holds no grudge. The engine records the grudge when an exploitative offer is made (handlers/offers.ts)
 * or a coalition is breached (coalition-ops.ts), so the policy rejects without a word of why
 * (archetypes.ts `decideOffers`); a person told to "ask again" would never get a deal.
 */
function grudgeNote(s: MatchState, lab: LabId, policy: PolicyName, o: Offer): string | null {
  if (policy !== 'retaliatory' || !s.seats[lab]?.grudges.includes(o.from)) return null;
  const breach = Object.values(s.coalitions).find(
    (c) => c.members.includes(lab) && c.commitments[o.from]?.standing === 'breached',
  );
  const end = grudgeEnd(s, lab, o.from);
  if (end !== null) {
    // Rules v4: the test is public (reference prices) and the grudge lapses: say both.
    const facts = (ids: readonly string[]) => ids.flatMap((id) => (Object.hasOwn(s.blocks, id) ? [s.blocks[id]!] : []));
    const w = offerWorth(facts(o.requestedBlockIds), facts(o.offeredBlockIds), o.payment, o.ask ?? 0);
    const until = `until the end of round ${end + 1}`;
    const why = isExploitative(w)
      ? exploitedText(o.id, w, end)
      : breach
        ? `you breached coalition ${breach.id}; ${until}`
        : `an earlier offer of yours was exploitative; ${until}`;
    return grudgeNotice(s.labs[lab]!.publicName, s.labs[o.from]!.publicName, why);
  }
  const why = breach
    ? `you breached coalition ${breach.id}`
    : gainOf(s, lab, o) < EXPLOITATIVE_GAIN
      ? `offer ${o.id} was exploitative`
      : 'an earlier offer of yours was exploitative';
  return grudgeNotice(s.labs[lab]!.publicName, s.labs[o.from]!.publicName, why);
}

/** The reason, in the seat's voice, for a decision on `o` (no private number; prices only as offered). */
function reason(s: MatchState, lab: LabId, policy: PolicyName, o: Offer, d: Decision): string {
  if (d.kind === 'accept') return `Deal on ${o.id}: that works for us.`;
  const grudge = d.kind === 'reject' ? grudgeNote(s, lab, policy, o) : null;
  if (grudge) return `No to ${o.id}. ${grudge} Other labs may still deal with you.`;
  const keep = neededBlock(s, lab, o.requestedBlockIds);
  const ask = o.ask ?? 0;
  const theirs = o.offeredBlockIds.join(', ');
  // A sale the seat would not pay for at any price: asking less again cannot help, so it says so.
  const noPrice =
    d.kind === 'reject' &&
    !keep &&
    theirs !== '' &&
    ask > 0 &&
    o.requestedBlockIds.length === 0 &&
    !wouldPayFor(s, lab, policy, o.offeredBlockIds);
  const why = keep
    ? `we need ${keep} for our own jobs`
    : theirs && !wouldUse(s, lab, o.offeredBlockIds)
      ? `${theirs} does not fit our jobs`
      : noPrice
        ? `${theirs} adds too little to our jobs for us to pay anything for it`
        : theirs && ask > 0
          ? `${ask.toFixed(2)} credits is more than ${theirs} is worth to us`
          : 'it leaves us worse off than we are now';
  if (d.kind === 'counter') {
    // A counter that still hands over the block it "needs" is haggling over the price, and says so.
    const gives = (d.action['block_ids'] as unknown[] | undefined) ?? [];
    let price: string | null = null;
    if (keep && gives.includes(keep)) {
      if (o.offeredBlockIds.length > 0 || ask > 0) price = `what you offer for ${keep} is below what it is worth to us`;
      else
        price =
          o.payment > 0
            ? `${o.payment.toFixed(2)} credits is below what ${keep} is worth to us`
            : `we do not give ${keep} away`;
    }
    return `Not as offered (${o.id}): ${price ?? why}. Here is what we can do instead.`;
  }
  const hint = noPrice
    ? ' Try a lab that is short of capacity.'
    : keep && notForSale(s, lab, policy, o)
      ? ` Not for sale for ${MAX_PRICE} credits or less: try another lab's blocks.`
      : o.payment === 0 && ask === 0
        ? ' Add credits or better blocks and we can talk.'
        : ' Make it worth our while and ask again.';
  return `No to ${o.id}: ${why}.${hint}`;
}

/**
 * A counter that would have the sender give its blocks and pay on top ("pay us to take it") is no answer a
 * person can use: the seat declines instead (the policy's price logic values an unneeded block below zero).
 */
function sensible(o: Offer, d: Decision): Decision {
  if (d.kind !== 'counter') return d;
  const a = d.action as { block_ids?: unknown[]; ask?: number };
  const weGiveNothing = (a.block_ids?.length ?? 0) === 0;
  return o.offeredBlockIds.length > 0 && weGiveNothing && (a.ask ?? 0) > 0 ? { kind: 'reject' } : d;
}

/**
 * A counter that gives a block the seat's own pending jobs could use closes with this round (expires_in 0)
 * and says so: at the round close the seat plans again with its policy and may put that block to work,
 * which would kill the counter under the person's feet if it stayed open to a later round (found playing
 * market_round seed 4: "open until round 3", gone at the close). Other counters keep the policy's expiry.
 */
function honest(s: MatchState, lab: LabId, d: Decision): Decision {
  if (d.kind !== 'counter') return d;
  const gives = d.action['block_ids'];
  const used = Array.isArray(gives)
    ? neededBlock(
        s,
        lab,
        gives.filter((x): x is string => typeof x === 'string'),
      )
    : null;
  if (used === null) return d;
  const said = typeof d.action['message'] === 'string' ? d.action['message'].trim() : '';
  const note = `This counter closes with the round: after that we may put ${used} to work on our own jobs.`;
  const both = `${said} ${note}`;
  return {
    kind: 'counter',
    action: { ...d.action, expires_in: 0, message: said === '' || both.length > MESSAGE_MAX ? note : both },
  };
}

/**
 * The answer of scripted seat `lab` (policy `policy`) to offer `offerId` addressed to it, or null when the
 * offer is not active or not addressed to it. Deterministic: the policy's rng is seeded by match, round,
 * seat and offer.
 */
export function answerOffer(s: MatchState, lab: LabId, policy: PolicyName, offerId: string): ScriptedAnswer | null {
  const o = s.offers[offerId];
  if (!o || o.status !== 'active' || o.to !== lab) return null;
  const fromPolicy = policyDecision(s, lab, policy, o);
  // An offer the policy would leave lying is answered anyway: yes if it helps the seat, else no.
  const d: Decision = honest(
    s,
    lab,
    sensible(o, fromPolicy ?? (helps(s, lab, o) ? { kind: 'accept' } : { kind: 'reject' })),
  );
  const act =
    d.kind === 'accept'
      ? { action_type: 'accept_offer', offer_id: o.id }
      : d.kind === 'reject'
        ? { action_type: 'reject_offer', offer_id: o.id }
        : d.action;
  return {
    lab,
    actions: [{ action_type: 'send_message', target_lab_id: o.from, message: reason(s, lab, policy, o, d) }, act],
  };
}

/** A scripted seat's reply to a direct message: how to do business with it (it does not chat). */
export function answerMessage(lab: LabId, from: LabId): ScriptedAnswer {
  return {
    lab,
    actions: [
      {
        action_type: 'send_message',
        target_lab_id: from,
        message: 'We deal in offers: send us one with blocks and credits (offer … pay: or ask:) and we answer at once.',
      },
    ],
  };
}
