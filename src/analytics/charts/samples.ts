/**
 * Sample data for the chart bench and the figures of docs/RATINGS-AND-CHARTS.md (pure, seeded): a real scripted match replayed
 * from synthetic events, a ratings table of synthetic results, the eval figures of docs/EVALUATION.md and example
 * preference numbers. Nothing here is played or stored.
 */
import seedrandom from 'seedrandom';
import type { ChartRequest } from '../../chat/types.js';
import { RULES_VERSION, labIdsFor } from '../../engine/index.js';
import type { PolicyName, TaskName } from '../../engine/types.js';
import { buildLeaderboard } from '../ratings/leaderboard.js';
import { rankSeats } from '../ratings/results.js';
import type { MatchResult, PlayerKind } from '../ratings/types.js';
import { replay } from '../../match/replay.js';
import type { HostedMatch, MatchEventBody, SeatDriver, StoredEvent } from '../../match/types.js';
import { breakdownChart, standingsChart } from '../../present/charts.js';
import { evalChart, preferenceChart, ratingsChart } from './requests.js';

const POLICIES: PolicyName[] = ['rule_based_expert', 'cooperative', 'selfish', 'retaliatory', 'deceptive'];

/** A finished match of scripted seats (lab_0 shown as the person "Ada"): created, started and every round closed with no judge. */
export function sampleMatch(task: TaskName = 'coalition_market', seed = 7): HostedMatch {
  const labs = labIdsFor(task, seed);
  const drivers: Record<string, SeatDriver> = {};
  labs.forEach((lab, i) => (drivers[lab] = { kind: 'scripted', policy: POLICIES[i % POLICIES.length]! }));
  const bodies: MatchEventBody[] = [
    {
      type: 'match_created',
      channelId: 'sample',
      platform: 'sample',
      hostUserId: 'sample:host',
      settings: { task, seed, roundSeconds: 0, holdout: false },
    },
    { type: 'match_started', drivers, rulesVersion: RULES_VERSION },
  ];
  const events: StoredEvent[] = bodies.map((body, i) => ({
    matchId: 'm_sample',
    seq: i + 1,
    at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    body,
  }));
  let m = replay(events)!;
  while (m.phase === 'running' && m.state) {
    const ev: StoredEvent = {
      matchId: m.id,
      seq: m.lastSeq + 1,
      at: new Date(Date.UTC(2026, 0, 1, 1, m.lastSeq)).toISOString(),
      body: { type: 'round_closed', round: m.state.round, reason: 'all_done', judge: null },
    };
    m = replay([ev], m)!;
  }
  const first = labs[0]!;
  return { ...m, drivers: { ...m.drivers, [first]: { kind: 'human', userId: 'sample:ada', displayName: 'Ada' } } };
}

/** Synthetic free-for-all results of people, LLM models and scripted policies with known strengths. */
export function sampleResults(n = 60, seed = 'sample'): MatchResult[] {
  const players: { id: string; kind: PlayerKind; strength: number }[] = [
    { id: 'rule_based_expert', kind: 'scripted', strength: 1.6 },
    { id: 'Ada', kind: 'person', strength: 1.2 },
    { id: 'gpt-4o-mini', kind: 'llm', strength: 0.9 },
    { id: 'Bo', kind: 'person', strength: 0.7 },
    { id: 'cooperative', kind: 'scripted', strength: 0.5 },
    { id: 'selfish', kind: 'scripted', strength: 0.3 },
    { id: 'greedy_hoarder', kind: 'scripted', strength: 0 },
  ];
  const rng = seedrandom(seed);
  const out: MatchResult[] = [];
  for (let k = 0; k < n; k++) {
    const pool = [...players];
    const seats = [0, 1, 2].map((s) => {
      const p = pool.splice(Math.floor(rng() * pool.length), 1)[0]!;
      return {
        lab: `lab_${s}`,
        player: { id: `${p.kind}:${p.id}`, kind: p.kind, name: p.id },
        reward: p.strength + (rng() * 2 - 1) * 1.2,
      };
    });
    out.push({
      matchId: `m${k}`,
      task: 'market_round',
      platform: 'sample',
      endedAt: new Date(Date.UTC(2026, 0, 1, k)).toISOString(),
      seats: rankSeats(seats),
      hostSeeded: false,
    });
  }
  return out;
}

/** The eval figures of docs/EVALUATION.md (seeds 0–199; SE = std / √200). */
const EVAL_README: [string, [number, number][]][] = [
  [
    'random_validish',
    [
      [0.0475, 0.1049],
      [0.0441, 0.1359],
      [0.0894, 0.2127],
    ],
  ],
  [
    'greedy_hoarder',
    [
      [0.1874, 0.1511],
      [0.2186, 0.1495],
      [0.2853, 0.1552],
    ],
  ],
  [
    'always_accept',
    [
      [0.198, 0.1453],
      [0.2315, 0.1412],
      [0.2928, 0.1577],
    ],
  ],
  [
    'no_negotiation_allocator',
    [
      [0.2019, 0.1445],
      [0.3853, 0.1994],
      [0.6369, 0.2609],
    ],
  ],
  [
    'base_instruct_naive',
    [
      [0.198, 0.1453],
      [0.2288, 0.1405],
      [0.2881, 0.1616],
    ],
  ],
  [
    'rule_based_expert',
    [
      [0.6986, 0.1629],
      [1.1702, 0.2595],
      [1.942, 0.3137],
    ],
  ],
];

/** One sample request of every chart kind, in a fixed order. */
export function sampleCharts(): ChartRequest[] {
  const m = sampleMatch();
  const table = buildLeaderboard(sampleResults(), { samples: 200 });
  const tasks = ['single_trade', 'market_round', 'coalition_market'];
  return [
    standingsChart(m),
    breakdownChart(m),
    ratingsChart(table.rows, `Ratings (${table.matches} sample matches)`, undefined, table.people),
    evalChart(
      EVAL_README.flatMap(([policy, cells]) =>
        cells.map(([mean, std], i) => ({ policy, task: tasks[i]!, mean, se: std / Math.sqrt(200) })),
      ),
    ),
    preferenceChart(
      {
        agreement: { value: 0.71, lo: 0.62, hi: 0.79 },
        kappa: { value: 0.42, lo: 0.3, hi: 0.54 },
        positionBias: { value: 0.55, lo: 0.48, hi: 0.61 },
      },
      'Preference votes (example numbers)',
    ),
  ];
}
