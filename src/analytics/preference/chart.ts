/** The preference-stats chart of `npm run stats -- --chart out.png` (src/analytics/charts' preferenceSpec): each rate with its 95 % interval. */
import { preferenceSpec } from '../charts/builders.js';
import type { PreferenceStats } from './stats.js';

/**
 * Rows of the chart: agreement rates, kappa (only over enough decisive pairs) and position bias of all
 * votes, and LLM vs rule agreement: defined values only, with the intervals the text reports.
 */
export function preferenceChartRows(
  s: PreferenceStats,
): { metric: string; value: number; lo: number | null; hi: number | null }[] {
  const rows: { metric: string; value: number; lo: number | null; hi: number | null }[] = [];
  const add = (metric: string, value: number | null, ci: [number, number] | null = null) => {
    if (value !== null) rows.push({ metric, value, lo: ci?.[0] ?? null, hi: ci?.[1] ?? null });
  };
  add('judge–human agreement', s.all.judgeHuman.agreement, s.all.judgeHuman.agreementCI);
  add('judge–human kappa', s.all.judgeHuman.kappa, s.all.judgeHuman.kappaCI);
  add('human–human agreement', s.all.humanHuman.agreement);
  add('votes for the first shown', s.all.positionBias.share, s.all.positionBias.ci);
  add('LLM vs rule judge agreement', s.judgeVsRule.agreement, s.judgeVsRule.agreementCI);
  return rows;
}

/** The Vega-Lite spec of the chart. */
export const preferenceChartSpec = (s: PreferenceStats) =>
  preferenceSpec(`Preference data: ${s.all.votes} votes on ${s.all.pairs} pairs`, preferenceChartRows(s));
