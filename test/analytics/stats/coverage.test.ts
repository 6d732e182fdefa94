/**
 * Do the nominal 95 % intervals hold the truth about 95 % of the time? Synthetic leagues and raters with
 * known truths (simulate.ts): rating intervals at 1, 2, 5 matches a player (the model's, preliminary) and at
 * 30 (the bootstrap's), for three-seat matches; people's win rate (Clopper–Pearson) at 1, 2, 5 and 50
 * matches; kappa at 20 and 60 pairs. The figures are printed as diagnostics; COVERAGE_SCALE=10 runs ten
 * times the leagues (the figures in docs/RATINGS-AND-CHARTS.md and docs/PREFERENCE-DATA.md).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { kappaCoverage, ratingCoverage, winRateCoverage, type Coverage } from './simulate.js';

const SCALE = Number(process.env.COVERAGE_SCALE ?? 1);
const fmt = (c: Coverage) =>
  `${(c.share * 100).toFixed(1)} % of ${c.total} (mean width ${c.width.toFixed(c.width > 5 ? 0 : 3)})`;

describe('coverage of the 95 % intervals on synthetic data', () => {
  for (const perPlayer of [1, 2, 5]) {
    test(`ratings, ${perPlayer} match${perPlayer === 1 ? '' : 'es'} a player (model interval, preliminary)`, (t) => {
      const c = ratingCoverage({ leagues: 120 * SCALE, players: 6, seats: 3, perPlayer, seed: `cov-${perPlayer}` });
      t.diagnostic(`rating coverage at ${perPlayer} matches a player: ${fmt(c)}`);
      // Valid (at least nominal, within simulation error) and not absurdly wide.
      assert.ok(c.share >= 0.93, fmt(c));
      assert.ok(c.width < 1400, fmt(c));
    });
  }
  test('ratings, 30 matches a player (bootstrap over matches)', (t) => {
    const c = ratingCoverage({
      leagues: 12 * SCALE,
      players: 6,
      seats: 3,
      perPlayer: 30,
      samples: 200,
      seed: 'cov-30',
    });
    t.diagnostic(`rating coverage at 30 matches a player (bootstrap): ${fmt(c)}`);
    assert.ok(c.share >= 0.88 && c.share <= 0.995, fmt(c));
  });
  for (const n of [1, 2, 5, 50]) {
    test(`people's win rate over ${n} match${n === 1 ? '' : 'es'} (Clopper–Pearson)`, (t) => {
      const c = winRateCoverage({ reps: 2000 * SCALE, n, p: 0.35, ties: 0.1, seed: `wr-${n}` });
      t.diagnostic(`win-rate coverage over ${n} matches: ${fmt(c)}`);
      assert.ok(c.share >= 0.94, fmt(c));
    });
  }
  for (const n of [20, 60]) {
    test(`kappa over ${n} pairs (Dirichlet posterior)`, (t) => {
      const cells = [
        [0.35, 0.05, 0.02],
        [0.05, 0.35, 0.02],
        [0.03, 0.03, 0.1],
      ];
      const c = kappaCoverage({ reps: 80 * SCALE, n, cells, draws: 400, seed: `kappa-${n}` });
      t.diagnostic(`kappa coverage over ${n} pairs: ${fmt(c)}`);
      assert.ok(c.share >= 0.88, fmt(c));
    });
  }
});
