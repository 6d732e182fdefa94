/**
 * Plain-text tables for the CLIs (fixed-width columns, right-aligned numbers).
 */

/** One table cell: numbers are formatted with {@link num} and right-aligned. */
export type Cell = string | number;

/** Format a number with `digits` decimals; integers stay integers. */
export const num = (x: number, digits = 4): string => (Number.isInteger(x) ? String(x) : x.toFixed(digits));

/** Render `rows` under `header` as an aligned table (numbers right-aligned, text left-aligned). */
export function renderTable(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const text = rows.map((r) => r.map((c) => (typeof c === 'number' ? num(c) : c)));
  const widths = header.map((h, i) => Math.max(h.length, ...text.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[], numeric: readonly boolean[]) =>
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number'));
  const out = [line(header, numeric), widths.map((w) => '-'.repeat(w)).join('  ')];
  for (const r of text) out.push(line(r, numeric));
  return out.join('\n');
}
