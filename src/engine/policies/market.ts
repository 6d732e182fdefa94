/**
 * Trading helpers shared by the players: judging an incoming offer from the seat's own point of view
 * (docs/RULES.md §3.2, `tradeGain`), applying an accepted trade to the desk, and finding a block to buy
 * for a job that lacks GPU-hours. Pure. Indexed loops and short id lists, as in desk.ts (hot path).
 */
import type { Block, LabId, Offer } from '../types.js';
import type { PublicBlock, PublicLab } from '../views.js';
import { SPARE_HOUR_VALUE, positionValue, positionValueAfter, tradeCores, type ValuedBlock } from '../valuation.js';
import { type Desk, blockOf, hasId, isSpent, push, round2 } from './desk.js';
import type { JobPlan } from './plan.js';

/** Budget band thresholds (views.ts BudgetBand): a "low" lab has < 60 credits. */
const LOW_BAND_MAX = 60;

const NO_OFFERS: readonly Offer[] = Object.freeze([]);

/** Active offers addressed to this seat, oldest first (computed once per desk; shared: read-only). */
export function incoming(d: Desk): readonly Offer[] {
  if (d.incoming !== null) return d.incoming;
  if (d.obs.offers.length === 0) return (d.incoming = NO_OFFERS);
  const out: Offer[] = [];
  const offers = d.obs.offers;
  for (let i = 0; i < offers.length; i++) {
    const o = offers[i]!;
    if (o.to === d.me && o.status === 'active' && o.expiresRound >= d.round) out.push(o);
  }
  return (d.incoming = out);
}

/** Active offers this seat sent (computed once per desk; shared: read-only). */
export function outgoing(d: Desk): readonly Offer[] {
  if (d.outgoing !== null) return d.outgoing;
  const out: Offer[] = [];
  const offers = d.obs.offers;
  for (let i = 0; i < offers.length; i++) {
    const o = offers[i]!;
    if (o.from === d.me && o.status === 'active') out.push(o);
  }
  return (d.outgoing = out);
}

export function labInfo(d: Desk, id: LabId): PublicLab | undefined {
  const labs = d.obs.labs;
  for (let i = 0; i < labs.length; i++) if (labs[i]!.id === id) return labs[i];
  return undefined;
}

/** Other labs that still play (computed once per desk; do not mutate). */
export function others(d: Desk): PublicLab[] {
  if (d.others !== null) return d.others;
  const out: PublicLab[] = [];
  const labs = d.obs.labs;
  for (let i = 0; i < labs.length; i++) if (labs[i]!.id !== d.me && !labs[i]!.finished) out.push(labs[i]!);
  return (d.others = out);
}

/** The seat's own block `id` as this round's chosen actions leave it. */
export function ownBlock(d: Desk, id: string): Block | undefined {
  const blocks = d.blocks;
  for (let i = 0; i < blocks.length; i++) if (blocks[i]!.id === id) return blocks[i];
  return undefined;
}

/**
 * Whether accepting `o` can execute (docs/RULES.md §3.2 execution checks), as far as the seat can see:
 * the blocks it would give are its own, available and not spent this round; the blocks it would get are
 * the sender's and live; a large payment from a lab in the low budget band is doubted.
 */
export function executable(d: Desk, o: Offer): boolean {
  for (let i = 0; i < o.requestedBlockIds.length; i++) {
    const id = o.requestedBlockIds[i]!;
    const b = ownBlock(d, id);
    if (!b || b.status !== 'available' || isSpent(d, id)) return false;
  }
  for (let i = 0; i < o.offeredBlockIds.length; i++) {
    const b = blockOf(d, o.offeredBlockIds[i]!);
    if (!b || b.owner !== o.from || b.status !== 'available') return false;
  }
  // It must be able to pay what the sender asks (rules v3).
  if ((o.ask ?? 0) > d.budget) return false;
  const sender = labInfo(d, o.from);
  if (o.payment > LOW_BAND_MAX && sender?.budgetBand === 'low') return false;
  return true;
}

function sameBlocks(a: readonly Block[], b: readonly Block[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The seat's own blocks not spent this round, memoised on the desk with their valuation core
 * (`positionValue(jobs, live, 0)`): many trades are valued from one position, which changes only when
 * blocks or spent do. The position value at the current budget is `posCore + budget`, the very sum
 * `positionValue` forms (valuation cores are never −0, so adding 0 first changes nothing).
 */
function position(d: Desk): Block[] {
  if (d.posBlocks !== d.blocks || d.posSpent !== d.spent.length) {
    d.posBlocks = d.blocks;
    d.posSpent = d.spent.length;
    const live: Block[] = [];
    for (let i = 0; i < d.blocks.length; i++) if (!isSpent(d, d.blocks[i]!.id)) live.push(d.blocks[i]!);
    // Spending other labs' blocks (a buy offer) leaves the position as it was: keep its valuation.
    if (!sameBlocks(live, d.posLive)) {
      d.posLive = live;
      d.posCore = NaN;
    }
  }
  return d.posLive;
}

/** The seat's position's valuation core (see {@link position}), valued now if it is not yet. */
function currentCore(d: Desk): number {
  const live = position(d);
  if (Number.isNaN(d.posCore)) d.posCore = positionValue(d.jobs, live, 0, d.exact);
  return d.posCore;
}

/**
 * Valuation core of the seat's position after a trade that gives `give` (own ids) and receives
 * `receive`: `positionValue(jobs, after, 0)`, which is valuation.ts `tradeGainFrom` with no budget, no
 * payment and nothing to subtract. Lets one trade be priced at several payments with one valuation
 * (see {@link gainAt}).
 */
export function tradeCore(d: Desk, give: readonly string[], receive: readonly ValuedBlock[]): number {
  const live = position(d);
  if (!Number.isNaN(d.posCore)) return positionValueAfter(d.jobs, live, 0, give, receive, d.exact);
  // The position is valued with the first trade (gainAt needs both), reading the jobs once for the two.
  const c = tradeCores(d.jobs, live, give, receive, d.exact);
  d.posCore = c.before;
  return c.after;
}

/**
 * The seat's gain (credits) from a trade with valuation core `core` (see {@link tradeCore}) and
 * `paymentIn` credits received: the same float operations as valuation.ts `tradeGainFrom`
 * (positionValue(after, budget + paymentIn) − positionValue(live, budget)).
 */
export function gainAt(d: Desk, core: number, paymentIn: number): number {
  return core + (d.budget + paymentIn) - (currentCore(d) + d.budget);
}

/** Credits the recipient of `o` receives on acceptance: its payment minus its ask (rules v3). */
export const netIn = (o: Offer): number => o.payment - (o.ask ?? 0);

/** The seat's own gain (credits) if it accepted `o` now. */
export function offerGain(d: Desk, o: Offer): number {
  const receive: PublicBlock[] = [];
  for (let i = 0; i < o.offeredBlockIds.length; i++) {
    const b = blockOf(d, o.offeredBlockIds[i]!);
    if (b !== undefined) receive.push(b);
  }
  return gainAt(d, tradeCore(d, o.requestedBlockIds, receive), netIn(o));
}

const NONE: readonly string[] = [];

/** Push accept_offer and apply the trade to the desk (blocks in/out, payment). */
export function accept(d: Desk, o: Offer): boolean {
  if (!push(d, { action_type: 'accept_offer', offer_id: o.id })) return false;
  const give = o.requestedBlockIds;
  const blocks: Block[] = [];
  for (let i = 0; i < d.blocks.length; i++) if (!hasId(give, d.blocks[i]!.id)) blocks.push(d.blocks[i]!);
  for (let i = 0; i < o.offeredBlockIds.length; i++) {
    const id = o.offeredBlockIds[i]!;
    const pb = blockOf(d, id);
    if (!pb) continue;
    // Written out: adding keys to a spread copy makes a slow dictionary-mode object in V8.
    blocks.push({
      id: pb.id,
      owner: d.me,
      gpuCount: pb.gpuCount,
      duration: pb.duration,
      gpuHours: pb.gpuHours,
      reliability: pb.reliability,
      energyCost: pb.energyCost,
      status: 'available',
      reservedFor: null,
      committedTo: null,
      usedFor: null,
      tradedFrom: undefined,
    });
    (d.changed ??= new Map()).set(id, { ...pb, owner: d.me, status: 'available' });
  }
  d.blocks = blocks;
  d.budget = round2(d.budget + netIn(o));
  return true;
}

/** Resale value of a block to a lab that has no job for it (valuation.ts SPARE_HOUR_VALUE × hours × reliability). */
export const spareValue = (b: { gpuHours: number; reliability: number }): number =>
  SPARE_HOUR_VALUE * b.gpuHours * b.reliability;

const BLOCK_ID = /\bb_s?\d+_\d+\b/g;

// Block ids named in each offer note, parsed once per text: a seat's notes stay among its visible
// messages for many rounds and are re-read by every buy decision. Keyed by the text itself (the ids are a
// function of it, so the cache can never change a result; a message record of the state keeps its text
// object, whose hash V8 keeps, so a lookup is cheap) rather than weakly by the message record: a WeakMap
// whose keys die as fast as the bench loop's states made coalition_market ≈ 2 % slower (weak entries
// burden the garbage collector). Cleared when full, so it stays bounded.
const NAMED_IDS_MAX = 1024;
const namedIds = new Map<string, readonly string[]>();

/** Block ids named in `text`, in order (as `text.match(BLOCK_ID)`; shared: do not mutate). */
function blockIdsIn(text: string): readonly string[] {
  let ids = namedIds.get(text);
  if (ids === undefined) {
    if (namedIds.size >= NAMED_IDS_MAX) namedIds.clear();
    ids = text.match(BLOCK_ID) ?? NONE;
    namedIds.set(text, ids);
  }
  return ids;
}

/**
 * How often this seat already bid for each block in earlier offers that are no longer active (rejected,
 * expired or countered): read from its own offer notes among its visible messages, which name the
 * blocks asked for. The seat's only memory of refusals, used to raise its price or look elsewhere.
 * Computed once per desk: do not mutate.
 */
export function pastBids(d: Desk): Map<string, number> {
  if (d.bids !== null) return d.bids;
  const active = askedFor(d);
  const out = new Map<string, number>();
  d.bids = out;
  const messages = d.obs.messages;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.from !== d.me || m.kind !== 'offer') continue;
    const ids = blockIdsIn(m.text);
    for (let k = 0; k < ids.length; k++) if (!hasId(active, ids[k]!)) out.set(ids[k]!, (out.get(ids[k]!) ?? 0) + 1);
  }
  return out;
}

/** Block ids this seat already asks for in its active offers (computed once per desk; do not mutate). */
export function askedFor(d: Desk): string[] {
  if (d.asked !== null) return d.asked;
  const out: string[] = [];
  const mine = outgoing(d);
  for (let i = 0; i < mine.length; i++)
    for (let k = 0; k < mine[i]!.requestedBlockIds.length; k++) out.push(mine[i]!.requestedBlockIds[k]!);
  return (d.asked = out);
}

/** True if an active outgoing offer already asks for blocks that would cover `p`'s deficit. */
export function alreadyBuying(d: Desk, p: JobPlan): boolean {
  const mine = outgoing(d);
  for (let i = 0; i < mine.length; i++) {
    const ids = mine[i]!.requestedBlockIds;
    let hours = 0;
    for (let k = 0; k < ids.length; k++) {
      const b = blockOf(d, ids[k]!);
      if (b && b.reliability >= p.job.minReliability) hours += b.gpuHours;
    }
    if (hours >= p.deficit) return true;
  }
  return false;
}
