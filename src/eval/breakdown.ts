/**
 * `npm run eval -- --breakdown`: per (policy, task) cell, the mean of each reward column per episode
 * (raw column, before the docs/RULES.md §4 weights) and its weighted share of the episode reward.
 */
import { REWARD_COLUMNS, REWARD_WEIGHTS } from '../engine/reward.js';
import { columnShares, type EvalRow } from './stats.js';
import { renderTable } from './table.js';

/** Short column headers, in REWARD_COLUMNS order. */
const SHORT: Record<(typeof REWARD_COLUMNS)[number], string> = {
  job_utility: 'job',
  deal_quality: 'deal',
  coalition_reliability: 'coal',
  judge_argument: 'judge',
  budget_efficiency: 'budget',
  negotiation_efficiency: 'negot',
  market_adaptation: 'adapt',
  invalid_action_penalty: 'invalid',
  spam_penalty: 'spam',
  breach_penalty: 'breach',
};

/** Lines of the breakdown table: mean column values, then shares as `weighted / Σ|weighted|` in %. */
export function breakdownTable(rows: readonly EvalRow[]): string {
  const header = ['policy', 'task', ...REWARD_COLUMNS.map((c) => SHORT[c])];
  const means = renderTable(
    header,
    rows.map((r) => [r.policy, r.task, ...REWARD_COLUMNS.map((c) => Number(r.breakdown[c].toFixed(4)))]),
  );
  const shares = renderTable(
    header,
    rows.map((r) => {
      const sh = columnShares(r.breakdown, REWARD_WEIGHTS);
      return [r.policy, r.task, ...REWARD_COLUMNS.map((c) => `${(100 * sh[c]).toFixed(1)}%`)];
    }),
  );
  return `mean reward columns per episode (unweighted)\n${means}\n\nshare of |weighted reward| per column\n${shares}`;
}

/** Print {@link breakdownTable} to stdout. */
export function printBreakdown(rows: readonly EvalRow[]): void {
  console.log('');
  console.log(breakdownTable(rows));
}
