/**
 * Summary statistics of per-episode results (Ref §8.1: std is the population std).
 */
import type { TaskName } from '../env/types';
import type { EpisodeResult } from './runner';

/** Summary of a list of numbers (see {@link summarize}). */
export interface Summary {
  n: number;
  mean: number;
  /** Population standard deviation (divide by n), as the reference's tables. */
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

/** One row of `npm run eval` (JSON output). Rewards are episode rewards (cumulative, Ref §5.4). */
export interface EvalRow extends Summary {
  policy: string;
  task: TaskName;
  split: 'train' | 'holdout';
  /** Mean actions of the controlled seat per episode. */
  meanSteps: number;
  /** Mean invalid actions of the controlled seat per episode. */
  invalidPerEpisode: number;
}

/** Aggregate one (policy, task, split) cell. */
export function evalRow(policy: string, task: TaskName, split: 'train' | 'holdout', episodes: readonly EpisodeResult[]): EvalRow {
  const s = summarize(episodes.map((e) => e.reward));
  const n = Math.max(1, episodes.length);
  return {
    policy,
    task,
    split,
    ...s,
    meanSteps: episodes.reduce((a, e) => a + e.steps, 0) / n,
    invalidPerEpisode: episodes.reduce((a, e) => a + e.invalidActions, 0) / n,
  };
}
