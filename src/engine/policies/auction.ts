/**
 * Bidding in an emergency auction (docs/RULES.md §5.1, §7.0; rules v3): a scripted seat values the lot
 * from its own position (valuation.ts: what holding the block adds, with its jobs) and bids a share of
 * that value, once per auction, if the bid clears the reserve and its budget. Pure.
 */
import type { PublicBlock } from '../views.js';
import { type Desk, push, round2 } from './desk.js';
import { gainAt, tradeCore } from './market.js';

/** Credits the lot is worth to the seat: its position with the lot minus without it (payment 0). */
export function lotValue(d: Desk): number {
  const a = d.obs.auction;
  if (!a) return 0;
  // Written out (the lot's fields in order, then owner and status): adding keys to a spread copy makes a
  // slow dictionary-mode object in V8. Valuation reads only id, hours, reliability and status.
  const l = a.lot;
  const lot: PublicBlock = {
    id: l.id,
    gpuCount: l.gpuCount,
    duration: l.duration,
    gpuHours: l.gpuHours,
    reliability: l.reliability,
    energyCost: l.energyCost,
    owner: d.me,
    status: 'available',
  };
  return gainAt(d, tradeCore(d, [], [lot]), 0);
}

/**
 * Place one sealed bid of `share` × the lot's value (2 dp) when an auction is open this round and the
 * seat has not bid yet; the bid is reserved on the desk's budget. Returns whether it bid.
 */
export function bidInAuction(d: Desk, share: number): boolean {
  const a = d.obs.auction;
  if (!a || a.round !== d.round || (a.myBid !== undefined && a.myBid !== null)) return false;
  const amount = round2(Math.min(d.budget, lotValue(d) * share));
  if (!(amount >= a.reserve)) return false;
  if (!push(d, { action_type: 'bid', amount })) return false;
  d.budget = round2(d.budget - amount);
  return true;
}
