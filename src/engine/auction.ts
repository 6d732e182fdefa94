/**
 * Emergency auctions with sealed bids (docs/RULES.md §5.1, rules v3). An emergency_auction shock
 * scheduled for round r is announced when round r − 1 closes (at creation when r = 0): its lot (a block
 * drawn from rng(seed, r, 'shock:emergency_auction')) and reserve price become public, and every seat
 * may `bid` during round r. When round r closes the highest valid bid wins and pays its bid (burned);
 * ties go to the round's judge winner, then the most reputable, then seat order. Only the winner and
 * the price are published; the other bids are dropped with the auction.
 */
import type { Auction, AuctionLot, Block, LabId, MatchState, ShockEvent } from './types.js';
import type { Draft } from './mut.js';
import { rng } from './rng.js';
import { drawBlock } from './world.js';
import { round2 } from './util.js';

/** Lowest valid bid of an emergency auction, credits (the fixed price before rules v3). */
export const AUCTION_RESERVE = 8;

/** A fresh id `b_s<r>_<k>` not used by any block of `s` (k = 0 unless taken). */
function lotId(s: MatchState, r: number): string {
  let k = 0;
  while (Object.hasOwn(s.blocks, `b_s${r}_${k}`)) k += 1;
  return `b_s${r}_${k}`;
}

/** The auction of round `r`, if the schedule holds one: its lot is drawn now, with no bids yet. */
export function announcedAuction(s: MatchState, r: number): Auction | null {
  const schedule = s.shockSchedule;
  let due = false;
  for (let i = 0; i < schedule.length; i++)
    if (schedule[i]!.round === r && schedule[i]!.kind === 'emergency_auction') due = true;
  if (!due) return null;
  const b = drawBlock(rng(s.config.seed, r, 'shock:emergency_auction'), lotId(s, r), '');
  const lot: AuctionLot = {
    id: b.id,
    gpuCount: b.gpuCount,
    duration: b.duration,
    gpuHours: b.gpuHours,
    reliability: b.reliability,
    energyCost: b.energyCost,
  };
  return { round: r, lot, reserve: AUCTION_RESERVE, bids: {} };
}

/** The lot as a block owned by `owner` (available). */
export function lotBlock(lot: AuctionLot, owner: LabId): Block {
  return {
    id: lot.id,
    owner,
    gpuCount: lot.gpuCount,
    duration: lot.duration,
    gpuHours: lot.gpuHours,
    reliability: lot.reliability,
    energyCost: lot.energyCost,
    status: 'available',
    reservedFor: null,
    committedTo: null,
    usedFor: null,
    tradedFrom: undefined,
  };
}

/**
 * The winning bid among `bids`: valid bids are from unfinished seats, ≥ the reserve and ≤ the bidder's
 * budget now. Highest amount wins; ties: `judgeWinner`, then higher reputation, then seat order.
 */
export function winningBid(
  s: MatchState,
  a: Auction,
  judgeWinner: LabId | null,
): { lab: LabId; amount: number } | null {
  let best: { lab: LabId; amount: number } | null = null;
  for (let i = 0; i < s.labIds.length; i++) {
    const lab = s.labIds[i]!;
    if (!Object.hasOwn(a.bids, lab)) continue;
    const amount = a.bids[lab]!;
    const l = s.labs[lab]!;
    if (l.finished || amount < a.reserve || amount > l.budget) continue;
    if (best === null || amount > best.amount) {
      best = { lab, amount };
      continue;
    }
    if (amount < best.amount) continue;
    // A tie: the judge winner first, then reputation (seat order keeps the earlier seat).
    if (best.lab === judgeWinner) continue;
    if (lab === judgeWinner || l.reputation > s.labs[best.lab]!.reputation) best = { lab, amount };
  }
  return best;
}

/**
 * Sell the lot of the auction closing at round `r` (the emergency_auction shock; shocks.ts): the winner
 * pays its bid (burned) and receives the block. The public event names the winner and the price only.
 */
export function resolveAuction(d: Draft, r: number, judgeWinner: LabId | null): ShockEvent {
  const a = d.s.auction?.round === r ? d.s.auction : announcedAuction(d.s, r);
  d.s.auction = null;
  if (a === null)
    return {
      round: r,
      kind: 'emergency_auction',
      text: 'An emergency auction found no lot.',
      affectedLabs: [],
      blockIds: [],
    };
  const win = winningBid(d.s, a, judgeWinner);
  if (win === null) {
    return {
      round: r,
      kind: 'emergency_auction',
      text: `An emergency auction for ${a.lot.id} (${a.lot.gpuHours} GPU-hours) had no valid bid; the capacity was withdrawn.`,
      affectedLabs: [],
      blockIds: [],
    };
  }
  d.addBlock(lotBlock(a.lot, win.lab));
  d.setBudget(win.lab, d.s.labs[win.lab]!.budget - win.amount);
  d.s.ledger = { ...d.s.ledger, burned: round2(d.s.ledger.burned + win.amount) };
  const name = d.s.labs[win.lab]!.publicName;
  return {
    round: r,
    kind: 'emergency_auction',
    text: `${name} won the emergency auction for ${a.lot.id} (${a.lot.gpuHours} GPU-hours) with a sealed bid of ${win.amount.toFixed(2)} credits.`,
    affectedLabs: [win.lab],
    blockIds: [a.lot.id],
  };
}
