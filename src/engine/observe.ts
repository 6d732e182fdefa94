/**
 * Views of a match (docs/RULES.md §0): one seat's observation and the channel's public view. Neither
 * carries another seat's private values: jobs, exact budget, escrow, policy, shock schedule.
 *
 * Public lists (public.ts) are computed once per version of the records they derive from and shared,
 * frozen, between observations; a seat's view of the coalitions is worked out once per version of that
 * record (coalition-views.ts). An observation's own lists are fresh arrays.
 */
import type { Coalition, LabId, MatchState, Message, Offer } from './types.js';
import type { AuctionView, DemandLevel, Observation, PublicCoalition, PublicLab, PublicView } from './views.js';
import { activeOffers, demandOf, ownJobsAndBlocks, publicBlocks, publicCoalitions, publicLabs } from './public.js';
import { seatCoalitions } from './coalition-views.js';

export { budgetBand, publicBlocks, publicCoalition, publicLabs } from './public.js';

/** Messages an observation shows (20, as the original: docs/RULES.md §A.1); the public view shows more. */
export const OBSERVATION_MESSAGES = 20;
export const PUBLIC_VIEW_MESSAGES = 50;

/** Unmet hours of pending jobs ÷ max(1, hours of blocks not used/failed): < 0.7 low, < 1.4 medium, else high. */
export function demandLevel(s: MatchState, lab: LabId): DemandLevel {
  let need = 0;
  for (const id in s.jobs) {
    const j = s.jobs[id]!;
    if (j.owner === lab && j.outcome === 'pending') need += Math.max(0, j.gpuHoursRequired - j.allocatedHours);
  }
  let have = 0;
  for (const id in s.blocks) {
    const b = s.blocks[id]!;
    if (b.owner === lab && b.status !== 'used' && b.status !== 'failed') have += b.gpuHours;
  }
  return demandOf(need, have);
}

function visibleMessages(messages: readonly Message[], lab: LabId | null, limit: number): Message[] {
  const out: Message[] = [];
  for (let i = messages.length - 1; i >= 0 && out.length < limit; i--) {
    const m = messages[i]!;
    if (m.to === null || (lab !== null && (m.to === lab || m.from === lab))) out.push(m);
  }
  return out.reverse();
}

/**
 * One seat's observation: its own state in full, everything else public only. Read-only: it shares
 * immutable objects with the state. Throws on an unknown seat (a programming error, not user input).
 */
export function observe(s: MatchState, lab: LabId): Observation {
  if (!Object.hasOwn(s.labs, lab)) throw new Error(`observe: no seat ${lab}`);
  const me = s.labs[lab]!;
  const seat = s.seats[lab]!;
  const { jobs, blocks } = ownJobsAndBlocks(s, lab);
  const offers: Offer[] = [];
  const active = activeOffers(s);
  for (let k = 0; k < active.length; k++) {
    const o = active[k]!;
    if (o.from === lab || o.to === lab) offers.push(o);
  }
  const view = seatCoalitions(s, lab);
  const myCoalitions: Coalition[] = view.mine.length === 0 ? [] : view.mine.slice();
  const coalitions: PublicCoalition[] = [];
  if (view.others.length > 0) {
    const pub = publicCoalitions(s);
    for (let k = 0; k < view.others.length; k++) coalitions.push(pub[view.others[k]!]!);
  }
  const labs: PublicLab[] = [];
  const all = publicLabs(s);
  // Indexed: iterating a frozen array with for…of is slow in V8.
  for (let k = 0; k < all.length; k++) if (all[k]!.id !== lab) labs.push(all[k]!);
  return {
    task: s.config.task,
    difficulty: s.params.difficulty,
    round: s.round,
    maxRounds: s.params.maxRounds,
    over: s.over,
    self: {
      id: lab,
      publicName: me.publicName,
      budget: me.budget,
      reputation: me.reputation,
      finished: me.finished,
      jobs,
      blocks,
      escrow: Math.round(view.escrow * 100) / 100,
      actionsLeftThisRound: Math.max(0, s.config.maxActionsPerRound - seat.actionsThisRound),
      grudges: seat.grudges,
    },
    labs,
    blocks: publicBlocks(s),
    offers,
    myCoalitions,
    coalitions,
    messages: visibleMessages(s.messages, lab, OBSERVATION_MESSAGES),
    pitches: s.pitches,
    shockHistory: s.shockHistory,
    // Guarded: reading index −1 of an empty array is a slow named-property lookup in V8.
    lastJudgeDecision: s.judgeHistory.length > 0 ? (s.judgeHistory[s.judgeHistory.length - 1] ?? null) : null,
    cumulativeReward: seat.cumulativeReward,
    lastReward: seat.lastBreakdown,
    auction: auctionView(s, lab),
    rules: s.config.rules,
  };
}

/** The open emergency auction as `lab` sees it (its own bid only), or the public view of it (lab null). */
function auctionView(s: MatchState, lab: LabId | null): AuctionView | null {
  const a = s.auction;
  if (!a || a.round !== s.round || s.over) return null;
  if (lab === null) return { round: a.round, lot: a.lot, reserve: a.reserve };
  return { round: a.round, lot: a.lot, reserve: a.reserve, myBid: Object.hasOwn(a.bids, lab) ? a.bids[lab]! : null };
}

/** The match as the channel sees it: public facts, active offers, public messages, judge decisions. */
export function publicView(s: MatchState): PublicView {
  return {
    task: s.config.task,
    difficulty: s.params.difficulty,
    seed: s.config.seed,
    round: s.round,
    maxRounds: s.params.maxRounds,
    over: s.over,
    labs: publicLabs(s).map((l) => ({
      id: l.id,
      publicName: l.publicName,
      reputation: l.reputation,
      budgetBand: l.budgetBand,
      demandLevel: l.demandLevel,
      blockIds: l.blockIds,
      finished: l.finished,
      cumulativeReward: s.seats[l.id]!.cumulativeReward,
    })),
    blocks: publicBlocks(s),
    offers: [...activeOffers(s)],
    coalitions: [...publicCoalitions(s)],
    messages: visibleMessages(s.messages, null, PUBLIC_VIEW_MESSAGES),
    pitches: s.pitches,
    shockHistory: s.shockHistory,
    judgeHistory: s.judgeHistory,
    auction: auctionView(s, null),
  };
}
