/**
 * Charts in the terminal: the PNGs of a reply's public posts are written under a directory (default
 * ./data/charts) and their paths printed, so a player can open them. A chart that fails is logged and
 * left out; the text was printed already.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { renderPostCharts, type ChartLogger } from '../../analytics/charts/attach.js';
import type { Reply } from '../../commands/types.js';

/** Default directory of chart PNGs written by the console. */
export const DEFAULT_CHARTS_DIR = './data/charts';

let counter = 0;

/**
 * Write the charts of `reply`'s public posts to `dir` as `<time>-<n>-<name>.png` (never overwriting one
 * another); returns the paths written (relative to the working directory when inside it).
 */
export async function writeReplyCharts(reply: Reply, dir: string, logger?: ChartLogger): Promise<string[]> {
  const out: string[] = [];
  for (const post of reply.public) {
    if (!post.charts?.length) continue;
    const files = await renderPostCharts(post, logger);
    if (files.length === 0) continue;
    try {
      await mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
      for (const f of files) {
        const path = join(dir, `${stamp}-${++counter}-${f.name}`);
        await writeFile(path, f.png);
        const rel = relative(process.cwd(), path);
        out.push(rel.startsWith('..') ? path : rel);
      }
    } catch (err) {
      logger?.warn({ err: err instanceof Error ? err.message : String(err), dir }, 'could not write chart files');
    }
  }
  return out;
}
