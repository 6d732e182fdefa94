/**
 * Chart requests built from the project's data (pure): a hosted match's standings and reward breakdown, a
 * ratings table, eval rows, preference statistics. What a request carries is what its chart shows, so the
 * privacy of a chart is decided here (see each function).
 */
import type { ChartRequest } from '../chat/types';
import { REWARD_COLUMNS, REWARD_WEIGHTS } from '../env/reward';
import type { RatedPlayer } from '../ratings/types';
import { currentStandings, seatLabel } from '../round/render-common';
import type { HostedMatch } from '../round/types';

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

/** Ratings with their intervals; `label` maps a player to what the chart shows (a pseudonym in exports). */
export function ratingsChart(rows: readonly RatedPlayer[], title: string, label: (r: RatedPlayer) => string = (r) => r.player.name): ChartRequest {
  const kind = { person: 'person', llm: 'LLM model', scripted: 'scripted policy' } as const;
  return {
    kind: 'ratings',
    name: 'ratings',
    title,
    rows: rows.map((r) => ({ player: label(r), kind: kind[r.player.kind], rating: r.rating, lo: r.lo, hi: r.hi })),
  };
}

/** Mean ± standard error of the episode reward per policy and task (the eval table). */
export function evalChart(rows: readonly { policy: string; task: string; mean: number; se: number }[], title = 'Episode reward per policy and task (mean ± SE)'): ChartRequest {
  return { kind: 'eval', name: 'eval', title, rows: rows.map((r) => ({ policy: r.policy, task: r.task, mean: r.mean, se: r.se })) };
}

/**
 * Preference statistics from plain numbers (for the preference-stats CLI): agreement with the judge and
 * Cohen's kappa (with optional 95 % intervals), position bias as the share of votes for the pitch shown
 * first (0.5 = none; dashed line). Any value left out is not drawn.
 */
export function preferenceChart(
  stats: {
    agreement?: number | { value: number; lo: number; hi: number };
    kappa?: number | { value: number; lo: number; hi: number };
    positionBias?: number | { value: number; lo: number; hi: number };
  },
  title = 'Preference votes: agreement, kappa, position bias',
): ChartRequest {
  const row = (metric: string, v: number | { value: number; lo: number; hi: number } | undefined) =>
    v === undefined ? [] : [typeof v === 'number' ? { metric, value: v, lo: null, hi: null } : { metric, value: v.value, lo: v.lo, hi: v.hi }];
  return {
    kind: 'preference',
    name: 'preference',
    title,
    rows: [...row('Agreement with the judge', stats.agreement), ...row("Cohen's kappa", stats.kappa), ...row('Votes for pitch shown first', stats.positionBias)],
  };
}
