/**
 * The arena engine (docs/RULES.md): pure, deterministic, JSON-serialisable state.
 *
 * - createMatch(config) → MatchState (throws only on an invalid config)
 * - applyAction(state, lab, raw) → { state, result } (never throws)
 * - closeRound(state, { judge? }) → { state, report }
 * - observe(state, lab) → Observation; publicView(state) → PublicView
 */
export { createMatch } from './create';
export { applyAction } from './step';
export type { StepOutput } from './step';
export { closeRound, runScripted } from './round-close';
export type { CloseOptions } from './round-close';
export { observe, publicView, budgetBand, demandLevel, publicBlocks, publicLabs, publicCoalition } from './observe';
export { MatchConfigSchema, POLICY_NAMES, DEFAULT_MAX_ACTIONS_PER_ROUND } from './config';
export type { MatchConfigInput } from './config';
export { worldParams, labIdsFor, PRESETS } from './world';
export type { TaskPreset } from './world';
export { rng } from './rng';
export { emptyBreakdown, normalize, normalizedReward, addBreakdowns, isZeroBreakdown, REWARD_COLUMNS, REWARD_WEIGHTS, ZERO_BREAKDOWN } from './reward';
export type { RewardColumn } from './reward';
export { isLive, round2 } from './util';
export { positionParts, positionValue, tradeGain, jobValue } from './valuation';
export type { PositionParts, ValuedBlock } from './valuation';
export * from './types';
export * from './views';
export * from './actions';
export * from './codes';
