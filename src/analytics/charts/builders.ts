/**
 * Chart builders: plain rows → Vega-Lite specs (pure). One per chart kind of {@link ChartRequest}; the row
 * shapes are the zod schemas of request.ts.
 */
import type { TopLevelSpec } from 'vega-lite';
import { CHART_CONFIG, CHART_SIZE } from './theme.js';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/** Cumulative reward per seat after each round (line per seat). Rows: round (1-based), seat, cumulativeReward. */
export function standingsSpec(title: string, rows: readonly { round: number; seat: string; cumulativeReward: number }[]): TopLevelSpec {
  return {
    $schema: SCHEMA,
    title,
    ...CHART_SIZE,
    config: CHART_CONFIG,
    data: { values: rows.map((r) => ({ ...r })) },
    mark: { type: 'line', point: { size: 50 }, strokeWidth: 2.5 },
    encoding: {
      x: { field: 'round', type: 'ordinal', title: 'Round', axis: { labelAngle: 0 } },
      y: { field: 'cumulativeReward', type: 'quantitative', title: 'Cumulative reward' },
      color: { field: 'seat', type: 'nominal', title: 'Seat' },
      tooltip: [{ field: 'seat' }, { field: 'round' }, { field: 'cumulativeReward', format: '+.3f' }],
    },
  };
}

/** Reward parts per seat as stacked columns (negative parts below zero). Rows: seat, part, value. */
export function breakdownSpec(title: string, rows: readonly { seat: string; part: string; value: number }[]): TopLevelSpec {
  const parts = [...new Set(rows.map((r) => r.part))];
  return {
    $schema: SCHEMA,
    title,
    ...CHART_SIZE,
    config: CHART_CONFIG,
    data: { values: rows.map((r) => ({ ...r })) },
    layer: [
      {
        mark: { type: 'bar' },
        encoding: {
          x: { field: 'seat', type: 'nominal', title: null, axis: { labelAngle: -15 } },
          y: { field: 'value', type: 'quantitative', title: 'Weighted reward part (sum over rounds)', stack: 'zero' },
          color: { field: 'part', type: 'nominal', title: 'Part', scale: { domain: parts, scheme: 'tableau20' } },
          order: { field: 'part' },
        },
      },
      { mark: { type: 'rule', color: '#333' }, encoding: { y: { datum: 0 } } },
    ],
  };
}

/** Ratings with interval bars, best first. Rows: player, kind, rating, lo, hi. */
export function ratingsSpec(title: string, rows: readonly { player: string; kind: string; rating: number; lo: number; hi: number }[]): TopLevelSpec {
  const order = [...rows].sort((a, b) => b.rating - a.rating).map((r) => r.player);
  const y = { field: 'player', type: 'nominal' as const, title: null, sort: order };
  return {
    $schema: SCHEMA,
    title,
    width: CHART_SIZE.width,
    height: Math.max(120, 26 * rows.length),
    config: CHART_CONFIG,
    data: { values: rows.map((r) => ({ ...r })) },
    encoding: { y },
    layer: [
      { mark: { type: 'rule', strokeWidth: 2.5 }, encoding: { x: { field: 'lo', type: 'quantitative', title: 'Rating (Bradley–Terry, 95 % interval)', scale: { zero: false } }, x2: { field: 'hi' }, color: { field: 'kind', type: 'nominal', title: 'Player' } } },
      { mark: { type: 'point', filled: true, size: 80 }, encoding: { x: { field: 'rating', type: 'quantitative' }, color: { field: 'kind', type: 'nominal' } } },
      { mark: { type: 'text', align: 'left', dx: 8, dy: -9, fontSize: 10 }, encoding: { x: { field: 'rating', type: 'quantitative' }, text: { field: 'rating', format: '.0f' } } },
    ],
  };
}

/** Mean ± standard error per policy (bars) and task (side by side). Rows: policy, task, mean, se. */
export function evalSpec(title: string, rows: readonly { policy: string; task: string; mean: number; se: number }[]): TopLevelSpec {
  return {
    $schema: SCHEMA,
    title,
    width: Math.max(CHART_SIZE.width, 30 * rows.length),
    height: CHART_SIZE.height,
    config: CHART_CONFIG,
    data: { values: rows.map((r) => ({ ...r, lo: r.mean - r.se, hi: r.mean + r.se })) },
    encoding: {
      x: { field: 'policy', type: 'nominal', title: null, axis: { labelAngle: -25 }, sort: null },
      xOffset: { field: 'task', type: 'nominal', sort: null },
    },
    layer: [
      { mark: { type: 'bar' }, encoding: { y: { field: 'mean', type: 'quantitative', title: 'Episode reward (mean ± SE)' }, color: { field: 'task', type: 'nominal', title: 'Task', sort: null } } },
      { mark: { type: 'rule', color: '#222', strokeWidth: 1.5 }, encoding: { y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' } } },
    ],
  };
}

/** Preference statistics as bars with optional intervals. Rows: metric, value, lo, hi (lo/hi may be null). */
export function preferenceSpec(title: string, rows: readonly { metric: string; value: number; lo: number | null; hi: number | null }[]): TopLevelSpec {
  const values = rows.map((r) => ({ ...r, lo: r.lo ?? r.value, hi: r.hi ?? r.value }));
  const y = { field: 'metric', type: 'nominal' as const, title: null, sort: null };
  return {
    $schema: SCHEMA,
    title,
    width: CHART_SIZE.width,
    height: Math.max(100, 36 * rows.length),
    config: CHART_CONFIG,
    data: { values },
    layer: [
      { mark: { type: 'bar', color: '#4c78a8', height: 18 }, encoding: { y, x: { field: 'value', type: 'quantitative', title: null, scale: { domain: [Math.min(0, ...values.map((v) => v.lo)), Math.max(1, ...values.map((v) => v.hi))] } } } },
      { mark: { type: 'rule', color: '#222', strokeWidth: 1.5 }, encoding: { y, x: { field: 'lo', type: 'quantitative' }, x2: { field: 'hi' } } },
      { mark: { type: 'text', align: 'left', dx: 6, dy: -12, fontSize: 11 }, encoding: { y, x: { field: 'hi', type: 'quantitative' }, text: { field: 'value', format: '.2f' } } },
      // 0.5: no position bias (and chance agreement for two options).
      { mark: { type: 'rule', color: '#999', strokeDash: [4, 3] }, encoding: { x: { datum: 0.5 } } },
    ],
  };
}
