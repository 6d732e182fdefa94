/**
 * Pages of matches (pure HTML from folded matches): the list with filters, a match's live view (state
 * panels + feed, updated by /static/live.js over server-sent events), its replay with a round scrubber,
 * and the demo view. Every panel shows public facts only: round and timer, cumulative rewards,
 * reputation, budget bands (never budgets), finished seats, active offers with their terms, coalitions
 * (members, status, committed block ids; never escrow), and the standings chart once a round closed.
 */
import { publicView } from '../engine/observe.js';
import type { HostedMatch } from '../match/types.js';
import { fmtReward, labName, seatLabel } from '../present/common.js';
import type { MatchRecord } from '../store/types.js';
import type { FeedItem } from './feed.js';
import { offerTerms } from './feed.js';
import { html, page, richText, type Html } from './html.js';

/** One row of the match list. */
export interface MatchSummary {
  id: string;
  task: string;
  platform: string;
  status: MatchRecord['status'];
  live: boolean;
  /** "2/5", or "lobby", or "over". */
  round: string;
  seats: string[];
  /** Who plays: only people, only agents (models and scripted policies), or both. */
  players: 'people' | 'models' | 'mixed' | 'none';
  createdAt: string;
}

/** The list row of a public (already renamed) match. */
export function summarize(rec: MatchRecord, m: HostedMatch | null): MatchSummary {
  const s = m?.state;
  const labs = s?.labIds ?? Object.keys(m?.drivers ?? {}).sort();
  const kinds = new Set(
    labs
      .map((l) => m?.drivers[l]?.kind)
      .filter((k) => k !== undefined)
      .map((k) => (k === 'human' ? 'people' : 'models')),
  );
  return {
    id: rec.id,
    task: m?.settings.task ?? '?',
    platform: rec.platform,
    status: rec.status,
    live: rec.status === 'running' && m?.phase === 'running',
    round: !s
      ? 'lobby'
      : s.over
        ? `${s.params.maxRounds}/${s.params.maxRounds}`
        : `${s.round + 1}/${s.params.maxRounds}`,
    seats: m ? labs.map((l) => seatLabel(m, l)) : [],
    players: kinds.size === 0 ? 'none' : kinds.size === 2 ? 'mixed' : kinds.has('people') ? 'people' : 'models',
    createdAt: rec.createdAt,
  };
}

/** List filters (query string of `/`). */
export interface ListFilter {
  task?: string | undefined;
  platform?: string | undefined;
  status?: string | undefined;
  players?: string | undefined;
}

const select = (name: string, label: string, value: string | undefined, options: readonly string[]) =>
  html`<label>${label} <select name="${name}"><option value="">any</option>${options.map((o) => html`<option value="${o}"${o === value ? html` selected` : ''}>${o}</option>`)}</select></label>`;

const badge = (s: MatchSummary) =>
  s.live
    ? html`<span class="badge live">LIVE</span>`
    : html`<span class="badge ${s.status}">${s.status === 'over' ? 'finished' : s.status}</span>`;

/** The match list page. */
export function listPage(
  rows: readonly MatchSummary[],
  f: ListFilter,
  choices: { tasks: string[]; platforms: string[] },
): Html {
  const body = html`<h1>Matches</h1>
<form class="filters" method="get" action="/">${select('task', 'Task', f.task, choices.tasks)} ${select('platform', 'Platform', f.platform, choices.platforms)} ${select('status', 'Status', f.status, ['running', 'lobby', 'over'])} ${select('players', 'Players', f.players, ['people', 'models', 'mixed'])} <button type="submit">Filter</button></form>
${
  rows.length === 0
    ? html`<p>No match matches these filters yet.</p>`
    : html`<table class="matches"><caption>${rows.length} match${rows.length === 1 ? '' : 'es'}, newest first</caption><thead><tr><th scope="col">Match</th><th scope="col">Status</th><th scope="col">Task</th><th scope="col">Round</th><th scope="col">Seats</th><th scope="col">Platform</th></tr></thead><tbody>${rows.map(
        (r) =>
          html`<tr class="${r.live ? 'is-live' : ''}"><td><a href="/matches/${r.id}">${r.id}</a>${r.status === 'over' ? html` · <a href="/matches/${r.id}/replay">replay</a>` : ''}</td><td>${badge(r)}</td><td>${r.task}</td><td>${r.round}</td><td>${r.seats.map((x, i) => html`${i ? ' · ' : ''}${richText(x)}`)}</td><td>${r.platform}</td></tr>`,
      )}</tbody></table>`
}`;
  return page({ title: 'Matches', body });
}

/** The state panels of a public match (replaced whole on every live update). */
export function statePanel(m: HostedMatch, opts: { chartVersion: number | null; matchId: string }): Html {
  const s = m.state;
  if (!s) {
    const seats = Object.keys(m.drivers).sort();
    return html`<section class="panel" aria-label="Lobby"><h2>Lobby</h2><p>${m.phase === 'over' ? 'Cancelled in the lobby.' : 'Waiting for the host to start.'}</p><ul>${seats.map((l) => html`<li>${richText(seatLabel(m, l))}</li>`)}</ul></section>`;
  }
  const v = publicView(s);
  const standings = [...v.labs].sort((a, b) => b.cumulativeReward - a.cumulativeReward || (a.id < b.id ? -1 : 1));
  const offers = v.offers;
  const coalitions = v.coalitions.filter((c) => c.status === 'proposed' || c.status === 'active');
  const round = s.over ? 'Match over' : `Round ${s.round + 1} of ${s.params.maxRounds}`;
  const timer =
    m.roundDeadline !== null && !s.over
      ? html` <span class="timer" data-deadline="${new Date(m.roundDeadline).toISOString()}">closes at ${new Date(m.roundDeadline).toISOString().slice(11, 19)} UTC</span>`
      : '';
  return html`<section class="panel" aria-labelledby="round-h"><h2 id="round-h"><span class="round">${round}</span>${timer}</h2>
<table class="standings"><caption>Standings</caption><thead><tr><th scope="col">#</th><th scope="col">Seat</th><th scope="col">Reward</th><th scope="col" class="opt">Reputation</th><th scope="col">Budget</th><th scope="col" class="opt">Demand</th></tr></thead><tbody>${standings.map(
    (l, i) =>
      html`<tr><td>${i + 1}</td><td>${richText(seatLabel(m, l.id))}${l.finished ? ' (finished)' : ''}</td><td class="num">${fmtReward(l.cumulativeReward)}</td><td class="num opt">${l.reputation.toFixed(2)}</td><td>${l.budgetBand}</td><td class="opt">${l.demandLevel}</td></tr>`,
  )}</tbody></table>
<h3>Open offers</h3>${offers.length ? html`<ul class="offers">${offers.map((o) => html`<li><strong>${o.id}</strong> ${offerTerms(m, o)}${o.message ? html`<br><span class="quote">${o.message}</span>` : ''}</li>`)}</ul>` : html`<p>None.</p>`}
<h3>Coalitions</h3>${coalitions.length ? html`<ul>${coalitions.map((c) => html`<li><strong>${c.id}</strong> (${c.status}): ${c.members.map((l) => labName(m, l)).join(', ')}; consented ${c.consented.map((l) => labName(m, l)).join(', ') || 'nobody yet'}${c.committedBlockIds.length ? `; blocks ${c.committedBlockIds.join(', ')}` : ''}</li>`)}</ul>` : html`<p>None.</p>`}
${opts.chartVersion !== null ? html`<figure><img class="chart" src="/matches/${opts.matchId}/standings.png?v=${opts.chartVersion}" alt="Chart of each seat's cumulative reward after each closed round" width="640" height="360"><figcaption>Standings over rounds</figcaption></figure>` : ''}</section>`;
}

/** The live (or finished) match page: panels and the feed, with the stream URL for live.js. */
export function matchPage(
  rec: MatchRecord,
  m: HostedMatch,
  items: readonly FeedItem[],
  opts: { chartVersion: number | null; demo?: boolean },
): Html {
  const live = rec.status !== 'over' && m.phase !== 'over';
  const title = `${m.settings.task} · ${rec.id}`;
  // A finished match opens no stream (live.js): the demo view only watches for a newer live match.
  const body = html`<div class="match${opts.demo ? ' demo' : ''}"${live ? html` data-stream="/matches/${rec.id}/events"` : ''} data-last-seq="${m.lastSeq}" data-match="${rec.id}"${opts.demo ? html` data-follow="1"` : ''}>
<h1>${opts.demo ? (live ? 'Now playing: ' : 'Last played: ') : ''}${m.settings.task} ${live ? html`<span class="badge live">LIVE</span>` : html`<span class="badge over">${m.phase === 'over' ? 'finished' : m.phase}</span>`}</h1>
<p class="meta">Match <code>${rec.id}</code> · ${rec.platform} · opened ${rec.createdAt.slice(0, 16).replace('T', ' ')} UTC${m.phase === 'over' ? html` · <a href="/matches/${rec.id}/replay">replay round by round</a>` : ''} <span class="conn" role="status" aria-live="polite"></span></p>
<div id="state">${statePanel(m, { chartVersion: opts.chartVersion, matchId: rec.id })}</div>
<section class="feed" aria-labelledby="feed-h"><h2 id="feed-h">What the channel saw</h2><ol id="feed" aria-live="polite">${items.map((i) => i.html)}</ol></section></div>`;
  return page({ title, body, scripts: live || opts.demo ? ['live.js'] : [], bodyClass: opts.demo ? 'demo' : '' });
}

/** A finished match round by round: a scrubber over rounds (replay.js), each round's feed and standings. */
export function replayPage(
  rec: MatchRecord,
  m: HostedMatch,
  items: readonly FeedItem[],
  chartVersion: number | null,
): Html {
  const rounds = m.state?.params.maxRounds ?? 0;
  const points = m.standings ?? [];
  const best = m.state
    ? [...publicView(m.state).labs].sort((a, b) => b.cumulativeReward - a.cumulativeReward)[0]
    : undefined;
  const how = m.state?.over
    ? `after ${points.length} round${points.length === 1 ? '' : 's'}`
    : 'when the match was ended early';
  const byRound = Array.from({ length: rounds + 1 }, (_, r) => items.filter((i) => i.round === r));
  const body = html`<h1>Replay: ${m.settings.task} <span class="badge over">finished</span></h1>
<p class="meta">Match <code>${rec.id}</code> · seed ${m.settings.seed} · <a href="/matches/${rec.id}">match page</a></p>
<p class="result">${best ? html`<strong>Winner: ${richText(seatLabel(m, best.id))}</strong> with ${fmtReward(best.cumulativeReward)} ${how}.` : 'No seats.'}</p>
<div class="scrubber"><label for="scrub">Show up to round <output id="scrub-out" for="scrub">${rounds}</output> of ${rounds}</label> <input id="scrub" type="range" min="0" max="${rounds}" value="${rounds}" step="1"></div>
${byRound.map(
  (list, r) =>
    html`<section class="replay-round" data-round="${r}" aria-labelledby="r${r}-h"><h2 id="r${r}-h">${r === 0 ? 'Lobby' : `Round ${r}`}</h2>${
      points[r - 1]
        ? html`<p class="standing">After round ${r}: ${points[r - 1]!.rows.map((x) => `${labName(m, x.lab)} ${fmtReward(x.cumulativeReward)}`).join(' · ')}</p>`
        : ''
    }<ol class="feed">${list.map((i) => i.html)}</ol></section>`,
)}
${chartVersion !== null ? html`<figure><img class="chart" src="/matches/${rec.id}/standings.png?v=${chartVersion}" alt="Chart of each seat's cumulative reward after each round" width="640" height="360"><figcaption>Standings over rounds</figcaption></figure>` : ''}`;
  return page({ title: `Replay ${rec.id}`, body, scripts: ['replay.js'] });
}

/** The demo page when no match exists yet. */
export function emptyDemoPage(): Html {
  return page({
    title: 'Demo',
    bodyClass: 'demo',
    scripts: ['live.js'],
    body: html`<div class="match demo" data-follow="1"><h1>Waiting for a match</h1><p>This view follows the newest live match by itself. Start one in the channel (<code>new</code>, <code>join</code>, <code>start</code>) or with <code>npm run demo</code>.</p></div>`,
  });
}

/** A short message page (errors, refusals). */
export function messagePage(title: string, text: string): Html {
  return page({ title, body: html`<h1>${title}</h1><p>${richText(text)}</p><p><a href="/">All matches</a></p>` });
}
