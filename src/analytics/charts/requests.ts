/**
 * Chart requests of the analytics (pure): a ratings table, eval rows, preference statistics. What a request
 * carries is what its chart shows. A hosted match's charts are requested in src/present/charts.ts.
 */
import type { ChartRequest } from '../../chat/types.js';
import type { RatedPlayer } from '../ratings/types.js';

/** Ratings with their intervals; `label` maps a player to what the chart shows (a pseudonym in exports). */
export function ratingsChart(rows: readonly RatedPlayer[], title: string, label: (r: RatedPlayer) => string = (r) => r.player.name): ChartRequest {
  const kind = { person: 'person', llm: 'LLM model', scripted: 'scripted policy' } as const;
  return {
    kind: 'ratings',
    name: 'ratings',
    title,
    rows: rows.map((r) => ({ player: label(r), kind: kind[r.player.kind], rating: r.rating, lo: r.lo, hi: r.hi })),
  };
}

/** Mean ± standard error of the episode reward per policy and task (the eval table). */
export function evalChart(rows: readonly { policy: string; task: string; mean: number; se: number }[], title = 'Episode reward per policy and task (mean ± SE)'): ChartRequest {
  return { kind: 'eval', name: 'eval', title, rows: rows.map((r) => ({ policy: r.policy, task: r.task, mean: r.mean, se: r.se })) };
}

/**
 * Preference statistics from plain numbers (for the preference-stats CLI): agreement with the judge and
 * Cohen's kappa (with optional 95 % intervals), position bias as the share of votes for the pitch shown
 * first (0.5 = none; dashed line). Any value left out is not drawn.
 */
export function preferenceChart(
  stats: {
    agreement?: number | { value: number; lo: number; hi: number };
    kappa?: number | { value: number; lo: number; hi: number };
    positionBias?: number | { value: number; lo: number; hi: number };
  },
  title = 'Preference votes: agreement, kappa, position bias',
): ChartRequest {
  const row = (metric: string, v: number | { value: number; lo: number; hi: number } | undefined) =>
    v === undefined ? [] : [typeof v === 'number' ? { metric, value: v, lo: null, hi: null } : { metric, value: v.value, lo: v.lo, hi: v.hi }];
  return {
    kind: 'preference',
    name: 'preference',
    title,
    rows: [...row('Agreement with the judge', stats.agreement), ...row("Cohen's kappa", stats.kappa), ...row('Votes for pitch shown first', stats.positionBias)],
  };
}
