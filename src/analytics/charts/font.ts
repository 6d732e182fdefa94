/**
 * The TrueType fonts charts are drawn with: DejaVu Sans from the `dejavu-fonts-ttf` npm package, so text
 * renders the same on a machine with no system fonts (resvg is run with `loadSystemFonts: false`).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Font family name used in every chart spec (must match the TTF's family). */
export const CHART_FONT = 'DejaVu Sans';

let cached: string[] | null = null;

/** Absolute paths of DejaVu Sans regular and bold, resolved from the installed package. */
export function chartFontFiles(): string[] {
  if (cached) return cached;
  const dir = join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
  cached = [join(dir, 'DejaVuSans.ttf'), join(dir, 'DejaVuSans-Bold.ttf')];
  return cached;
}
