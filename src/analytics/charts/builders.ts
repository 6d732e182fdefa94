/**
 * Chart builders: plain rows → Vega-Lite specs (pure). One per chart kind of {@link ChartRequest}; the row
 * shapes are the zod schemas of request.ts.
 */
import type { TopLevelSpec } from 'vega-lite';
import { CHART_CONFIG, CHART_SIZE } from './theme.js';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/** Cumulative reward per seat after each round (line per seat). Rows: round (1-based), seat, cumulativeReward. */
export function standingsSpec(
  title: string,
  rows: readonly { round: number; seat: string; cumulativeReward: number }[],
): TopLevelSpec {
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
      color: { field: 'seat', type: 'nominal', title: 'Seat', legend: { labelLimit: 0 } },
      tooltip: [{ field: 'seat' }, { field: 'round' }, { field: 'cumulativeReward', format: '+.3f' }],
    },
  };
}

/**
 * One colour per ledger category, the same in every chart (a category keeps its colour whether or not
 * other categories appear). Penalties in reds, caps in grey.
 */
const PART_COLOURS: Readonly<Record<string, string>> = {
  jobs: '#4c78a8',
  deals: '#f58518',
  'traded capacity used': '#72b7b2',
  coalitions: '#54a24b',
  'pitch bonus': '#eeca3b',
  'credits kept': '#b279a2',
  'shock adaptation': '#9d755d',
  'refused actions': '#e45756',
  spam: '#ff9d98',
  breaches: '#b22222',
  caps: '#bab0ac',
};

/**
 * Reward parts per seat as stacked horizontal bars (negative parts left of zero), each seat's total
 * written at the end of its bar. Seats are rows, so no label is cut. Rows: seat, part, value.
 */
export function breakdownSpec(
  title: string,
  rows: readonly { seat: string; part: string; value: number }[],
): TopLevelSpec {
  const seen = new Set(rows.map((r) => r.part));
  const known = Object.keys(PART_COLOURS);
  const domain = [...known.filter((p) => seen.has(p)), ...[...seen].filter((p) => !known.includes(p))];
  const range = domain.map((p, i) => PART_COLOURS[p] ?? ['#79706e', '#d67195', '#8cd17d'][i % 3]!);
  const seats = [...new Set(rows.map((r) => r.seat))];
  // Room right of the longest bar for its total's label (and left of the most negative one).
  const ends = seats.map((seat) =>
    rows
      .filter((r) => r.seat === seat)
      .reduce((a, r) => (r.value > 0 ? { ...a, pos: a.pos + r.value } : { ...a, neg: a.neg + r.value }), {
        pos: 0,
        neg: 0,
      }),
  );
  const hi = Math.max(0.05, ...ends.map((e) => e.pos));
  const lo = Math.min(0, ...ends.map((e) => e.neg));
  const y = { field: 'seat', type: 'nominal' as const, title: null, sort: seats, axis: { labelLimit: 0 } };
  return {
    $schema: SCHEMA,
    title,
    width: CHART_SIZE.width,
    height: Math.max(120, 34 * seats.length),
    config: CHART_CONFIG,
    data: { values: rows.map((r) => ({ ...r })) },
    layer: [
      {
        mark: { type: 'bar' },
        encoding: {
          y,
          x: {
            field: 'value',
            type: 'quantitative',
            title: 'Reward (score points; parts sum to the total)',
            stack: 'zero',
            scale: { domain: [lo - (lo < 0 ? 0.05 * (hi - lo) : 0), hi + 0.18 * (hi - lo)], nice: false },
          },
          color: {
            field: 'part',
            type: 'nominal',
            title: 'Part',
            scale: { domain, range },
            legend: { orient: 'bottom', columns: 4 },
          },
          order: { field: 'part' },
          tooltip: [{ field: 'seat' }, { field: 'part' }, { field: 'value', format: '+.4f' }],
        },
      },
      { mark: { type: 'rule', color: '#333' }, encoding: { x: { datum: 0 } } },
      {
        transform: [
          // The label sits right of the positive stack (where the bar ends), whatever the sign of the total.
          { calculate: 'max(datum.value, 0)', as: 'pos' },
          {
            aggregate: [
              { op: 'sum', field: 'value', as: 'total' },
              { op: 'sum', field: 'pos', as: 'at' },
            ],
            groupby: ['seat'],
          },
        ],
        mark: { type: 'text', align: 'left', dx: 6, fontSize: 11, fontWeight: 'bold' },
        encoding: { y, x: { field: 'at', type: 'quantitative' }, text: { field: 'total', format: '+.3f' } },
      },
    ],
  };
}

/** Ratings with interval bars, in the order of the rows (a table's rank order). Rows: player, kind, rating, lo, hi. */
export function ratingsSpec(
  title: string,
  rows: readonly { player: string; kind: string; rating: number; lo: number; hi: number }[],
): TopLevelSpec {
  // The rows come in the table's rank order (src/analytics/ratings/leaderboard.ts rankRows): keep it.
  const order = rows.map((r) => r.player);
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
      {
        mark: { type: 'rule', strokeWidth: 2.5 },
        encoding: {
          x: {
            field: 'lo',
            type: 'quantitative',
            title: 'Rating (Bradley–Terry, 95 % interval)',
            scale: { zero: false },
          },
          x2: { field: 'hi' },
          color: { field: 'kind', type: 'nominal', title: 'Player' },
        },
      },
      {
        mark: { type: 'point', filled: true, size: 80 },
        encoding: { x: { field: 'rating', type: 'quantitative' }, color: { field: 'kind', type: 'nominal' } },
      },
      {
        mark: { type: 'text', align: 'left', dx: 8, dy: -9, fontSize: 10 },
        encoding: { x: { field: 'rating', type: 'quantitative' }, text: { field: 'rating', format: '.0f' } },
      },
    ],
  };
}

/** Mean ± standard error per policy (bars) and task (side by side). Rows: policy, task, mean, se. */
export function evalSpec(
  title: string,
  rows: readonly { policy: string; task: string; mean: number; se: number }[],
): TopLevelSpec {
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
      {
        mark: { type: 'bar' },
        encoding: {
          y: { field: 'mean', type: 'quantitative', title: 'Episode reward (mean ± SE)' },
          color: { field: 'task', type: 'nominal', title: 'Task', sort: null },
        },
      },
      {
        mark: { type: 'rule', color: '#222', strokeWidth: 1.5 },
        encoding: { y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' } },
      },
    ],
  };
}

/** Preference statistics as bars with optional intervals. Rows: metric, value, lo, hi (lo/hi may be null). */
export function preferenceSpec(
  title: string,
  rows: readonly { metric: string; value: number; lo: number | null; hi: number | null }[],
): TopLevelSpec {
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
      {
        mark: { type: 'bar', color: '#4c78a8', height: 18 },
        encoding: {
          y,
          x: {
            field: 'value',
            type: 'quantitative',
            title: null,
            scale: { domain: [Math.min(0, ...values.map((v) => v.lo)), Math.max(1, ...values.map((v) => v.hi))] },
          },
        },
      },
      {
        mark: { type: 'rule', color: '#222', strokeWidth: 1.5 },
        encoding: { y, x: { field: 'lo', type: 'quantitative' }, x2: { field: 'hi' } },
      },
      {
        mark: { type: 'text', align: 'left', dx: 6, dy: -12, fontSize: 11 },
        encoding: { y, x: { field: 'hi', type: 'quantitative' }, text: { field: 'value', format: '.2f' } },
      },
      // 0.5: no position bias (and chance agreement for two options).
      { mark: { type: 'rule', color: '#999', strokeDash: [4, 3] }, encoding: { x: { datum: 0.5 } } },
    ],
  };
}
