import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { breakdownSpec } from '../../../src/analytics/charts/builders.js';
import { renderChart } from '../../../src/analytics/charts/request.js';
import { sampleMatch } from '../../../src/analytics/charts/samples.js';

import { breakdownChart, chartLabel } from '../../../src/present/charts.js';
import { replay } from '../../../src/match/replay.js';
import { RULES_VERSION } from '../../../src/engine/index.js';
import type { HostedMatch, StoredEvent } from '../../../src/match/types.js';

/** `m` where `lab` finished in the first round (every later round closed by scripted seats). */
function withEarlyFinish(task: 'market_round' | 'coalition_market', seed: number): HostedMatch {
  const m0 = sampleMatch(task, seed);
  const first: StoredEvent[] = [];
  const at = (k: number) => new Date(Date.UTC(2026, 0, 2, 0, k)).toISOString();
  const drivers = Object.fromEntries(
    Object.entries(m0.drivers).map(([lab, d]) => [
      lab,
      lab === 'lab_0' ? { kind: 'human', userId: 'u:ada', displayName: 'Ada' } : d,
    ]),
  );
  first.push({
    matchId: 'm_f',
    seq: 1,
    at: at(1),
    body: { type: 'match_created', channelId: 'c', platform: 'test', hostUserId: 'u:ada', settings: m0.settings },
  });
  first.push({
    matchId: 'm_f',
    seq: 2,
    at: at(2),
    body: { type: 'match_started', drivers, rulesVersion: RULES_VERSION },
  });
  first.push({
    matchId: 'm_f',
    seq: 3,
    at: at(3),
    body: { type: 'action', lab: 'lab_0', userId: 'u:ada', action: { action_type: 'finish' } },
  });
  let m = replay(first)!;
  while (m.phase === 'running' && m.state) {
    m = replay(
      [
        {
          matchId: m.id,
          seq: m.lastSeq + 1,
          at: at(m.lastSeq + 1),
          body: { type: 'round_closed', round: m.state.round, reason: 'all_done', judge: null },
        },
      ],
      m,
    )!;
  }
  return m;
}

describe('the reward-breakdown chart', () => {
  test("each seat's parts sum to its leaderboard total, finished seats included", () => {
    const matches = [
      sampleMatch('coalition_market', 7),
      sampleMatch('market_round', 3),
      sampleMatch('single_trade', 5),
      withEarlyFinish('coalition_market', 11),
      withEarlyFinish('market_round', 4),
    ];
    for (const m of matches) {
      assert.equal(m.phase, 'over');
      const rows = breakdownChart(m).rows as { seat: string; part: string; value: number }[];
      for (const lab of m.state!.labIds) {
        const seat = chartLabel(m, lab);
        assert.ok(!/[\uE000-\uE005👤🤖]/u.test(seat), 'no emoji or player-text marker reaches the chart font');
        const mine = rows.filter((r) => r.seat === seat);
        assert.ok(mine.length > 0, `${seat} is in the chart`);
        const sum = mine.reduce((a, r) => a + r.value, 0);
        assert.ok(
          Math.abs(sum - m.state!.seats[lab]!.cumulativeReward) < 1e-6,
          `${seat}: parts ${sum} vs total ${m.state!.seats[lab]!.cumulativeReward}`,
        );
      }
    }
    const finished = withEarlyFinish('coalition_market', 11);
    assert.ok(finished.state!.labs['lab_0']!.finished, 'the early finisher finished');
  });

  test('a category keeps its colour whatever else appears; totals are written; seat labels are never cut', async () => {
    const a = breakdownSpec('a', [
      { seat: 'Lab A', part: 'jobs', value: 1 },
      { seat: 'Lab A', part: 'deals', value: 0.2 },
    ]);
    const b = breakdownSpec('b', [
      { seat: 'Lab B', part: 'deals', value: 0.1 },
      { seat: 'Lab B', part: 'caps', value: -0.3 },
    ]);
    const colours = (spec: unknown) => {
      const enc = (spec as { layer: { encoding: { color?: { scale: { domain: string[]; range: string[] } } } }[] })
        .layer[0]!.encoding.color!.scale;
      return Object.fromEntries(enc.domain.map((d, i) => [d, enc.range[i]]));
    };
    assert.equal(colours(a)['deals'], colours(b)['deals']);
    assert.notEqual(colours(a)['jobs'], colours(a)['deals']);
    const long = 'Lab B (scripted: deadline_panicked)';
    const out = await renderChart({
      kind: 'breakdown',
      name: 'x',
      title: 't',
      rows: [
        { seat: long, part: 'jobs', value: 0.9 },
        { seat: 'Lab A (Ada)', part: 'refused actions', value: -0.2 },
      ],
    });
    assert.ok(out.svg.includes('deadline_panicked'), 'the whole seat label is drawn');
    assert.ok(!out.svg.includes('…'), 'no label is truncated');
    assert.ok(out.svg.includes('+0.900') && /[−-]0\.200/.test(out.svg), 'each seat total is written');
  });

  test('the standings legend names every seat in full', async () => {
    const long = 'Lab B (scripted: deadline_panicked, a long label that used to be cut)';
    const out = await renderChart({
      kind: 'standings',
      name: 's',
      title: 't',
      rows: [1, 2].flatMap((round) => [
        { round, seat: long, cumulativeReward: 0.1 * round },
        { round, seat: 'Lab A (Ada)', cumulativeReward: 0.2 },
      ]),
    });
    assert.ok(!out.svg.includes('…'), 'no legend label is truncated');
    assert.ok(out.svg.includes('a long label that used to be cut'), 'the legend entry in full');
  });
});
