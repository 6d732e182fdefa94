/**
 * Offer actions (docs/RULES.md §3.1–3.4): send, accept (trade execution), reject/withdraw, counter. An
 * offer moves blocks both ways and credits one way: `payment` from sender to recipient, or `ask` from
 * recipient to sender (selling for credits, rules v3).
 */
import type { Block, Lab, LabId, MatchState, Offer } from '../types.js';
import type { Draft } from '../mut.js';
import type { Action } from '../actions.js';
import { isLive, clamp, own, round2, round4 } from '../util.js';
import { holdingsOf, holdsLive, labBlocks, labJobs } from '../query.js';
import type { Holdings } from '../query.js';
import { positionTable, tradeGain } from '../valuation.js';
import { ownedJobsAndBlocks } from '../public.js';
import { exactValuation, rulesOf } from '../config.js';
import { addGrudge, isExploitative, offerWorth } from '../grudges.js';
import type { PositionTable } from '../valuation.js';
import { checkBlocks, checkDuplicates, fail, ok } from './common.js';
import type { Ctx, Failure, Outcome } from './common.js';

type SendAction = Extract<Action, { action_type: 'send_offer' }>;
type CounterAction = Extract<Action, { action_type: 'counter_offer' }>;
type OfferTerms = Pick<SendAction, 'block_ids' | 'requested_block_ids' | 'payment' | 'ask' | 'message' | 'expires_in'>;

/** Reputation change of both parties per executed trade (as the original: docs/RULES.md §A.1). */
export const TRADE_REPUTATION = 0.02;
/** Rules v3: a recipient whose gain from an offer is below this holds a grudge against the sender (§7.1 retaliatory). */
export const EXPLOITATIVE_GAIN = -5;

/** Validate an offer from `from` to `to` as send_offer (§3.1); null when valid. `payment`, `ask`: credits, 2 dp. */
function validateOffer(
  s: MatchState,
  from: LabId,
  to: LabId,
  t: OfferTerms,
  payment: number,
  ask: number,
): Outcome | null {
  const target = own(s.labs, to);
  if (!target) return fail('unknown_lab', `no lab ${to}`);
  if (to === from) return fail('self_trade', 'you cannot trade with yourself');
  if (target.finished) return fail('seat_finished', `${to} has finished and cannot trade`);
  const dup = checkDuplicates(t.block_ids, t.requested_block_ids);
  if (dup) return dup;
  if (payment > 0 && ask > 0)
    return fail(
      'pay_and_ask',
      `an offer pays (${payment}) or asks (${ask}) credits, not both: give the difference as one of them`,
    );
  if (t.block_ids.length === 0 && t.requested_block_ids.length === 0 && payment === 0 && ask === 0)
    return fail('empty_offer', 'an offer needs blocks, a payment or an ask');
  if (payment > s.labs[from]!.budget) return fail('budget_overspend', `payment ${payment} exceeds your budget`);
  return (
    checkBlocks(
      s,
      t.block_ids,
      from,
      'unowned_block',
      isLive,
      'unavailable_block',
      'only available or reserved blocks can be offered',
    ) ??
    checkBlocks(
      s,
      t.requested_block_ids,
      to,
      'target_does_not_own_block',
      isLive,
      'unavailable_block',
      'only live blocks can be requested',
    )
  );
}

/** Create a validated offer; records the recipient's grudge when the offer is exploitative for it. */
function createOffer(ctx: Ctx, to: LabId, t: OfferTerms, payment: number, ask: number, linked: string | null): string {
  const { d, lab } = ctx;
  const s = d.s;
  const id = `o_${s.nextOfferSeq}`;
  const offer: Offer = {
    id,
    from: lab,
    to,
    offeredBlockIds: t.block_ids.slice(),
    requestedBlockIds: t.requested_block_ids.slice(),
    payment,
    ask,
    message: t.message,
    roundCreated: s.round,
    expiresRound: Math.min(s.round + t.expires_in, s.params.maxRounds - 1),
    status: 'active',
    linkedOfferId: linked,
  };
  d.addOffer(offer);
  s.nextOfferSeq += 1;
  if (t.message.length > 0) d.addMessage({ round: s.round, from: lab, to, text: t.message, kind: 'offer' });
  if (rulesOf(s) >= 4) {
    // Rules v4: judged at the public reference price the sender can see (grudges.ts); a new exploitative
    // offer renews a grudge that holds.
    const requested = t.requested_block_ids.map((b) => s.blocks[b]!);
    const offered = t.block_ids.map((b) => s.blocks[b]!);
    if (isExploitative(offerWorth(requested, offered, payment, ask))) addGrudge(d, to, lab);
    ctx.created.offerId = id;
    return id;
  }
  // The recipient's gain matters only if it holds no grudge against the sender yet.
  const seat = s.seats[to]!;
  if (!seat.grudges.includes(lab)) {
    const received = t.block_ids.map((b) => s.blocks[b]!);
    // The recipient's jobs and blocks from the observation caches (per version of the records), when the
    // records are still the base state's (immutable; a draft's own copy may yet change).
    const owned = s.jobs === d.base.jobs && s.blocks === d.base.blocks ? ownedJobsAndBlocks(s, to) : undefined;
    const jobs = owned === undefined ? labJobs(s, to) : owned.jobs;
    const blocks = owned === undefined ? labBlocks(s, to) : owned.blocks;
    const gain = tradeGain(jobs, blocks, s.labs[to]!.budget, t.requested_block_ids, received, payment - ask, false);
    if (gain < EXPLOITATIVE_GAIN) addGrudge(d, to, lab);
  }
  ctx.created.offerId = id;
  return id;
}

export function sendOffer(ctx: Ctx, a: SendAction): Outcome {
  const payment = round2(a.payment);
  const ask = round2(a.ask);
  const err = validateOffer(ctx.d.s, ctx.lab, a.target_lab_id, a, payment, ask);
  if (err) return err;
  const id = createOffer(ctx, a.target_lab_id, a, payment, ask, null);
  return ok('offer_created', `offer ${id} sent to ${a.target_lab_id}`);
}

/** Common checks of accept/counter: the offer exists, is active, unexpired and addressed to the actor. */
function receivedOffer(s: MatchState, lab: LabId, offerId: string): Offer | Outcome {
  const o = own(s.offers, offerId);
  if (!o) return fail('unknown_offer', `no offer ${offerId}`);
  if (o.status !== 'active') return fail('inactive_offer', `${offerId} is ${o.status}`);
  if (o.expiresRound < s.round) return fail('expired_offer', `${offerId} expired after round ${o.expiresRound}`);
  if (o.to !== lab) return fail('not_offer_recipient', `${offerId} is not addressed to you`);
  return o;
}

const isOutcome = (x: Offer | Outcome): x is Outcome => 'ok' in x;

export function acceptOffer(ctx: Ctx, a: Extract<Action, { action_type: 'accept_offer' }>): Outcome {
  const { d, lab } = ctx;
  const o = receivedOffer(d.s, lab, a.offer_id);
  if (isOutcome(o)) return o;
  // The accepter pays what the sender asks: its own shortfall is its own invalid action (the offer stays).
  const ask = o.ask ?? 0;
  if (ask > d.s.labs[lab]!.budget)
    return fail('budget_overspend', `${o.id} asks ${ask} credits; your budget is ${d.s.labs[lab]!.budget}`);
  const err = executionError(d.s, o);
  if (err) {
    d.offer(o.id).status = 'invalid';
    return { ok: false, code: err.code, message: err.message, keep: true, noPenalty: true };
  }
  executeTrade(ctx, o);
  return ok('offer_accepted', `trade ${o.id} executed with ${o.from}`);
}

/** Re-check an offer at execution (§3.2): sender can pay, both sides' blocks still theirs and live. */
function executionError(s: MatchState, o: Offer): Failure | null {
  if (s.labs[o.from]!.budget < o.payment) return fail('budget_overspend', `${o.from} can no longer pay ${o.payment}`);
  for (let i = 0; i < o.offeredBlockIds.length; i++) {
    const id = o.offeredBlockIds[i]!;
    if (!holdsLive(s, id, o.from)) return fail('invalid_offered_block', `${id} is no longer available from ${o.from}`);
  }
  for (let i = 0; i < o.requestedBlockIds.length; i++) {
    const id = o.requestedBlockIds[i]!;
    if (!holdsLive(s, id, o.to)) return fail('invalid_requested_block', `${id} is no longer yours to give`);
  }
  return null;
}

/**
 * Execute a checked trade: money and blocks move (each remembers who traded it: tradedFrom), reputations
 * rise, both parties get deal_quality = clamp(gain / 100, −1, 1) from their own position. The part of a
 * gain that comes from making a job fundable is recorded on the job (tradeCredit) so that settlement can
 * take back what the job does not realise (no reward for unused capacity, §4.3). negotiation_efficiency
 * is realised later, when a traded block completes a job (settlement.ts).
 */
function executeTrade(ctx: Ctx, o: Offer): void {
  const { d } = ctx;
  const [from, to] = partiesOf(d, o.from, o.to);
  const exact = exactValuation(d.s);
  const beforeFrom = positionTable(from.jobs, from.blocks, d.s.labs[o.from]!.budget, exact);
  const beforeTo = positionTable(to.jobs, to.blocks, d.s.labs[o.to]!.budget, exact);
  if (o.payment > 0) {
    d.setBudget(o.from, d.s.labs[o.from]!.budget - o.payment);
    d.setBudget(o.to, d.s.labs[o.to]!.budget + o.payment);
  }
  const ask = o.ask ?? 0;
  if (ask > 0) {
    d.setBudget(o.to, d.s.labs[o.to]!.budget - ask);
    d.setBudget(o.from, d.s.labs[o.from]!.budget + ask);
  }
  for (let i = 0; i < o.offeredBlockIds.length; i++) transfer(ctx, o.offeredBlockIds[i]!, o.to);
  for (let i = 0; i < o.requestedBlockIds.length; i++) transfer(ctx, o.requestedBlockIds[i]!, o.from);
  raiseReputation(d.lab(o.from));
  raiseReputation(d.lab(o.to));
  d.offer(o.id).status = 'accepted';
  // Both positions after the trade, read before crediting: a party's credit touches only its own jobs.
  // The trade changed no job and only the traded blocks, so each party's holdings after it are its
  // holdings before, less the blocks it gave, plus (as they are now) the blocks it got: the same lists
  // as a new pass over the records would give, but for the order, which valuation does not depend on
  // (it sorts both lists by total orders: valuation.ts).
  const blocks = d.s.blocks;
  const afterFrom = positionTable(
    from.jobs,
    traded(from.blocks, o.offeredBlockIds, o.requestedBlockIds, blocks),
    d.s.labs[o.from]!.budget,
    exact,
  );
  const afterTo = positionTable(
    to.jobs,
    traded(to.blocks, o.requestedBlockIds, o.offeredBlockIds, blocks),
    d.s.labs[o.to]!.budget,
    exact,
  );
  credit(ctx, o.id, o.from, beforeFrom, afterFrom);
  credit(ctx, o.id, o.to, beforeTo, afterTo);
}

/**
 * The jobs and blocks of a trade's two parties: from the observation caches (public.ts) while the
 * draft's jobs and blocks records are still the base state's (immutable: a cache keyed by a record
 * that may yet change would go stale), else from one pass over each record.
 */
function partiesOf(d: Draft, a: LabId, b: LabId): [Holdings, Holdings] {
  const s = d.s;
  if (s.jobs === d.base.jobs && s.blocks === d.base.blocks) {
    const x = ownedJobsAndBlocks(s, a);
    const y = ownedJobsAndBlocks(s, b);
    if (x !== undefined && y !== undefined) return [x, y];
  }
  return holdingsOf(s, a, b);
}

/** A party's blocks after a trade: `blocks` less the ids it gave, plus those it got, read from `rec`. */
function traded(
  blocks: readonly Block[],
  gave: readonly string[],
  got: readonly string[],
  rec: Readonly<Record<string, Block>>,
): Block[] {
  const out: Block[] = [];
  for (let i = 0; i < blocks.length; i++) if (!gave.includes(blocks[i]!.id)) out.push(blocks[i]!);
  for (let i = 0; i < got.length; i++) out.push(rec[got[i]!]!);
  return out;
}

function raiseReputation(l: Lab): void {
  l.reputation = round4(clamp(l.reputation + TRADE_REPUTATION, 0, 1));
}

function transfer(ctx: Ctx, id: string, owner: LabId): void {
  const b = ctx.d.block(id);
  // A block traded back to the lab it came from is no longer traded capacity (ping-pong earns nothing).
  b.tradedFrom = b.tradedFrom === owner ? undefined : b.owner;
  b.owner = owner;
  b.status = 'available';
  b.reservedFor = null;
}

/** The part of job `id` in a position, 0 if the job is not pending there. */
function partOf(p: PositionTable, id: string): number {
  for (let i = 0; i < p.jobIds.length; i++) if (p.jobIds[i] === id) return p.values[i]!;
  return 0;
}

/** Credit a party's deal_quality for its gain and record the per-job parts on its jobs. */
function credit(ctx: Ctx, offerId: string, lab: LabId, before: PositionTable, after: PositionTable): void {
  const { d } = ctx;
  const gain = after.total - before.total;
  const scored = clamp(gain / 100, -1, 1);
  ctx.sink.add(lab, 'deal_quality', scored, { kind: 'trade', offerId, gain });
  // Job parts are recorded in the units actually credited (a clamped gain scales them down).
  const scale = gain === 0 ? 0 : (scored * 100) / gain;
  for (let i = 0; i < after.jobIds.length; i++) {
    const id = after.jobIds[i]!;
    const delta = after.values[i]! - partOf(before, id);
    if (Math.abs(delta) < 1e-9 || scale === 0) continue;
    const j = d.job(id);
    j.tradeCredit = round2((j.tradeCredit ?? 0) + delta * scale);
  }
}

export function rejectOffer(ctx: Ctx, a: Extract<Action, { action_type: 'reject_offer' }>): Outcome {
  const { d, lab } = ctx;
  const o = own(d.s.offers, a.offer_id);
  if (!o) return fail('unknown_offer', `no offer ${a.offer_id}`);
  if (o.status !== 'active') return fail('inactive_offer', `${o.id} is ${o.status}`);
  if (o.to === lab) {
    d.offer(o.id).status = 'rejected';
    return ok('offer_rejected', `offer ${o.id} rejected`);
  }
  if (o.from === lab) {
    d.offer(o.id).status = 'withdrawn';
    return ok('offer_withdrawn', `offer ${o.id} withdrawn`);
  }
  return fail('not_offer_party', `${o.id} is neither from nor to you`);
}

export function counterOffer(ctx: Ctx, a: CounterAction): Outcome {
  const { d, lab } = ctx;
  const o = receivedOffer(d.s, lab, a.offer_id);
  if (isOutcome(o)) return o;
  const payment = round2(a.payment);
  const ask = round2(a.ask);
  const err = validateOffer(d.s, lab, o.from, a, payment, ask);
  if (err) return err;
  d.offer(o.id).status = 'countered';
  const id = createOffer(ctx, o.from, a, payment, ask, o.id);
  return ok('counter_offer_created', `counter-offer ${id} sent to ${o.from} (answers ${o.id})`);
}
