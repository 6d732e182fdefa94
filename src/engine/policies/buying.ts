/**
 * Buying for a job that lacks GPU-hours (docs/RULES.md §3.2 offers): which blocks to ask for, from
 * whom, and the buy offer itself, sent only if the seat's own gain (`tradeGain`) clears its bar. Pure.
 */
import type { LabId } from '../types.js';
import type { PublicBlock } from '../views.js';
import { type Desk, hasId, idsOf, isSpent, push, round2 } from './desk.js';
import { type JobPlan, pick } from './plan.js';
import { askedFor, gainAt, others, tradeCore } from './market.js';

const NONE: readonly string[] = [];
const NO_BLOCKS: readonly PublicBlock[] = [];

/**
 * Whether block `b` (available, of a seller) can be bought for a job needing reliability ≥ `minRel`:
 * not asked for already, not spent or changed by this round's chosen actions, not in `skip`.
 */
function eligible(
  d: Desk,
  b: PublicBlock,
  minRel: number,
  asked: readonly string[],
  skip: readonly string[] | undefined,
): boolean {
  return (
    b.reliability >= minRel &&
    !hasId(asked, b.id) &&
    !isSpent(d, b.id) &&
    !(d.changed !== null && d.changed.has(b.id)) &&
    !(skip !== undefined && hasId(skip, b.id))
  );
}

/**
 * What to buy for `p`: from one other lab, the set of its available blocks (meeting the job's minimum
 * reliability) that covers the deficit with least waste; the seller whose set wastes fewest hours wins
 * (then lower energy). If no single lab can cover it, the largest eligible block on the market (the rest
 * is bought later or elsewhere). `exclude` filters sellers (grudges, distrust); blocks already asked for
 * and blocks in `skip` (bid for too often) are left out. Empty when nothing fits.
 */
export function findPurchase(
  d: Desk,
  p: JobPlan,
  exclude: (lab: LabId) => boolean,
  skip?: readonly string[],
): PublicBlock[] {
  const labs = others(d);
  const minRel = p.job.minReliability;
  const asked = askedFor(d);
  const market = d.obs.blocks;
  // One pass over the market keeps the blocks any seller could sell for this job, in market order (a
  // market holds a few dozen blocks and most are not for sale); the sellers then read only those. An index
  // by owner would be rebuilt for more than half of the calls (each chosen action makes a new list).
  let cands: PublicBlock[] | null = null;
  for (let i = 0; i < market.length; i++) {
    const b = market[i]!;
    if (b.status === 'available' && b.owner !== d.me && eligible(d, b, minRel, asked, skip)) (cands ??= []).push(b);
  }
  if (cands === null) return [];
  let best: PublicBlock[] | null = null;
  let bestHours = 0;
  let bestEnergy = 0;
  let largest: PublicBlock | null = null;
  // Sellers in seat order, each's blocks in market order: the first largest block wins ties.
  for (let s = 0; s < labs.length; s++) {
    const seller = labs[s]!.id;
    if (exclude(seller)) continue;
    let own: PublicBlock[] | null = null;
    let total = 0;
    for (let i = 0; i < cands.length; i++) {
      const b = cands[i]!;
      if (b.owner !== seller) continue;
      (own ??= []).push(b);
      total += b.gpuHours;
      if (!largest || b.gpuHours > largest.gpuHours) largest = b;
    }
    // A seller whose blocks together fall short cannot cover the deficit: pick would take them all and
    // fail (GPU-hours are whole numbers, so the margin only guards against float summation order).
    if (total + 1e-6 < p.deficit) continue;
    const { chosen, hours } = pick(own ?? NO_BLOCKS, p.deficit, minRel, NONE);
    if (hours < p.deficit) continue;
    let energy = 0;
    for (let i = 0; i < chosen.length; i++) energy += chosen[i]!.energyCost;
    if (!best || hours < bestHours || (hours === bestHours && energy < bestEnergy)) {
      best = chosen;
      bestHours = hours;
      bestEnergy = energy;
    }
  }
  return best ? best : largest ? [largest] : [];
}

/** The single block {@link findPurchase} would start with (archetypes buy one block at a time). */
export function findSeller(
  d: Desk,
  p: JobPlan,
  exclude: (lab: LabId) => boolean,
  skip?: readonly string[],
): PublicBlock | null {
  return findPurchase(d, p, exclude, skip)[0] ?? null;
}

/** Ids of blocks bid for at least `times` times already (see market.ts `pastBids`). */
export function overBid(bids: ReadonlyMap<string, number>, times: number): string[] {
  const out: string[] = [];
  for (const [id, n] of bids) if (n >= times) out.push(id);
  return out;
}

/**
 * Push a buy offer for `blocks` (all from one seller) paying `payment`, if the seat can afford it and
 * its own gain exceeds `minGain`. The promised payment is reserved on the desk (offers are not escrowed,
 * so a seat that promised its budget twice would fail one execution). `message` may be a function,
 * called only if the offer is made. `core` is the trade's valuation core (market.ts
 * `tradeCore(d, give, blocks)`) when the caller already has it.
 */
export function offerToBuy(
  d: Desk,
  blocks: PublicBlock | readonly PublicBlock[],
  payment: number,
  minGain: number,
  message: string | (() => string),
  give: readonly string[] = NONE,
  core?: number,
): boolean {
  const want = Array.isArray(blocks) ? (blocks as readonly PublicBlock[]) : [blocks as PublicBlock];
  const seller = want[0]?.owner;
  if (!seller) return false;
  for (let i = 1; i < want.length; i++) if (want[i]!.owner !== seller) return false;
  const pay = round2(Math.max(0, payment));
  if (pay > d.budget) return false;
  if (pay === 0 && give.length === 0) return false; // an offer asking for a block for nothing is not a bid
  if (gainAt(d, core ?? tradeCore(d, give, want), -pay) <= minGain) return false;
  const ok = push(d, {
    action_type: 'send_offer',
    target_lab_id: seller,
    block_ids: give.slice(),
    requested_block_ids: idsOf(want),
    payment: pay,
    message: typeof message === 'string' ? message : message(),
  });
  if (ok) {
    d.budget = round2(d.budget - pay);
    for (let i = 0; i < want.length; i++) d.spent.push(want[i]!.id);
    for (let i = 0; i < give.length; i++) d.spent.push(give[i]!);
  }
  return ok;
}
