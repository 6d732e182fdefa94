/**
 * The original Python arena's gym throughput, as `scripts/bench-original.py` prints it, and the ratio of
 * this engine's throughput to it measured in the same run (`npm run bench -- --original <checkout>`).
 * The ratio is the figure the issues set floors on (docs/BENCHMARKS.md); a fixed baseline is not, because
 * this machine class runs both engines up to 1.7× faster or slower from one hour to the next.
 */

/** One run of the original's script: its per-task lines and its pooled total (steps/s). */
export interface OriginalRun {
  stepsPerSecond: number;
  /** The script's own output lines (per task, then the total), for the report. */
  lines: string[];
}

/**
 * Parse the script's output: per-task lines `<task>: <steps> steps in <s> s = <rate> steps/s`, then
 * `total: <rate> steps/s`. Returns null when there is no total line (the script failed or is another one).
 */
export function parseOriginalRun(stdout: string): OriginalRun | null {
  const lines = stdout
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  const total = lines.map((l) => /^total: (\d+(?:\.\d+)?) steps\/s$/.exec(l)).find((m) => m !== null);
  if (!total) return null;
  const rate = Number(total[1]);
  return Number.isFinite(rate) && rate > 0 ? { stepsPerSecond: rate, lines } : null;
}

/**
 * Ratios of our totals to the original's, with the original timed before and after each of our runs:
 * `ours[i] / mean(original[i], original[i + 1])` (so `original` has one entry more than `ours`), and their
 * median (the figure to quote).
 */
export function ratiosAgainst(
  ours: readonly number[],
  original: readonly number[],
): { each: number[]; median: number } {
  if (original.length !== ours.length + 1)
    throw new Error(`ratiosAgainst: need ${ours.length + 1} original runs, got ${original.length}`);
  const each = ours.map((r, i) => r / ((original[i]! + original[i + 1]!) / 2));
  const sorted = [...each].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { each, median };
}
