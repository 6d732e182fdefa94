/**
 * createMatch (docs/RULES.md §0–§1): parse the config, generate the world, make every job feasible,
 * schedule shocks, and set up the seats' bookkeeping.
 */
import type { LabId, MatchState, SeatStats } from './types.js';
import type { MatchConfigInput } from './config.js';
import { parseConfig } from './config.js';
import { generateWorld, shockScheduleFor, worldParams } from './world.js';
import { makeFeasible, marketHours, servableByReliability } from './feasibility.js';
import { ZERO_BREAKDOWN } from './reward.js';
import { round2 } from './util.js';
import { announcedAuction } from './auction.js';

function newSeat(lapsing: boolean): SeatStats {
  return {
    cumulativeReward: 0,
    roundReward: ZERO_BREAKDOWN,
    lastBreakdown: ZERO_BREAKDOWN,
    actionsThisRound: 0,
    recentFingerprints: [],
    steps: 0,
    invalidActions: 0,
    grudges: [],
    pendingReward: ZERO_BREAKDOWN,
    // Rules v4: grudges lapse (§7.1); v3 seats have no such key in JSON (undefined).
    grudgeEnds: lapsing ? [] : undefined,
  };
}

/**
 * Create a match at round 0. Deterministic in (task, seed). Throws a ZodError on an invalid config
 * (the only way it throws).
 */
export function createMatch(input: MatchConfigInput): MatchState {
  const config = parseConfig(input);
  const params = worldParams(config.task, config.seed);
  const world = generateWorld(config.task, params, config.seed);
  const market = servableByReliability(Object.values(world.blocks));
  const hours = marketHours(market);
  // The generated record is this call's own: fix its jobs in place (same keys, same order).
  const jobs = world.jobs;
  for (const id in jobs) jobs[id] = makeFeasible(jobs[id]!, market, hours);
  const labIds: LabId[] = Object.keys(world.labs);
  const seats: Record<LabId, SeatStats> = {};
  let money = 0;
  for (const lab of labIds) {
    seats[lab] = newSeat(config.rules !== undefined);
    money += world.labs[lab]!.budget;
  }
  const state: MatchState = {
    version: 1,
    config,
    params,
    round: 0,
    over: false,
    labIds,
    labs: world.labs,
    blocks: world.blocks,
    jobs,
    offers: {},
    coalitions: {},
    nextOfferSeq: 1,
    nextCoalitionSeq: 1,
    messages: [],
    pitches: [],
    judgeHistory: [],
    shockSchedule: shockScheduleFor(config.task, params, config.seed),
    shockHistory: [],
    auction: null,
    ledger: { initialMoney: round2(money), injected: 0, burned: 0 },
    seats,
    // Rules v4 snapshots each pitch's facts (§6.1); v3 states have no such key in JSON (undefined).
    pitchFacts: config.rules === undefined ? undefined : {},
  };
  // An emergency auction scheduled for round 0 opens with the match (§5.1; none of the presets has one).
  state.auction = announcedAuction(state, 0);
  return state;
}
