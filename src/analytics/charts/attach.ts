/**
 * The one function every adapter calls at delivery: a post's chart requests → PNG files. A chart that
 * fails is logged and left out; the text post is never held back by it.
 */
import type { Logger } from 'pino';
import type { Post } from '../../chat/types.js';
import type { ChartFile } from './request.js';

/** Where chart failures are reported (a pino logger fits). */
export type ChartLogger = Pick<Logger, 'warn'>;

/** Render the charts of `post` (none → []). Never rejects: failures are logged and skipped. Names are made unique within the post. */
export async function renderPostCharts(post: Pick<Post, 'charts'>, logger?: ChartLogger): Promise<ChartFile[]> {
  const out: ChartFile[] = [];
  const names = new Set<string>();
  if (!post.charts?.length) return out;
  // vega and resvg (~30 MB) load with the first chart, never in a process that draws none.
  const { renderChart } = await import('./request.js');
  for (const req of post.charts) {
    try {
      const file = await renderChart(req);
      let name = file.name;
      for (let i = 2; names.has(name); i++) name = file.name.replace(/\.png$/, `-${i}.png`);
      names.add(name);
      out.push({ ...file, name });
    } catch (err) {
      logger?.warn(
        { err: err instanceof Error ? err.message : String(err), chart: req.kind },
        'chart rendering failed; posting the text without it',
      );
    }
  }
  return out;
}
