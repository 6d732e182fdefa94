/**
 * Chart requests of a hosted match (pure): its standings and reward breakdown. What a request carries is
 * what its chart shows, so the privacy of a chart is decided here (see each function). Ratings, eval and
 * preference charts are requested in src/analytics/charts/requests.ts.
 */
import type { ChartRequest } from '../chat/types.js';
import { REWARD_COLUMNS, REWARD_WEIGHTS } from '../engine/reward.js';
import { currentStandings, seatLabel } from './common.js';
import type { HostedMatch } from '../match/types.js';

/**
 * Cumulative reward per seat after each closed round (public: the round-close leaderboards already show
 * these numbers). When every seat finished mid-round the final standings are the last point.
 */
export function standingsChart(m: HostedMatch): ChartRequest {
  const rows: ChartRequest['rows'] = [];
  const seat = (lab: string) => seatLabel(m, lab);
  const points = m.standings ?? [];
  for (const p of points) for (const r of p.rows) rows.push({ round: p.round, seat: seat(r.lab), cumulativeReward: r.cumulativeReward });
  const last = points.at(-1);
  const now = currentStandings(m);
  const moved = now.some((x) => last?.rows.find((r) => r.lab === x.lab)?.cumulativeReward !== x.cumulativeReward);
  // A match that ended by every seat finishing mid-round: its final standings are one more point.
  if (m.phase === 'over' && now.length > 0 && moved) for (const x of now) rows.push({ round: (last?.round ?? 0) + 1, seat: seat(x.lab), cumulativeReward: x.cumulativeReward });
  return { kind: 'standings', name: 'standings', title: `Standings over rounds (${m.settings.task})`, rows };
}

/**
 * Each seat's reward parts summed over the closed rounds, weighted as in the normalized reward (RULES §4),
 * so a column's stack is the seat's unclamped reward. Private during a match; posted only once the match is
 * over, when the seed (which determines every private value) is revealed too.
 */
export function breakdownChart(m: HostedMatch): ChartRequest {
  const totals = new Map<string, Map<string, number>>();
  for (const p of m.standings ?? []) {
    for (const r of p.rows) {
      const t = totals.get(r.lab) ?? new Map<string, number>();
      for (const c of REWARD_COLUMNS) t.set(c, (t.get(c) ?? 0) + (r.breakdown?.[c] ?? 0) * REWARD_WEIGHTS[c]);
      totals.set(r.lab, t);
    }
  }
  const rows: ChartRequest['rows'] = [];
  for (const [lab, t] of totals) for (const [part, value] of t) if (Math.abs(value) > 1e-9) rows.push({ seat: seatLabel(m, lab), part, value });
  return { kind: 'breakdown', name: 'reward-breakdown', title: 'Final reward breakdown per seat (weighted parts, sum over rounds)', rows };
}
