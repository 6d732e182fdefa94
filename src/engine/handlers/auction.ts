/**
 * bid (docs/RULES.md §3.14, §5.1; rules v3): a sealed bid for the lot of the emergency auction open this
 * round. The bid is stored on the auction (private to the bidder); it replaces the seat's earlier bid.
 */
import type { Action } from '../actions.js';
import { round2 } from '../util.js';
import { fail, ok } from './common.js';
import type { Ctx, Outcome } from './common.js';

export function bid(ctx: Ctx, a: Extract<Action, { action_type: 'bid' }>): Outcome {
  const { d, lab } = ctx;
  const auction = d.s.auction;
  if (!auction || auction.round !== d.s.round) return fail('no_auction', 'no emergency auction is open this round');
  const amount = round2(a.amount);
  if (amount < auction.reserve)
    return fail(
      'bid_too_low',
      `the reserve price of ${auction.lot.id} is ${auction.reserve.toFixed(2)} credits; you bid ${amount.toFixed(2)}`,
    );
  const budget = d.s.labs[lab]!.budget;
  if (amount > budget)
    return fail('budget_overspend', `bid ${amount.toFixed(2)} exceeds your budget (${budget.toFixed(2)})`);
  const replaced = Object.hasOwn(auction.bids, lab);
  d.s.auction = { ...auction, bids: { ...auction.bids, [lab]: amount } };
  return ok(
    'bid_placed',
    `sealed bid of ${amount.toFixed(2)} credits for ${auction.lot.id}${replaced ? ' (replaces your earlier bid)' : ''}; the highest valid bid wins when the round closes`,
  );
}
