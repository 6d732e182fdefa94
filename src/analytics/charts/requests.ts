/**
 * Chart requests of the analytics (pure): a ratings table, eval rows, preference statistics. What a request
 * carries is what its chart shows. A hosted match's charts are requested in src/present/charts.ts.
 */
import type { ChartRequest } from '../../chat/types.js';
import type { PeopleAggregate, RatedPlayer } from '../ratings/types.js';

/**
 * Ratings with their intervals, in the table's rank order, with the people aggregate last when given;
 * `label` maps a player to what the chart shows (a pseudonym in exports).
 */
export function ratingsChart(
  rows: readonly RatedPlayer[],
  title: string,
  label: (r: RatedPlayer) => string = (r) => r.player.name,
  people: PeopleAggregate | null = null,
): ChartRequest {
  const kind = { person: 'person', llm: 'LLM model', scripted: 'scripted policy' } as const;
  const mark = (name: string, preliminary: boolean) => (preliminary ? `${name} (preliminary)` : name);
  return {
    kind: 'ratings',
    name: 'ratings',
    title,
    // In rank order: the chart keeps it (ratingsSpec), so it ranks as the table does.
    rows: [
      ...rows.map((r) => ({
        player: `${r.rank}. ${mark(label(r), r.preliminary)}`,
        kind: kind[r.player.kind],
        rating: r.rating,
        lo: r.lo,
        hi: r.hi,
      })),
      ...(people
        ? [
            {
              player: mark('people (all persons)', people.preliminary),
              kind: 'people as one player',
              rating: people.rating,
              lo: people.lo,
              hi: people.hi,
            },
          ]
        : []),
    ],
  };
}

/** Mean ± standard error of the episode reward per policy and task (the eval table). */
export function evalChart(
  rows: readonly { policy: string; task: string; mean: number; se: number }[],
  title = 'Episode reward per policy and task (mean ± SE)',
): ChartRequest {
  return {
    kind: 'eval',
    name: 'eval',
    title,
    rows: rows.map((r) => ({ policy: r.policy, task: r.task, mean: r.mean, se: r.se })),
  };
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
    v === undefined
      ? []
      : [
          typeof v === 'number'
            ? { metric, value: v, lo: null, hi: null }
            : { metric, value: v.value, lo: v.lo, hi: v.hi },
        ];
  return {
    kind: 'preference',
    name: 'preference',
    title,
    rows: [
      ...row('Agreement with the judge', stats.agreement),
      ...row("Cohen's kappa", stats.kappa),
      ...row('Votes for pitch shown first', stats.positionBias),
    ],
  };
}
