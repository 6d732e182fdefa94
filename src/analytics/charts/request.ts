/**
 * Chart requests (plain data carried by posts, src/chat/types.ts) → Vega-Lite specs → PNG. Each kind's rows
 * are parsed with zod here, the boundary between the round host / commands and the renderer.
 */
import { z } from 'zod';
import type { TopLevelSpec } from 'vega-lite';
import type { ChartRequest } from '../../chat/types.js';
import { breakdownSpec, evalSpec, preferenceSpec, ratingsSpec, standingsSpec } from './builders.js';
import { renderSpec, type RenderedChart, type RenderOptions } from './render.js';

const num = z.number().finite();
/** Row schemas of each chart kind. */
export const CHART_ROWS = {
  standings: z.array(z.object({ round: z.number().int().nonnegative(), seat: z.string(), cumulativeReward: num })),
  breakdown: z.array(z.object({ seat: z.string(), part: z.string(), value: num })),
  ratings: z.array(z.object({ player: z.string(), kind: z.string(), rating: num, lo: num, hi: num })),
  eval: z.array(z.object({ policy: z.string(), task: z.string(), mean: num, se: z.number().finite().nonnegative() })),
  preference: z.array(z.object({ metric: z.string(), value: num, lo: num.nullable(), hi: num.nullable() })),
} as const;

/** The Vega-Lite spec of a request. Throws a ZodError when its rows do not fit its kind. */
export function chartSpec(req: ChartRequest): TopLevelSpec {
  switch (req.kind) {
    case 'standings':
      return standingsSpec(req.title, CHART_ROWS.standings.parse(req.rows));
    case 'breakdown':
      return breakdownSpec(req.title, CHART_ROWS.breakdown.parse(req.rows));
    case 'ratings':
      return ratingsSpec(req.title, CHART_ROWS.ratings.parse(req.rows));
    case 'eval':
      return evalSpec(req.title, CHART_ROWS.eval.parse(req.rows));
    case 'preference':
      return preferenceSpec(req.title, CHART_ROWS.preference.parse(req.rows));
  }
}

/** The PNG file name of a request: its `name` (sanitised) or its kind, plus `.png`. */
export function chartFileName(req: ChartRequest): string {
  const stem = (req.name ?? req.kind).replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 60) || req.kind;
  return `${stem}.png`;
}

/** A rendered chart file ready to attach. */
export interface ChartFile extends RenderedChart {
  name: string;
  title: string;
}

/** Render one request to a PNG file. Rejects on bad rows or a rendering failure. */
export async function renderChart(req: ChartRequest, opts: RenderOptions = {}): Promise<ChartFile> {
  const out = await renderSpec(chartSpec(req), opts);
  return { ...out, name: chartFileName(req), title: req.title };
}
