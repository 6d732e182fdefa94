/**
 * Vega-Lite spec → SVG (vega, headless: renderer 'none') → PNG (@resvg/resvg-js, a prebuilt WASM-free
 * native binding with no build step). No network, no system fonts: resvg loads only the DejaVu TTFs of
 * font.ts. Pure apart from reading the font files.
 */
import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import type { TopLevelSpec } from 'vega-lite';
import { compileVegaLite } from './vega-lite.js';
import { CHART_FONT, chartFontFiles } from './font.js';

/** A rendered chart: the SVG source, the PNG bytes and the PNG's size in pixels. */
export interface RenderedChart {
  svg: string;
  png: Buffer;
  width: number;
  height: number;
}

/** Options of {@link renderSpec}. */
export interface RenderOptions {
  /** Pixel density: PNG pixels per SVG unit (default 2, sharp on high-DPI screens). */
  scale?: number;
}

/** Render a Vega-Lite spec to SVG and PNG. Rejects when the spec does not compile or render. */
export async function renderSpec(spec: TopLevelSpec, opts: RenderOptions = {}): Promise<RenderedChart> {
  const svg = await specToSvg(spec);
  return svgToPng(svg, opts.scale ?? 2);
}

/** Vega-Lite → Vega → SVG text. */
export async function specToSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse((await compileVegaLite(spec)) as vega.Spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** SVG text → PNG at `scale`, with only the packaged fonts (no system fonts) and a white background. */
export function svgToPng(svg: string, scale = 2): RenderedChart {
  const resvg = new Resvg(svg, {
    font: {
      loadSystemFonts: false,
      fontFiles: chartFontFiles(),
      defaultFontFamily: CHART_FONT,
      sansSerifFamily: CHART_FONT,
    },
    background: 'white',
    fitTo: { mode: 'zoom', value: scale },
  });
  const img = resvg.render();
  return { svg, png: img.asPng(), width: img.width, height: img.height };
}
