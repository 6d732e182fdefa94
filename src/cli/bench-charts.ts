/**
 * `npm run bench:charts -- [--runs 7] [--out docs/charts] [--json out.json]`: render time of every chart
 * kind (sample data, samples.ts), median of N runs after one warm-up, split into Vega-Lite → SVG and
 * SVG → PNG. `--out` also writes each chart's PNG there. Benchmarks report speed; tests never time things.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Command } from 'commander';
import { z } from 'zod';
import { specToSvg, svgToPng } from '../analytics/charts/render.js';
import { chartFileName, chartSpec } from '../analytics/charts/request.js';
import { sampleCharts } from '../analytics/charts/samples.js';

const Options = z.object({
  runs: z.coerce.number().int().min(1).max(1000),
  out: z.string().optional(),
  json: z.string().optional(),
});

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

async function main(): Promise<void> {
  const raw = new Command()
    .name('bench:charts')
    .option('--runs <n>', 'timed runs per chart', '7')
    .option('--out <dir>', 'write each chart as <dir>/<name>.png')
    .option('--json <file>', 'write the rows as JSON')
    .parse()
    .opts();
  const opts = Options.parse(raw);
  const rows: {
    chart: string;
    svgMs: number;
    pngMs: number;
    totalMs: number;
    width: number;
    height: number;
    bytes: number;
  }[] = [];
  for (const req of sampleCharts()) {
    const spec = chartSpec(req);
    let png = svgToPng(await specToSvg(spec));
    const svgT: number[] = [];
    const pngT: number[] = [];
    for (let i = 0; i < opts.runs; i++) {
      const t0 = performance.now();
      const svg = await specToSvg(spec);
      const t1 = performance.now();
      png = svgToPng(svg);
      pngT.push(performance.now() - t1);
      svgT.push(t1 - t0);
    }
    const name = chartFileName(req);
    if (opts.out) {
      mkdirSync(opts.out, { recursive: true });
      writeFileSync(join(opts.out, name), png.png);
    }
    const totals = svgT.map((s, i) => s + pngT[i]!);
    rows.push({
      chart: req.kind,
      svgMs: median(svgT),
      pngMs: median(pngT),
      totalMs: median(totals),
      width: png.width,
      height: png.height,
      bytes: png.png.length,
    });
  }
  console.log(`Chart render time, median of ${opts.runs} runs after a warm-up (Node ${process.version}):\n`);
  console.log('| chart | spec → SVG | SVG → PNG | total | PNG |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of rows)
    console.log(
      `| ${r.chart} | ${r.svgMs.toFixed(1)} ms | ${r.pngMs.toFixed(1)} ms | ${r.totalMs.toFixed(1)} ms | ${r.width}×${r.height}, ${(r.bytes / 1024).toFixed(0)} KiB |`,
    );
  if (opts.json) writeFileSync(opts.json, JSON.stringify(rows, null, 2));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
