/**
 * The arena engine (docs/RULES.md): pure, deterministic, JSON-serialisable state.
 *
 * - createMatch(config) → MatchState (throws only on an invalid config)
 * - applyAction(state, lab, raw) → { state, result } (never throws)
 * - closeRound(state, { judge? }) → { state, report }
 * - observe(state, lab) → Observation; publicView(state) → PublicView
 */
import { CURRENT_RULES } from './config.js';

/**
 * Version of the game rules new matches play under (docs/RULES.md §0). A match replays identically only
 * under the rules it was recorded with, so the host stores this number with every new match and replays
 * a stored match under its own version: the engine still plays v3 (`createMatch({ rules: 3, … })`) and
 * refuses older logs (see {@link PLAYABLE_RULES}).
 *
 * - 1: the first engine (implicit; matches stored without a version are v1). The judge's bonus was paid
 *   at round close whatever happened next.
 * - 2: a judge bonus is held on the jobs the pitch argued for and paid only when they settle, × their
 *   credit (§6.5); blocks reserved for a pending job are shielded from capacity_failure (§5);
 *   coalition_reliability goes only to members whose pooling completed a job (§3.9). The same inputs
 *   give different rewards (and, through shocks, states) than under v1.
 * - 3 (judge part): each distinct fabricated claim of a judged pitch costs its seat judge_argument −0.05
 *   (at most −0.10 a pitch, §6.6); a pitch flagged as manipulation (instructions or a verdict addressed to
 *   the judge, repetition, padding) cannot win the bonus (§6.4).
 * - 3 (market part): offers can ask for credits (`ask`, §3.1–3.4); jobs and capacity arrive during the
 *   match (§1.1); emergency auctions are announced a round ahead and sold to the highest sealed `bid`
 *   (§5.1). Scripted seats haggle (counter with a price) and bid by their valuations (§7).
 */
export const RULES_VERSION = CURRENT_RULES;

export { createMatch } from './create.js';
export { applyAction } from './step.js';
export type { StepOutput } from './step.js';
export { closeRound, runScripted } from './round-close.js';
export type { CloseOptions } from './round-close.js';
export { observe, publicView, budgetBand, demandLevel, publicBlocks, publicLabs, publicCoalition } from './observe.js';
export {
  MatchConfigSchema,
  POLICY_NAMES,
  DEFAULT_MAX_ACTIONS_PER_ROUND,
  PLAYABLE_RULES,
  rulesOf,
  exactValuation,
} from './config.js';
export type { MatchConfigInput } from './config.js';
export { worldParams, labIdsFor, PRESETS } from './world.js';
export type { TaskPreset } from './world.js';
export { rng } from './rng.js';
export {
  emptyBreakdown,
  normalize,
  normalizedReward,
  addBreakdowns,
  isZeroBreakdown,
  REWARD_COLUMNS,
  REWARD_WEIGHTS,
  ZERO_BREAKDOWN,
} from './reward.js';
export type { RewardColumn } from './reward.js';
export { isLive, round2 } from './util.js';
export { positionParts, positionValue, tradeGain, jobValue } from './valuation.js';
export { HELD_BONUS_CAP } from './pitch-bonus.js';
export { arrivalSchedule } from './arrivals.js';
export type { ArrivalSlot } from './arrivals.js';
export { AUCTION_RESERVE, announcedAuction, winningBid } from './auction.js';
export type { PositionParts, ValuedBlock } from './valuation.js';
export * from './types.js';
export * from './views.js';
export * from './actions.js';
export * from './codes.js';
