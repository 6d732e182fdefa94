/**
 * Pages of the ratings and the preference data (pure HTML): the leaderboard (Bradley–Terry ratings with
 * 95 % intervals, ranked by the rule of every surface — the interval's lower bound, src/analytics/ratings/
 * leaderboard.ts — matches played, preliminary marks, a minimum-match cutoff, filters by task and kind,
 * people as one player, last updated, the ratings chart, CSV/JSON downloads) and the preference statistics
 * (the numbers of `npm run stats`, per judge; downloads only for the operator's admin token).
 */
import type { AgreementStats, GroupStats, PreferenceStats } from '../analytics/preference/stats.js';
import {
  agreementLine,
  methodLine,
  num,
  numInterval,
  pct,
  pctInterval,
  positionBiasLine,
  selectionLine,
} from '../analytics/preference/format-stats.js';
import { rankRows, type Leaderboard } from '../analytics/ratings/leaderboard.js';
import { RATING_METHOD } from '../analytics/ratings/text.js';
import type { PeopleAggregate, RatedPlayer } from '../analytics/ratings/types.js';
import { html, page, type Html } from './html.js';

const KIND_TEXT = { person: 'person', llm: 'LLM model', scripted: 'scripted policy' } as const;

/** Leaderboard rows with at least `minMatches` matches, ranked by the table's rule (rankRows). */
export function rankedRows(t: Leaderboard, minMatches: number): RatedPlayer[] {
  return rankRows(t.rows.filter((r) => r.matches >= minMatches));
}

const interval = (r: { lo: number; hi: number }) => `${Math.round(r.lo)}–${Math.round(r.hi)}`;
const prelim = (p: boolean): Html | string => (p ? html` <span class="badge">preliminary</span>` : '');

/** The people aggregate's row: every person as one player, not ranked. */
function peopleRowHtml(p: PeopleAggregate): Html {
  return html`<tr class="aggregate"><td>—</td><td>People (all ${p.persons} person${p.persons === 1 ? '' : 's'} as one player)${prelim(p.preliminary)}</td><td>people</td><td class="num">${Math.round(p.rating)}</td><td class="num">${interval(p)}</td><td class="num">${p.matches}</td><td class="num">—</td></tr>`;
}

/** The leaderboard page. `name` gives a player's public name; `query` the current filter's query string (for downloads and the chart). */
export function leaderboardPage(
  t: Leaderboard,
  opts: {
    name: (r: RatedPlayer) => string;
    minMatches: number;
    updated: string | null;
    tasks: readonly string[];
    task: string | undefined;
    query: string;
  },
): Html {
  const rows = rankedRows(t, opts.minMatches);
  const kinds = ['all', 'people', 'models'] as const;
  const q = opts.query ? `?${opts.query}` : '';
  const body = html`<h1>Leaderboard</h1>
<p class="meta">Bradley–Terry ratings over ${t.matches} counted match${t.matches === 1 ? '' : 'es'} (each finished match is a free-for-all: every pair of seats is a game). ${RATING_METHOD} Last updated: ${opts.updated ? `${opts.updated.slice(0, 16).replace('T', ' ')} UTC` : 'no counted match yet'}.</p>
<form class="filters" method="get" action="/leaderboard"><label>Task <select name="task"><option value="">all tasks</option>${opts.tasks.map((x) => html`<option value="${x}"${x === opts.task ? html` selected` : ''}>${x}</option>`)}</select></label>
<label>Players <select name="kind">${kinds.map((k) => html`<option value="${k}"${k === t.kind ? html` selected` : ''}>${k}</option>`)}</select></label>
<label>Min. matches <input name="min" type="number" min="1" max="1000" value="${opts.minMatches}"></label> <button type="submit">Apply</button></form>
${
  rows.length === 0
    ? html`<p>No player has ${opts.minMatches} counted match${opts.minMatches === 1 ? '' : 'es'} here yet.</p>`
    : html`<table class="leaderboard"><caption>${rows.length} player${rows.length === 1 ? '' : 's'} with at least ${opts.minMatches} match${opts.minMatches === 1 ? '' : 'es'}</caption><thead><tr><th scope="col">Rank</th><th scope="col">Player</th><th scope="col">Kind</th><th scope="col">Rating</th><th scope="col">95 % interval</th><th scope="col">Matches</th><th scope="col">openskill μ ± σ</th></tr></thead><tbody>${rows.map(
        (r) =>
          html`<tr><td>${r.rank}</td><td>${opts.name(r)}${prelim(r.preliminary)}</td><td>${KIND_TEXT[r.player.kind]}</td><td class="num">${Math.round(r.rating)}</td><td class="num">${interval(r)}</td><td class="num">${r.matches}</td><td class="num">${r.mu.toFixed(1)} ± ${r.sigma.toFixed(1)}</td></tr>`,
      )}${t.people ? peopleRowHtml(t.people) : ''}</tbody></table>
<figure><img class="chart" src="/leaderboard/ratings.png${q}" alt="Chart of each player's rating with its 95 % interval" width="640" height="400"><figcaption>Ratings with 95 % intervals</figcaption></figure>`
}
${
  t.peopleVsModels.length
    ? html`<h2>People against each model</h2><p>People's win rate per match against each model or policy (ties ½), with its Clopper–Pearson 95 % interval over matches.</p><table><thead><tr><th scope="col">Opponent</th><th scope="col">People's win rate</th><th scope="col">95 % interval</th><th scope="col">Pairs</th><th scope="col">Matches</th></tr></thead><tbody>${t.peopleVsModels.map(
        (v) =>
          html`<tr><td>${v.opponent.name}</td><td class="num">${Math.round(v.winRate * 100)} %</td><td class="num">${Math.round(v.lo * 100)}–${Math.round(v.hi * 100)} %</td><td class="num">${v.pairs}</td><td class="num">${v.matches}</td></tr>`,
      )}</tbody></table>`
    : ''
}
<p class="downloads">Download this table: <a href="/leaderboard.csv${q}" download>CSV</a> · <a href="/leaderboard.json${q}" download>JSON</a> (people as pseudonyms).</p>`;
  return page({ title: 'Leaderboard', body });
}

/** Kappa's cells: its value and interval, or why there is none ("too few pairs (5)"), as the chat text says it. */
function kappaCells(a: AgreementStats): Html {
  if (a.kappa === null || a.kappaCI === null)
    return html`<td class="num" colspan="2">${a.kappaNote === 'too_few_pairs' ? `too few pairs (${a.decisivePairs})` : 'undefined (one label only)'}</td>`;
  return html`<td class="num">${num(a.kappa)}</td><td class="num">${numInterval(a.kappaCI)}</td>`;
}

function agreementRow(name: string, a: AgreementStats): Html {
  return html`<tr><th scope="row">${name}</th><td class="num">${a.pairs}</td><td class="num">${a.decisivePairs}</td><td class="num">${pct(a.agreement)}</td><td class="num">${a.agreementCI ? pctInterval(a.agreementCI) : '—'}</td>${kappaCells(a)}</tr>`;
}

function groupSection(title: string, id: string, g: GroupStats): Html {
  const hh = g.humanHuman;
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${title}</h2>
${
  g.votes === 0
    ? html`<p>No votes.</p>`
    : html`<p>${g.votes} vote${g.votes === 1 ? '' : 's'} on ${g.pairs} pair${g.pairs === 1 ? '' : 's'} by ${g.voters} voter${g.voters === 1 ? '' : 's'}.</p>
<table><caption>Judge vs people (majority per pair)</caption><thead><tr><th scope="col">Judge</th><th scope="col">Pairs</th><th scope="col">Decisive</th><th scope="col">Agreement</th><th scope="col">95 % interval</th><th scope="col">Kappa</th><th scope="col">95 % interval</th></tr></thead><tbody>${agreementRow('All judges', g.judgeHuman)}${Object.entries(g.byJudge).map(([j, a]) => agreementRow(j, a))}</tbody></table>
<p>People vs people: ${hh.pairs ? `${pct(hh.agreement)} of ${hh.voterPairs} voter pairs agree on ${hh.pairs} pairs (${pct(hh.agreementNoTies)} without ties).` : 'no pair has two voters yet.'}</p>
<p>Position bias: ${positionBiasLine(g)}.</p>`
}</section>`;
}

/** The preference-data page. */
export function preferencesPage(s: PreferenceStats, opts: { adminDownloads: boolean }): Html {
  const r = s.judgeVsRule;
  const body = html`<h1>Preference data</h1>
<p class="meta">Blind pairwise votes by people on the pitches of ${s.matches} match${s.matches === 1 ? '' : 'es'}, against the judges' scores (the same numbers as <code>npm run stats</code>). ${selectionLine(s)} ${methodLine(s)}</p>
${s.all.votes > 0 ? html`<figure><img class="chart" src="/preferences/chart.png" alt="Chart of agreement rates, kappa and position bias with 95 % intervals" width="640" height="360"><figcaption>Rates with their 95 % intervals</figcaption></figure>` : ''}
${groupSection('All votes', 'g-all', s.all)}${s.all.votes > 0 ? [groupSection('Seated players (interested parties)', 'g-seated', s.seated), groupSection('Spectators', 'g-spectator', s.spectator)] : ''}
<section aria-labelledby="g-rule"><h2 id="g-rule">LLM judge vs rule judge</h2><p>${r.pairs ? `${r.judges.join(', ')}: ${agreementLine(r)}.` : 'No LLM-judged pairs.'}</p></section>
<section aria-labelledby="g-dl"><h2 id="g-dl">Downloads</h2><p>${
    opts.adminDownloads
      ? html`The labelled pairs are for the operator only: <code>curl -H "Authorization: Bearer $ARENA_WEB_ADMIN_TOKEN" /preferences/export?format=trl</code> (formats <code>trl</code>, <code>openai-dpo</code>, <code>jsonl</code>; <code>source=judge</code> for the judge's labels). People appear as pseudonyms.`
      : 'Exports are off on this page (no admin token is configured); the operator uses npm run export -- --votes.'
  }</p></section>`;
  return page({ title: 'Preference data', body });
}
