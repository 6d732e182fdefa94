/** The judge benchmark's report as a text table (`npm run bench:judge`). */
import type { BenchReport } from './bench-judge.js';
import { renderTable } from './table.js';

const pct = (x: number | null) => (x === null ? '-' : `${(100 * x).toFixed(1)}%`);

/** The report as text tables. */
export function renderBench(r: BenchReport): string {
  const rows = r.rows.map((x) => [
    x.attack,
    x.pairings,
    pct(x.attackSuccess),
    pct(x.modelAttackSuccess),
    pct(x.orderConsistency),
    pct(x.ruleAgreement),
    x.fallbacks,
  ]);
  const attacks = r.rows.filter((x) => x.attackSuccess !== null);
  const total = attacks.reduce((n, x) => n + x.judgements, 0);
  const overall = total === 0 ? 0 : attacks.reduce((n, x) => n + (x.attackSuccess ?? 0) * x.judgements, 0) / total;
  return [
    renderTable(
      ['pitch', 'pairings', 'attack success', 'model only', 'order consistency', 'agrees with rule', 'fallbacks'],
      rows,
    ),
    '',
    `overall attack success: ${pct(overall)} over ${total} judgements (${r.judge}, ${r.task}, seeds ${r.seeds[0]}–${r.seeds.at(-1)})`,
  ].join('\n');
}
