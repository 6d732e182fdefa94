/** The chat text of {@link PreferenceStats} (`/arena stats`, `npm run stats` without --json). */
import type { AgreementStats, GroupStats, PreferenceStats } from './stats.js';

const pct = (x: number | null) => (x === null ? 'n/a' : `${Math.round(x * 100)}%`);
const num = (x: number | null) => (x === null ? 'n/a' : x.toFixed(2));
const ci = (c: [number, number] | null, f: (x: number | null) => string) => (c ? ` (95% CI ${f(c[0])}–${f(c[1])})` : '');

function agreementLine(a: AgreementStats): string {
  if (a.pairs === 0) return 'no pairs yet';
  return `order agreement ${pct(a.agreement)}${ci(a.agreementCI, pct)} on ${a.decisivePairs} decisive of ${a.pairs} pairs; kappa ${num(a.kappa)}${ci(a.kappaCI, num)}`;
}

function groupLines(name: string, g: GroupStats): string[] {
  if (g.votes === 0) return [`${name}: no votes`];
  const lines = [
    `${name}: ${g.votes} votes on ${g.pairs} pairs by ${g.voters} voters`,
    `  judge vs people (majority): ${agreementLine(g.judgeHuman)}`,
  ];
  const judges = Object.keys(g.byJudge);
  if (judges.length > 1) for (const j of judges) lines.push(`    ${j}: ${agreementLine(g.byJudge[j]!)}`);
  const hh = g.humanHuman;
  lines.push(
    hh.pairs
      ? `  people vs people: ${pct(hh.agreement)} of ${hh.voterPairs} voter pairs agree on ${hh.pairs} pairs (${pct(hh.agreementNoTies)} without ties)`
      : '  people vs people: no pair has two voters yet',
  );
  const pb = g.positionBias;
  lines.push(pb.decisiveVotes ? `  position bias: ${pct(pb.share)} of ${pb.decisiveVotes} decisive votes went to the pitch shown first` : '  position bias: no decisive votes');
  return lines;
}

/** Plain text, one fact per line: totals, then all / seated / spectator votes, then LLM judge vs rule judge. */
export function formatStats(s: PreferenceStats): string {
  const lines = [`Preference data from ${s.matches} match${s.matches === 1 ? '' : 'es'}`];
  lines.push(...groupLines('All votes', s.all));
  if (s.all.votes > 0) {
    lines.push(...groupLines('Seated players', s.seated));
    lines.push(...groupLines('Spectators', s.spectator));
  }
  const r = s.judgeVsRule;
  lines.push(r.pairs ? `LLM judge vs rule judge (${r.judges.join(', ')}): ${agreementLine(r)}` : 'LLM judge vs rule judge: no LLM-judged pairs');
  lines.push(`(bootstrap: ${s.method.resamples} resamples of pairs, seed "${s.method.seed}")`);
  return lines.join('\n');
}
