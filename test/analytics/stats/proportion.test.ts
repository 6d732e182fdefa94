/**
 * The exact (Clopper–Pearson) interval against its closed forms: with no success the upper bound is
 * 1 − (α/2)^(1/n), with all successes the lower bound is (α/2)^(1/n), and one success in two gives
 * 1 − √0.975 and √0.975; the interval of n − x mirrors that of x; and over fractional counts (ties ½) both
 * bounds grow with x while the width stays positive. Kappa of a table by hand.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { clopperPearson } from '../../../src/analytics/stats/proportion.js';
import { kappaOfTable } from '../../../src/analytics/stats/kappa.js';

const near = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) < 1e-9, `${what}: ${a} ≠ ${b}`);

describe('Clopper–Pearson', () => {
  test('closed forms at the edges and at 1 of 2', () => {
    for (const n of [1, 2, 5, 50]) {
      const none = clopperPearson(0, n)!;
      near(none.lo, 0, `0 of ${n}: lower`);
      near(none.hi, 1 - 0.025 ** (1 / n), `0 of ${n}: upper`);
      const all = clopperPearson(n, n)!;
      near(all.lo, 0.025 ** (1 / n), `${n} of ${n}: lower`);
      near(all.hi, 1, `${n} of ${n}: upper`);
    }
    // Beta(1, 2) has CDF 1 − (1 − t)², Beta(2, 1) has CDF t².
    const half = clopperPearson(1, 2)!;
    near(half.lo, 1 - Math.sqrt(0.975), '1 of 2: lower');
    near(half.hi, Math.sqrt(0.975), '1 of 2: upper');
    assert.equal(clopperPearson(0, 0), null, 'no trial: no interval');
    assert.equal(clopperPearson(3, 2), null, 'more successes than trials: no interval');
  });

  test('property: mirrored, monotone in x (fractional too), never of zero width', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 80 }), fc.integer({ min: 0, max: 160 }), (n, k) => {
        const x = Math.min(n, k / 2);
        const c = clopperPearson(x, n)!;
        const m = clopperPearson(n - x, n)!;
        near(c.lo, 1 - m.hi, 'mirror lower');
        near(c.hi, 1 - m.lo, 'mirror upper');
        assert.ok(c.hi - c.lo > 0 && c.lo <= x / n + 1e-12 && x / n <= c.hi + 1e-12);
        if (x + 0.5 <= n) {
          const up = clopperPearson(x + 0.5, n)!;
          assert.ok(up.lo >= c.lo - 1e-12 && up.hi >= c.hi - 1e-12, 'more successes, higher bounds');
        }
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});

describe('kappa of a table', () => {
  test('by hand, and undefined with one class', () => {
    // p_o = (9 + 9 + 1)/23, p_e = (11·11 + 10·10 + 2·2)/23² = 225/529 → (437 − 225)/(529 − 225) = 212/304.
    near(
      kappaOfTable([
        [9, 1, 1],
        [1, 9, 0],
        [1, 0, 1],
      ])!,
      212 / 304,
      'kappa',
    );
    near(
      kappaOfTable([
        [5, 0],
        [0, 5],
      ])!,
      1,
      'perfect',
    );
    assert.equal(
      kappaOfTable([
        [4, 0],
        [0, 0],
      ]),
      null,
      'one class: p_e = 1',
    );
    assert.equal(
      kappaOfTable([
        [0, 0],
        [0, 0],
      ]),
      null,
      'empty',
    );
  });
});
