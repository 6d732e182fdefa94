/**
 * Reward breakdowns (docs/RULES.md §4; reference §5 columns). A breakdown is per seat, for one step or
 * one round close; its normalized_reward is the weighted, clamped sum of the columns.
 */
import type { RewardBreakdown } from './types';
import { clamp, round4 } from './util';

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

/** clamp(Σ weight × column, −1, 1), rounded to 4 dp (docs/RULES.md §4). */
export function normalizedReward(b: RewardBreakdown): number {
  let sum = 0;
  for (const c of REWARD_COLUMNS) sum += REWARD_WEIGHTS[c] * b[c];
  return round4(clamp(sum, -1, 1));
}

/** A copy of `b` with every column rounded to 4 dp and normalized_reward computed. */
export function normalize(b: RewardBreakdown): RewardBreakdown {
  const out = emptyBreakdown();
  for (const c of REWARD_COLUMNS) out[c] = round4(b[c]);
  out.normalized_reward = normalizedReward(b);
  return out;
}

/** Column-wise sum a + b (normalized_reward summed too; call normalize to recompute it instead). */
export function addBreakdowns(a: RewardBreakdown, b: RewardBreakdown): RewardBreakdown {
  const out = emptyBreakdown();
  for (const c of REWARD_COLUMNS) out[c] = round4(a[c] + b[c]);
  out.normalized_reward = round4(a.normalized_reward + b.normalized_reward);
  return out;
}

/** True when every column is 0. */
export function isZeroBreakdown(b: RewardBreakdown): boolean {
  for (const c of REWARD_COLUMNS) if (b[c] !== 0) return false;
  return true;
}
