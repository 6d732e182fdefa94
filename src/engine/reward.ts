/**
 * Reward breakdowns (docs/RULES.md §4; reference §5 columns). A breakdown is per seat, for one step or
 * one round close; its normalized_reward is the weighted, clamped sum of the columns.
 */
import type { RewardBreakdown } from './types.js';
import { clamp, round4 } from './util.js';

/** Column names that carry a value (everything but normalized_reward). */
export type RewardColumn = Exclude<keyof RewardBreakdown, 'normalized_reward'>;

export const REWARD_COLUMNS: readonly RewardColumn[] = [
  'job_utility',
  'deal_quality',
  'coalition_reliability',
  'judge_argument',
  'budget_efficiency',
  'negotiation_efficiency',
  'market_adaptation',
  'invalid_action_penalty',
  'spam_penalty',
  'breach_penalty',
];

/** Weights of docs/RULES.md §4 (judge and penalties are added unweighted). */
export const REWARD_WEIGHTS: Readonly<Record<RewardColumn, number>> = {
  job_utility: 0.35,
  deal_quality: 0.2,
  coalition_reliability: 0.15,
  judge_argument: 1,
  budget_efficiency: 0.1,
  negotiation_efficiency: 0.1,
  market_adaptation: 0.1,
  invalid_action_penalty: 1,
  spam_penalty: 1,
  breach_penalty: 1,
};

/** Penalties (docs/RULES.md §4.1). */
export const INVALID_PENALTY = -0.1;
export const MALFORMED_PENALTY = -0.15;
export const SPAM_PENALTY = -0.05;
export const BREACH_PENALTY = -0.2;
/** job_utility cost of a reservation still idle when its job (or the match) settles. */
export const IDLE_RESERVATION_COST = -0.05;
/** Bounds of the cumulative reward (reference §5.4). */
export const CUMULATIVE_MIN = -10;
export const CUMULATIVE_MAX = 10;

/** A breakdown with every column 0. */
export function emptyBreakdown(): RewardBreakdown {
  return {
    job_utility: 0,
    deal_quality: 0,
    coalition_reliability: 0,
    judge_argument: 0,
    budget_efficiency: 0,
    negotiation_efficiency: 0,
    market_adaptation: 0,
    invalid_action_penalty: 0,
    spam_penalty: 0,
    breach_penalty: 0,
    normalized_reward: 0,
  };
}

/** clamp(Σ weight × column, −1, 1), rounded to 4 dp (docs/RULES.md §4). Written out: this is on the hot path. */
export function normalizedReward(b: RewardBreakdown): number {
  const sum =
    0.35 * b.job_utility +
    0.2 * b.deal_quality +
    0.15 * b.coalition_reliability +
    b.judge_argument +
    0.1 * b.budget_efficiency +
    0.1 * b.negotiation_efficiency +
    0.1 * b.market_adaptation +
    b.invalid_action_penalty +
    b.spam_penalty +
    b.breach_penalty;
  return round4(clamp(sum, -1, 1));
}

/** A new breakdown with every column of `b` rounded to 4 dp and normalized_reward computed. */
export function normalize(b: RewardBreakdown): RewardBreakdown {
  return {
    job_utility: round4(b.job_utility),
    deal_quality: round4(b.deal_quality),
    coalition_reliability: round4(b.coalition_reliability),
    judge_argument: round4(b.judge_argument),
    budget_efficiency: round4(b.budget_efficiency),
    negotiation_efficiency: round4(b.negotiation_efficiency),
    market_adaptation: round4(b.market_adaptation),
    invalid_action_penalty: round4(b.invalid_action_penalty),
    spam_penalty: round4(b.spam_penalty),
    breach_penalty: round4(b.breach_penalty),
    normalized_reward: normalizedReward(b),
  };
}

/** Column-wise sum a + b, 4 dp (normalized_reward summed too; call normalize to recompute it instead). */
export function addBreakdowns(a: RewardBreakdown, b: RewardBreakdown): RewardBreakdown {
  return {
    job_utility: round4(a.job_utility + b.job_utility),
    deal_quality: round4(a.deal_quality + b.deal_quality),
    coalition_reliability: round4(a.coalition_reliability + b.coalition_reliability),
    judge_argument: round4(a.judge_argument + b.judge_argument),
    budget_efficiency: round4(a.budget_efficiency + b.budget_efficiency),
    negotiation_efficiency: round4(a.negotiation_efficiency + b.negotiation_efficiency),
    market_adaptation: round4(a.market_adaptation + b.market_adaptation),
    invalid_action_penalty: round4(a.invalid_action_penalty + b.invalid_action_penalty),
    spam_penalty: round4(a.spam_penalty + b.spam_penalty),
    breach_penalty: round4(a.breach_penalty + b.breach_penalty),
    normalized_reward: round4(a.normalized_reward + b.normalized_reward),
  };
}

/**
 * A shared, frozen all-zero breakdown. The engine stores it in state where a seat has nothing (state
 * objects are never mutated in place, so sharing is safe); use emptyBreakdown() for one to fill in.
 */
export const ZERO_BREAKDOWN: Readonly<RewardBreakdown> = Object.freeze(emptyBreakdown());

/** True when every column is 0. */
export function isZeroBreakdown(b: RewardBreakdown): boolean {
  for (const c of REWARD_COLUMNS) if (b[c] !== 0) return false;
  return true;
}
