/**
 * Trading helpers shared by the players: judging an incoming offer from the seat's own point of view
 * (docs/RULES.md §3.2, `tradeGain`), applying an accepted trade to the desk, and finding a block to buy
 * for a job that lacks GPU-hours. Pure.
 */
import type { LabId, Offer } from '../types';
import type { PublicBlock, PublicLab } from '../views';
import { SPARE_HOUR_VALUE, tradeGain } from '../valuation';
import { type Desk, type JobPlan, push, round2 } from './desk';

/** Budget band thresholds (views.ts BudgetBand): a "low" lab has < 60 credits. */
const LOW_BAND_MAX = 60;

/** Active offers addressed to this seat, oldest first. */
export const incoming = (d: Desk): Offer[] => d.obs.offers.filter((o) => o.to === d.me && o.status === 'active' && o.expiresRound >= d.round);

/** Active offers this seat sent. */
export const outgoing = (d: Desk): Offer[] => d.obs.offers.filter((o) => o.from === d.me && o.status === 'active');

export const labInfo = (d: Desk, id: LabId): PublicLab | undefined => d.obs.labs.find((l) => l.id === id);

/** Other labs that still play. */
export const others = (d: Desk): PublicLab[] => d.obs.labs.filter((l) => l.id !== d.me && !l.finished);

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
    const b = d.byId.get(id);
    if (!b || b.owner !== o.from || b.status !== 'available') return false;
  }
  const sender = labInfo(d, o.from);
  if (o.payment > LOW_BAND_MAX && sender?.budgetBand === 'low') return false;
  return true;
}

/** The seat's own gain (credits) if it accepted `o` now. */
export function offerGain(d: Desk, o: Offer): number {
  const receive = o.offeredBlockIds.map((id) => d.byId.get(id)).filter((b): b is PublicBlock => b !== undefined);
  return tradeGain(d.jobs, d.blocks.filter((b) => !d.spent.has(b.id)), d.budget, o.requestedBlockIds, receive, o.payment);
}

/** Gain of the seat from buying `blocks` for `payment` credits (and giving `give`). */
export function buyGain(d: Desk, blocks: readonly PublicBlock[], payment: number, give: readonly string[] = []): number {
  return tradeGain(d.jobs, d.blocks.filter((b) => !d.spent.has(b.id)), d.budget, give, blocks, -payment);
}

/** Push accept_offer and apply the trade to the desk (blocks in/out, payment). */
export function accept(d: Desk, o: Offer): boolean {
  if (!push(d, { action_type: 'accept_offer', offer_id: o.id })) return false;
  const give = new Set(o.requestedBlockIds);
  d.blocks = d.blocks.filter((b) => !give.has(b.id));
  for (const id of o.offeredBlockIds) {
    const pb = d.byId.get(id);
    if (!pb) continue;
    d.blocks.push({ ...pb, owner: d.me, status: 'available', reservedFor: null, committedTo: null, usedFor: null });
    d.byId.set(id, { ...pb, owner: d.me, status: 'available' });
  }
  d.budget = round2(d.budget + o.payment);
  return true;
}

/** Resale value of a block to a lab that has no job for it (valuation.ts SPARE_HOUR_VALUE × hours × reliability). */
export const spareValue = (b: { gpuHours: number; reliability: number }): number => SPARE_HOUR_VALUE * b.gpuHours * b.reliability;

/** Block ids this seat already asks for in its active offers. */
export function askedFor(d: Desk): Set<string> {
  const s = new Set<string>();
  for (const o of outgoing(d)) for (const id of o.requestedBlockIds) s.add(id);
  return s;
}

/** True if an active outgoing offer already asks for a block that would cover `p`'s deficit. */
export function alreadyBuying(d: Desk, p: JobPlan): boolean {
  for (const o of outgoing(d)) {
    for (const id of o.requestedBlockIds) {
      const b = d.byId.get(id);
      if (b && b.reliability >= p.job.minReliability && b.gpuHours >= p.deficit) return true;
    }
  }
  return false;
}

/**
 * The market block to buy for `p`: another lab's available block meeting the job's minimum reliability,
 * the smallest that covers the deficit (else the largest), cheapest energy on ties. `exclude` filters
 * sellers (grudges, distrust); blocks already asked for are skipped.
 */
export function findSeller(d: Desk, p: JobPlan, exclude: (lab: LabId) => boolean): PublicBlock | null {
  const asked = askedFor(d);
  const active = new Set(others(d).map((l) => l.id));
  let cover: PublicBlock | null = null;
  let largest: PublicBlock | null = null;
  for (const b of d.obs.blocks) {
    if (b.owner === d.me || b.status !== 'available' || b.reliability < p.job.minReliability) continue;
    if (!active.has(b.owner) || asked.has(b.id) || d.spent.has(b.id) || exclude(b.owner)) continue;
    if (b.gpuHours >= p.deficit) {
      if (!cover || b.gpuHours < cover.gpuHours || (b.gpuHours === cover.gpuHours && b.energyCost < cover.energyCost)) cover = b;
    } else if (!largest || b.gpuHours > largest.gpuHours) largest = b;
  }
  return cover ?? largest;
}

/**
 * Push a buy offer for `block` paying `payment`, if the seat can afford it and its own gain exceeds
 * `minGain`. The promised payment is reserved on the desk (offers are not escrowed, so a seat that
 * promised its budget twice would fail one execution).
 */
export function offerToBuy(d: Desk, block: PublicBlock, payment: number, minGain: number, message: string, give: readonly string[] = []): boolean {
  const pay = round2(Math.max(0, payment));
  if (pay > d.budget) return false;
  if (pay === 0 && give.length === 0) return false; // an offer asking for a block for nothing is not a bid
  if (buyGain(d, [block], pay, give) <= minGain) return false;
  const ok = push(d, {
    action_type: 'send_offer',
    target_lab_id: block.owner,
    block_ids: [...give],
    requested_block_ids: [block.id],
    payment: pay,
    message,
  });
  if (ok) {
    d.budget = round2(d.budget - pay);
    d.spent.add(block.id);
    for (const id of give) d.spent.add(id);
  }
  return ok;
}
