/**
 * Trading helpers shared by the players: judging an incoming offer from the seat's own point of view
 * (docs/RULES.md §3.2, `tradeGain`), applying an accepted trade to the desk, and finding a block to buy
 * for a job that lacks GPU-hours. Pure.
 */
import type { Block, LabId, Offer } from '../types';
import type { PublicBlock, PublicLab } from '../views';
import { SPARE_HOUR_VALUE, positionValue, tradeGainFrom } from '../valuation';
import { type Desk, type JobPlan, blockOf, pick, push, round2 } from './desk';

/** Budget band thresholds (views.ts BudgetBand): a "low" lab has < 60 credits. */
const LOW_BAND_MAX = 60;

/** Active offers addressed to this seat, oldest first (computed once per desk; do not mutate). */
export const incoming = (d: Desk): Offer[] =>
  (d.seen.incoming ??= d.obs.offers.filter((o) => o.to === d.me && o.status === 'active' && o.expiresRound >= d.round));

/** Active offers this seat sent (computed once per desk; do not mutate). */
export const outgoing = (d: Desk): Offer[] => (d.seen.outgoing ??= d.obs.offers.filter((o) => o.from === d.me && o.status === 'active'));

export const labInfo = (d: Desk, id: LabId): PublicLab | undefined => d.obs.labs.find((l) => l.id === id);

/** Other labs that still play (computed once per desk; do not mutate). */
export const others = (d: Desk): PublicLab[] => (d.seen.others ??= d.obs.labs.filter((l) => l.id !== d.me && !l.finished));

/**
 * Whether accepting `o` can execute (docs/RULES.md §3.2 execution checks), as far as the seat can see:
 * the blocks it would give are its own, available and not spent this round; the blocks it would get are
 * the sender's and live; a large payment from a lab in the low budget band is doubted.
 */
export function executable(d: Desk, o: Offer): boolean {
  for (const id of o.requestedBlockIds) {
    const b = d.blocks.find((x) => x.id === id);
    if (!b || b.status !== 'available' || d.spent.has(id)) return false;
  }
  for (const id of o.offeredBlockIds) {
    const b = blockOf(d, id);
    if (!b || b.owner !== o.from || b.status !== 'available') return false;
  }
  const sender = labInfo(d, o.from);
  if (o.payment > LOW_BAND_MAX && sender?.budgetBand === 'low') return false;
  return true;
}

/**
 * The seat's own blocks not spent this round and their position value at its budget, memoised on the
 * desk: many trades are valued from one position, which changes only when blocks, spent or budget do.
 */
function position(d: Desk): { live: Block[]; value: number } {
  const m = d.memo;
  if (m.blocks !== d.blocks || m.spent !== d.spent.size) {
    m.blocks = d.blocks;
    m.spent = d.spent.size;
    m.live = d.blocks.filter((b) => !d.spent.has(b.id));
    m.budget = NaN;
  }
  if (!Object.is(m.budget, d.budget)) {
    m.budget = d.budget;
    m.value = positionValue(d.jobs, m.live, d.budget);
  }
  return m;
}

/** The seat's own gain (credits) if it accepted `o` now. */
export function offerGain(d: Desk, o: Offer): number {
  const receive: PublicBlock[] = [];
  for (const id of o.offeredBlockIds) {
    const b = blockOf(d, id);
    if (b !== undefined) receive.push(b);
  }
  const p = position(d);
  return tradeGainFrom(p.value, d.jobs, p.live, d.budget, o.requestedBlockIds, receive, o.payment);
}

/** Gain of the seat from buying `blocks` for `payment` credits (and giving `give`). */
export function buyGain(d: Desk, blocks: readonly PublicBlock[], payment: number, give: readonly string[] = []): number {
  const p = position(d);
  return tradeGainFrom(p.value, d.jobs, p.live, d.budget, give, blocks, -payment);
}

/** Push accept_offer and apply the trade to the desk (blocks in/out, payment). */
export function accept(d: Desk, o: Offer): boolean {
  if (!push(d, { action_type: 'accept_offer', offer_id: o.id })) return false;
  const give = new Set(o.requestedBlockIds);
  d.blocks = d.blocks.filter((b) => !give.has(b.id));
  for (const id of o.offeredBlockIds) {
    const pb = blockOf(d, id);
    if (!pb) continue;
    // Written out: adding keys to a spread copy makes a slow dictionary-mode object in V8.
    d.blocks.push({
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
    });
    d.changed.set(id, { ...pb, owner: d.me, status: 'available' });
  }
  d.budget = round2(d.budget + o.payment);
  return true;
}

/** Resale value of a block to a lab that has no job for it (valuation.ts SPARE_HOUR_VALUE × hours × reliability). */
export const spareValue = (b: { gpuHours: number; reliability: number }): number => SPARE_HOUR_VALUE * b.gpuHours * b.reliability;

const BLOCK_ID = /\bb_s?\d+_\d+\b/g;

/**
 * How often this seat already bid for each block in earlier offers that are no longer active (rejected,
 * expired or countered): read from its own offer notes among its visible messages, which name the
 * blocks asked for. The seat's only memory of refusals, used to raise its price or look elsewhere.
 * Computed once per desk: do not mutate.
 */
export function pastBids(d: Desk): Map<string, number> {
  if (d.seen.bids !== null) return d.seen.bids;
  const active = askedFor(d);
  const out = new Map<string, number>();
  d.seen.bids = out;
  for (const m of d.obs.messages) {
    if (m.from !== d.me || m.kind !== 'offer') continue;
    for (const id of m.text.match(BLOCK_ID) ?? []) if (!active.has(id)) out.set(id, (out.get(id) ?? 0) + 1);
  }
  return out;
}

/** Block ids this seat already asks for in its active offers (computed once per desk; do not mutate). */
export function askedFor(d: Desk): Set<string> {
  if (d.seen.asked !== null) return d.seen.asked;
  const s = new Set<string>();
  d.seen.asked = s;
  for (const o of outgoing(d)) for (const id of o.requestedBlockIds) s.add(id);
  return s;
}

/** True if an active outgoing offer already asks for blocks that would cover `p`'s deficit. */
export function alreadyBuying(d: Desk, p: JobPlan): boolean {
  for (const o of outgoing(d)) {
    let hours = 0;
    for (const id of o.requestedBlockIds) {
      const b = blockOf(d, id);
      if (b && b.reliability >= p.job.minReliability) hours += b.gpuHours;
    }
    if (hours >= p.deficit) return true;
  }
  return false;
}

/**
 * What to buy for `p`: from one other lab, the set of its available blocks (meeting the job's minimum
 * reliability) that covers the deficit with least waste; the seller whose set wastes fewest hours wins
 * (then lower energy). If no single lab can cover it, the largest eligible block on the market (the rest
 * is bought later or elsewhere). `exclude` filters sellers (grudges, distrust); blocks already asked for
 * and blocks in `skip` (bid for too often) are left out. Empty when nothing fits.
 */
export function findPurchase(d: Desk, p: JobPlan, exclude: (lab: LabId) => boolean, skip?: ReadonlySet<string>): PublicBlock[] {
  const asked = askedFor(d);
  const bySeller = new Map<LabId, PublicBlock[]>();
  for (const l of others(d)) if (!exclude(l.id)) bySeller.set(l.id, []);
  for (const b of d.obs.blocks) {
    if (b.status !== 'available' || b.reliability < p.job.minReliability || asked.has(b.id) || d.spent.has(b.id) || d.changed.has(b.id) || skip?.has(b.id)) continue;
    bySeller.get(b.owner)?.push(b);
  }
  let best: { blocks: PublicBlock[]; hours: number; energy: number } | null = null;
  let largest: PublicBlock | null = null;
  for (const blocks of bySeller.values()) {
    for (const b of blocks) if (!largest || b.gpuHours > largest.gpuHours) largest = b;
    const { chosen, hours } = pick(blocks, p.deficit, p.job.minReliability, EMPTY);
    if (hours < p.deficit) continue;
    const energy = chosen.reduce((s, b) => s + b.energyCost, 0);
    if (!best || hours < best.hours || (hours === best.hours && energy < best.energy)) best = { blocks: chosen, hours, energy };
  }
  return best ? best.blocks : largest ? [largest] : [];
}

/** The single block {@link findPurchase} would start with (archetypes buy one block at a time). */
export function findSeller(d: Desk, p: JobPlan, exclude: (lab: LabId) => boolean, skip?: ReadonlySet<string>): PublicBlock | null {
  return findPurchase(d, p, exclude, skip)[0] ?? null;
}

/** Blocks bid for at least `times` times already (see {@link pastBids}). */
export function overBid(bids: ReadonlyMap<string, number>, times: number): Set<string> {
  const out = new Set<string>();
  for (const [id, n] of bids) if (n >= times) out.add(id);
  return out;
}

const EMPTY: readonly string[] = [];

/**
 * Push a buy offer for `blocks` (all from one seller) paying `payment`, if the seat can afford it and
 * its own gain exceeds `minGain`. The promised payment is reserved on the desk (offers are not escrowed,
 * so a seat that promised its budget twice would fail one execution).
 */
export function offerToBuy(d: Desk, blocks: PublicBlock | readonly PublicBlock[], payment: number, minGain: number, message: string, give: readonly string[] = []): boolean {
  const want = Array.isArray(blocks) ? (blocks as readonly PublicBlock[]) : [blocks as PublicBlock];
  const seller = want[0]?.owner;
  if (!seller || want.some((b) => b.owner !== seller)) return false;
  const pay = round2(Math.max(0, payment));
  if (pay > d.budget) return false;
  if (pay === 0 && give.length === 0) return false; // an offer asking for a block for nothing is not a bid
  if (buyGain(d, want, pay, give) <= minGain) return false;
  const ok = push(d, {
    action_type: 'send_offer',
    target_lab_id: seller,
    block_ids: [...give],
    requested_block_ids: want.map((b) => b.id),
    payment: pay,
    message,
  });
  if (ok) {
    d.budget = round2(d.budget - pay);
    for (const b of want) d.spent.add(b.id);
    for (const id of give) d.spent.add(id);
  }
  return ok;
}
