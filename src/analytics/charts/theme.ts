/** Shared look of every chart: font, sizes, white background. */
import { CHART_FONT } from './font.js';

/** Vega-Lite `config` used by every builder. */
export const CHART_CONFIG = {
  font: CHART_FONT,
  background: 'white',
  padding: 12,
  title: { fontSize: 15, anchor: 'start', offset: 10 },
  axis: { labelFontSize: 11, titleFontSize: 12, labelLimit: 260 },
  legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: 260 },
  view: { stroke: null },
} as const;

/** Default plot area in SVG units (the PNG is twice this plus axes and legend). */
export const CHART_SIZE = { width: 520, height: 280 } as const;
