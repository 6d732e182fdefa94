import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { fitBradleyTerry, quantile } from '../../../src/analytics/ratings/bradley-terry.js';
import { buildLeaderboard } from '../../../src/analytics/ratings/leaderboard.js';
import type { PairOutcome } from '../../../src/analytics/ratings/types.js';
import { syntheticResults, type Synthetic } from './synthetic.js';

const games = (list: [string, string, number][]): PairOutcome[] =>
  list.map(([a, b, score], i) => ({ matchId: `g${i}`, a, b, score }));
const repeat = (n: number, g: [string, string, number]): [string, string, number][] =>
  Array.from({ length: n }, () => g);

describe('Bradley–Terry fit', () => {
  test('a chain A–B, B–C matches the closed-form maximum-likelihood values to 1e-3', () => {
    // A beats B 3 times and loses once; B beats C twice and loses once; A and C never meet. The comparison
    // graph is a tree, so the likelihood factorises into one two-player problem per edge, each maximised
    // where the strength ratio equals the win ratio: pA/pB = 3/1 and pB/pC = 2/1. Without a prior the
    // scale is fixed by pA·pB·pC = 1, so 3pB · pB · pB/2 = 1, pB = (2/3)^(1/3) = 0.873580, pA = 2.620741,
    // pC = 0.436790. On the Elo-like scale 1000 + 400·log10(p) (worked by hand with log10 3 = 0.4771213,
    // log10 2 = 0.3010300, log10(2/3)/3 = −0.0586971):
    //   A = 1000 + 400·(0.4771213 − 0.0586971) = 1167.3697
    //   B = 1000 + 400·(−0.0586971)            =  976.5212
    //   C = 1000 + 400·(−0.0586971 − 0.3010300) =  856.1092
    const g = games([...repeat(3, ['A', 'B', 1]), ['A', 'B', 0], ...repeat(2, ['B', 'C', 1]), ['B', 'C', 0]]);
    const fit = fitBradleyTerry(g, { prior: 0 });
    assert.ok(Math.abs(fit.get('A')! - 1167.3697) < 1e-3, `A ${fit.get('A')}`);
    assert.ok(Math.abs(fit.get('B')! - 976.5212) < 1e-3, `B ${fit.get('B')}`);
    assert.ok(Math.abs(fit.get('C')! - 856.1092) < 1e-3, `C ${fit.get('C')}`);
  });

  test('ties count half a win to each side: two players with only ties are equal', () => {
    const fit = fitBradleyTerry(games(repeat(4, ['A', 'B', 0.5])), { prior: 0 });
    assert.ok(Math.abs(fit.get('A')! - 1000) < 1e-6 && Math.abs(fit.get('B')! - 1000) < 1e-6);
  });

  test('with the default prior a player who never lost stays finite and ranks first', () => {
    const fit = fitBradleyTerry(games([...repeat(5, ['A', 'B', 1]), ...repeat(3, ['B', 'C', 1])]));
    const [a, b, c] = ['A', 'B', 'C'].map((x) => fit.get(x)!);
    assert.ok(Number.isFinite(a!) && a! > b! && b! > c!, `${a} > ${b} > ${c}`);
  });

  test('property: swapping who is "a" in every game does not change the fit', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom('A', 'B', 'C', 'D'),
            fc.constantFrom('A', 'B', 'C', 'D'),
            fc.constantFrom(0, 0.5, 1),
          ),
          { minLength: 1, maxLength: 30 },
        ),
        (list) => {
          const g = games(list.filter(([a, b]) => a !== b));
          const flipped = g.map((x) => ({ ...x, a: x.b, b: x.a, score: 1 - x.score }));
          const f1 = fitBradleyTerry(g);
          const f2 = fitBradleyTerry(flipped);
          for (const [id, r] of f1) assert.ok(Math.abs(r - f2.get(id)!) < 1e-6);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('ratings on synthetic matches', () => {
  const players: Synthetic[] = [
    { id: 'strong', kind: 'scripted', strength: 2 },
    { id: 'ada', kind: 'person', strength: 1 },
    { id: 'gpt-x', kind: 'llm', strength: 0.5 },
    { id: 'weak', kind: 'scripted', strength: 0 },
    { id: 'bob', kind: 'person', strength: 0.2 },
  ];

  test('the player with the known highest strength ranks first (BT and openskill)', () => {
    const table = buildLeaderboard(syntheticResults(players, 60, { noise: 1.2 }), { samples: 100 });
    assert.equal(table.rows[0]!.player.id, 'scripted:strong');
    const byOrdinal = [...table.rows].sort((a, b) => b.ordinal - a.ordinal);
    assert.equal(byOrdinal[0]!.player.id, 'scripted:strong');
    assert.equal(table.rows.at(-1)!.player.id, 'scripted:weak');
  });

  test('intervals shrink as matches are added', () => {
    const all = syntheticResults(players, 160, { noise: 1.2, seed: 'shrink' });
    const width = (n: number) => {
      const ws = buildLeaderboard(all.slice(0, n), { samples: 150, seed: 'w' }).rows.map((x) => x.hi - x.lo);
      return ws.reduce((a, b) => a + b, 0) / ws.length;
    };
    const [w10, w40, w160] = [width(10), width(40), width(160)];
    assert.ok(
      w10 > w40 && w40 > w160,
      `mean interval width ${w10.toFixed(1)} > ${w40.toFixed(1)} > ${w160.toFixed(1)}`,
    );
    assert.ok(w160 < w10 / 2, 'sixteen times the matches at least halve the width');
  });

  test('the bootstrap is seeded: the same input and seed give the same table; the seed moves only the intervals', () => {
    const res = syntheticResults(players, 20);
    const a = buildLeaderboard(res, { samples: 50, seed: 's1' });
    const b = buildLeaderboard(res, { samples: 50, seed: 's1' });
    assert.deepEqual(a, b);
    const c = buildLeaderboard(res, { samples: 50, seed: 's2' });
    assert.deepEqual(
      a.rows.map((r) => r.rating),
      c.rows.map((r) => r.rating),
      'point estimates do not depend on the seed',
    );
  });

  test('people vs models: the people lose to the strong policy and beat the weak one, with intervals in [0, 1]', () => {
    const table = buildLeaderboard(syntheticResults(players, 80, { noise: 1 }), { samples: 100 });
    const vs = new Map(table.peopleVsModels.map((x) => [x.opponent.id, x]));
    const strong = vs.get('scripted:strong')!;
    const weak = vs.get('scripted:weak')!;
    assert.ok(strong.winRate < 0.3 && weak.winRate > 0.5, `${strong.winRate} ${weak.winRate}`);
    for (const x of table.peopleVsModels)
      assert.ok(x.lo >= 0 && x.hi <= 1 && x.lo <= x.winRate + 1e-9 && x.winRate <= x.hi + 1e-9);
    assert.equal(vs.has('person:ada'), false, 'people are not opponents of people');
  });

  test('kind filter: people only / models only', () => {
    const res = syntheticResults(players, 30);
    assert.deepEqual(
      new Set(buildLeaderboard(res, { kind: 'people', samples: 20 }).rows.map((r) => r.player.kind)),
      new Set(['person']),
    );
    assert.deepEqual(
      new Set(buildLeaderboard(res, { kind: 'models', samples: 20 }).rows.map((r) => r.player.kind)),
      new Set(['llm', 'scripted']),
    );
  });

  test('quantile interpolates linearly', () => {
    assert.equal(quantile([0, 10], 0.25), 2.5);
    assert.equal(quantile([1, 2, 3, 4, 5], 0.5), 3);
  });
});
