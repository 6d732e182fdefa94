/**
 * src/engine/rng.ts is a hand copy of seedrandom's Tyche-i (seedrandom/lib/tychei.js): every seeded draw
 * of the engine must stay bit for bit what `seedrandom.tychei` gives for the seed string
 * `${seed}:${round}:${purpose}`, or every world and episode of the same RULES_VERSION changes
 * (test/engine/golden.test.ts). Compared over 360,000 doubles and, through the engine's range helpers
 * (util.ts: uniform2, pick), 60,000 ranged draws.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import seedrandom from 'seedrandom';
import { rng } from '../../src/engine/rng.js';
import { pick, uniform2 } from '../../src/engine/util.js';

const SEEDS = [0, 1, 42, 123456, Number.MAX_SAFE_INTEGER];
const PURPOSES: readonly [number, string][] = [
  [0, 'params:coalition_market'],
  [0, 'world:market_round'],
  [0, 'shocks:single_trade'],
  [3, 'policy:lab_1'],
  [2, 'shock:emergency_auction'],
  [9, 'judge'],
];
const DRAWS = 12_000;
const WHY =
  'src/engine/rng.ts no longer draws what seedrandom.tychei draws: every seeded world and episode changes; restore it (an accidental change is a bug)';

test(`rng draws what seedrandom's tychei draws (${SEEDS.length * PURPOSES.length * DRAWS} doubles, ${SEEDS.length} seeds × ${PURPOSES.length} purposes)`, () => {
  let compared = 0;
  for (const seed of SEEDS) {
    for (const [round, purpose] of PURPOSES) {
      const ours = rng(seed, round, purpose);
      const ref = seedrandom.tychei(`${seed}:${round}:${purpose}`);
      for (let i = 0; i < DRAWS; i++) {
        const a = ours();
        const b = ref();
        if (a !== b) assert.fail(`${WHY}: seed ${seed}, round ${round}, ${purpose}, draw ${i}: ${a} ≠ ${b}`);
        compared++;
      }
    }
  }
  assert.equal(compared, SEEDS.length * PURPOSES.length * DRAWS);
});

test('the range helpers over rng draw what they draw over seedrandom (60,000 ranged draws)', () => {
  const xs = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
  for (const seed of SEEDS) {
    const ours = rng(seed, 1, 'world:coalition_market');
    const ref = seedrandom.tychei(`${seed}:1:world:coalition_market`);
    for (let i = 0; i < 6_000; i++) {
      const u = uniform2(ours, 0.5, 0.99);
      const v = uniform2(ref, 0.5, 0.99);
      if (u !== v) assert.fail(`${WHY}: uniform2, seed ${seed}, draw ${i}: ${u} ≠ ${v}`);
      const p = pick(ours, xs);
      const q = pick(ref, xs);
      if (p !== q) assert.fail(`${WHY}: pick, seed ${seed}, draw ${i}: ${p} ≠ ${q}`);
    }
  }
});

test('a generator is a pure function of (seed, round, purpose): each part changes the stream', () => {
  const first = (seed: number, round: number, purpose: string) => Array.from({ length: 4 }, rng(seed, round, purpose));
  const base = first(7, 2, 'judge');
  assert.deepEqual(first(7, 2, 'judge'), base);
  assert.notDeepEqual(first(8, 2, 'judge'), base);
  assert.notDeepEqual(first(7, 3, 'judge'), base);
  assert.notDeepEqual(first(7, 2, 'arrivals'), base);
});
