/**
 * The words and numbers of {@link PreferenceStats}: the chat text (`/arena stats`, `npm run stats` without
 * --json) and the helpers the web page uses for the same figures (src/web/data-views.ts).
 */
import type { AgreementStats, GroupStats, Interval, PreferenceStats } from './stats.js';

/** A share as a whole percentage, "n/a" for none. */
export const pct = (x: number | null): string => (x === null ? 'n/a' : `${Math.round(x * 100)}%`);
/** A kappa with two decimals, "n/a" for none. */
export const num = (x: number | null): string => (x === null ? 'n/a' : x.toFixed(2));

/** An interval of shares, "28%–99%"; one decimal when whole percentages would hide its width. */
export function pctInterval(c: Interval): string {
  const whole = pct(c[0]) !== pct(c[1]);
  const f = (x: number) => (whole ? pct(x) : `${(x * 100).toFixed(1)}%`);
  return `${f(c[0])}–${f(c[1])}`;
}

/** An interval of kappas, "0.20–0.61". */
export const numInterval = (c: Interval): string => `${num(c[0])}–${num(c[1])}`;

/** Kappa as reported: its value and interval, or "too few pairs (n)" below the minimum, or why it is undefined. */
export function kappaText(a: AgreementStats): string {
  if (a.kappaNote === 'too_few_pairs') return `kappa: too few pairs (${a.decisivePairs})`;
  if (a.kappa === null || a.kappaCI === null) return 'kappa undefined (one label only)';
  return `kappa ${num(a.kappa)} (95% CI ${numInterval(a.kappaCI)})`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "order agreement 80% (95% CI 28%–99%) on 5 decisive of 7 pairs; kappa: too few pairs (5)". */
export function agreementLine(a: AgreementStats): string {
  if (a.pairs === 0) return 'no pairs yet';
  const share = a.agreementCI ? `${pct(a.agreement)} (95% CI ${pctInterval(a.agreementCI)})` : 'n/a';
  return `order agreement ${share} on ${a.decisivePairs} decisive of ${plural(a.pairs, 'pair')}; ${kappaText(a)}`;
}

/** "58% (95% CI 28%–85%) of 12 decisive votes went to the pitch shown first". */
export function positionBiasLine(g: GroupStats): string {
  const pb = g.positionBias;
  if (!pb.decisiveVotes || !pb.ci) return 'no decisive votes';
  return `${pct(pb.share)} (95% CI ${pctInterval(pb.ci)}) of ${plural(pb.decisiveVotes, 'decisive vote')} went to the pitch shown first`;
}

/** "12 anonymous votes used; 3 on pairs that still named an author left out (…)", and the host-seeded matches left out. */
export function selectionLine(s: PreferenceStats): string {
  const sel = s.selection;
  const seeded =
    sel.seededMatches > 0
      ? ` ${plural(sel.seededMatches, 'match', 'matches')} seeded by the host (practice) left out (config data.includeSeeded counts them).`
      : '';
  return votesLine(sel) + seeded;
}

function votesLine(sel: PreferenceStats['selection']): string {
  if (sel.votes === 0) return 'No votes yet.';
  if (sel.includeIdentifying)
    return `All ${plural(sel.votes, 'vote')} used, ${sel.identifying} of them on pairs that still identified an author after redaction.`;
  if (sel.identifying === 0)
    return sel.votes === 1
      ? 'The one vote was on an anonymous pair.'
      : `All ${sel.votes} votes were on anonymous pairs.`;
  return `Anonymous votes only: ${sel.kept} of ${sel.votes}; ${sel.identifying} on pairs that still identified an author after redaction are left out (npm run stats -- --include-identifying keeps them).`;
}

function groupLines(name: string, g: GroupStats): string[] {
  if (g.votes === 0) return [`${name}: no votes`];
  const lines = [
    `${name}: ${plural(g.votes, 'vote')} on ${plural(g.pairs, 'pair')} by ${plural(g.voters, 'voter')}`,
    `  judge vs people (majority): ${agreementLine(g.judgeHuman)}`,
  ];
  const judges = Object.keys(g.byJudge);
  if (judges.length > 1) for (const j of judges) lines.push(`    ${j}: ${agreementLine(g.byJudge[j]!)}`);
  const hh = g.humanHuman;
  lines.push(
    hh.pairs
      ? `  people vs people: ${pct(hh.agreement)} of ${plural(hh.voterPairs, 'voter pair')} agree on ${plural(hh.pairs, 'pair')} (${pct(hh.agreementNoTies)} without ties)`
      : '  people vs people: no pair has two voters yet',
  );
  lines.push(`  position bias: ${positionBiasLine(g)}`);
  return lines;
}

/** One sentence on how the intervals are made. */
export function methodLine(s: PreferenceStats): string {
  const k = s.method.kappa;
  return `(95% intervals: Clopper–Pearson for shares; kappa from at least ${k.minDecisivePairs} decisive pairs, Dirichlet posterior interval, ${k.draws} draws, seed "${k.seed}")`;
}

/** Plain text, one fact per line: totals, then all / seated / spectator votes, then LLM judge vs rule judge. */
export function formatStats(s: PreferenceStats): string {
  const lines = [`Preference data from ${plural(s.matches, 'match', 'matches')}`, selectionLine(s)];
  lines.push(...groupLines('All votes', s.all));
  if (s.all.votes > 0) {
    lines.push(...groupLines('Seated players', s.seated));
    lines.push(...groupLines('Spectators', s.spectator));
  }
  const r = s.judgeVsRule;
  lines.push(
    r.pairs
      ? `LLM judge vs rule judge (${r.judges.join(', ')}): ${agreementLine(r)}`
      : 'LLM judge vs rule judge: no LLM-judged pairs',
  );
  lines.push(methodLine(s));
  return lines.join('\n');
}
