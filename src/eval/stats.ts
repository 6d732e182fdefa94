/**
 * Summary statistics of per-episode results (as the original's evaluation, docs/RULES.md §A.1: std is the population std).
 */
import type { RewardBreakdown, TaskName } from '../engine/types.js';
import { REWARD_COLUMNS, type RewardColumn } from '../engine/reward.js';
import type { EpisodeResult } from './runner.js';

/** Summary of a list of numbers (see {@link summarize}). */
export interface Summary {
  n: number;
  mean: number;
  /** Population standard deviation (divide by n), as the original's tables. */
  std: number;
  min: number;
  max: number;
}

/** n, mean, population std, min, max of `xs` (all 0 for an empty list). */
export function summarize(xs: readonly number[]): Summary {
  const n = xs.length;
  if (n === 0) return { n: 0, mean: 0, std: 0, min: 0, max: 0 };
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const x of xs) {
    sum += x;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  const mean = sum / n;
  let sq = 0;
  for (const x of xs) sq += (x - mean) ** 2;
  return { n, mean, std: Math.sqrt(sq / n), min, max };
}

/** One row of `npm run eval` (JSON output). Rewards are episode rewards (cumulative: the original's episode reward, docs/RULES.md §A.1). */
export interface EvalRow extends Summary {
  policy: string;
  task: TaskName;
  split: 'train' | 'holdout';
  /** Mean actions of the controlled seat per episode. */
  meanSteps: number;
  /** Mean invalid actions of the controlled seat per episode. */
  invalidPerEpisode: number;
  /**
   * Mean per episode of each reward column (raw column values, before the §4 weights) and of
   * normalized_reward (= mean). `shares` below says how much of the mean each column contributed.
   */
  breakdown: RewardBreakdown;
}

/**
 * Each column's weighted contribution (weight × mean column, docs/RULES.md §4) as a share of the sum of
 * the absolute contributions, so positive and negative columns are both visible; 0s when all are 0.
 */
export function columnShares(
  b: RewardBreakdown,
  weights: Readonly<Record<RewardColumn, number>>,
): Record<RewardColumn, number> {
  const out = {} as Record<RewardColumn, number>;
  let total = 0;
  for (const c of REWARD_COLUMNS) total += Math.abs(weights[c] * b[c]);
  for (const c of REWARD_COLUMNS) out[c] = total === 0 ? 0 : (weights[c] * b[c]) / total;
  return out;
}

/** Column-wise mean of episode breakdowns (all 0 for none). */
export function meanBreakdown(episodes: readonly { breakdown: RewardBreakdown }[]): RewardBreakdown {
  const n = Math.max(1, episodes.length);
  const out = { normalized_reward: 0 } as RewardBreakdown;
  for (const c of REWARD_COLUMNS) out[c] = 0;
  for (const e of episodes) {
    for (const c of REWARD_COLUMNS) out[c] += e.breakdown[c];
    out.normalized_reward += e.breakdown.normalized_reward;
  }
  for (const c of REWARD_COLUMNS) out[c] /= n;
  out.normalized_reward /= n;
  return out;
}

/** Aggregate one (policy, task, split) cell. */
export function evalRow(
  policy: string,
  task: TaskName,
  split: 'train' | 'holdout',
  episodes: readonly EpisodeResult[],
): EvalRow {
  const s = summarize(episodes.map((e) => e.reward));
  const n = Math.max(1, episodes.length);
  return {
    policy,
    task,
    split,
    ...s,
    meanSteps: episodes.reduce((a, e) => a + e.steps, 0) / n,
    invalidPerEpisode: episodes.reduce((a, e) => a + e.invalidActions, 0) / n,
    breakdown: meanBreakdown(episodes),
  };
}
