/**
 * Chart requests of a hosted match (pure): its standings and reward breakdown. What a request carries is
 * what its chart shows, so the privacy of a chart is decided here (see each function). Ratings, eval and
 * preference charts are requested in src/analytics/charts/requests.ts.
 */
import type { ChartRequest } from '../chat/types.js';
import { currentStandings, seatLabel } from './common.js';
import { categoryTotals } from './ledger.js';
import { seatEntries } from '../match/ledger.js';
import type { HostedMatch } from '../match/types.js';

/**
 * A seat's label as a chart draws it: the chart font has no emoji and must not see the player-text
 * markers (src/chat/player-text.ts), so "Lab A (👤 Ada)" becomes "Lab A (Ada)", "Lab C (🤖 LLM: x)" "Lab C (LLM: x)".
 */
export function chartLabel(m: HostedMatch, lab: string): string {
  return seatLabel(m, lab)
    .replace(/[\uE000-\uE005]/g, '')
    .replace(/(👤|🤖)\s?/gu, '');
}

/**
 * Cumulative reward per seat after each closed round (public: the round-close leaderboards already show
 * these numbers). When every seat finished mid-round the final standings are the last point.
 */
export function standingsChart(m: HostedMatch): ChartRequest {
  const rows: ChartRequest['rows'] = [];
  const seat = (lab: string) => chartLabel(m, lab);
  const points = m.standings ?? [];
  for (const p of points)
    for (const r of p.rows) rows.push({ round: p.round, seat: seat(r.lab), cumulativeReward: r.cumulativeReward });
  const last = points.at(-1);
  const now = currentStandings(m);
  const moved = now.some((x) => last?.rows.find((r) => r.lab === x.lab)?.cumulativeReward !== x.cumulativeReward);
  // A match that ended by every seat finishing mid-round: its final standings are one more point.
  if (m.phase === 'over' && now.length > 0 && moved)
    for (const x of now)
      rows.push({ round: (last?.round ?? 0) + 1, seat: seat(x.lab), cumulativeReward: x.cumulativeReward });
  return { kind: 'standings', name: 'standings', title: `Standings over rounds (${m.settings.task})`, rows };
}

/**
 * Each seat's total split into the ledger's categories (src/present/ledger.ts): jobs, deals, pitch bonus,
 * penalties, caps… A seat's parts sum to its leaderboard total, finished seats included. Private during a
 * match; posted only once the match is over, when the seed (which determines every private value) is
 * revealed too.
 */
export function breakdownChart(m: HostedMatch): ChartRequest {
  const rows: ChartRequest['rows'] = [];
  for (const lab of m.state?.labIds ?? []) {
    const seat = chartLabel(m, lab);
    const parts = categoryTotals(seatEntries(m.ledger, lab));
    for (const c of parts) rows.push({ seat, part: c.label, value: c.amount });
    // A seat with no reward at all still gets its row (a zero bar), so nobody is missing from the chart.
    if (parts.length === 0) rows.push({ seat, part: 'jobs', value: 0 });
  }
  return {
    kind: 'breakdown',
    name: 'reward-breakdown',
    title: "Where each seat's reward came from (sums to its total)",
    rows,
  };
}
