/**
 * Liveliness (src/eval/liveliness.ts, docs/EVALUATION.md): with late jobs (docs/RULES.md §1.1) the
 * expert on lab_0 still has an open job at ≥ 80 % of the match in market_round and coalition_market.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { hasOpenJob, liveliness, livelinessEpisode } from '../../src/eval/liveliness.js';
import { createMatch, observe } from '../../src/engine/index.js';

const SEEDS = Array.from({ length: 20 }, (_, i) => i);

describe('liveliness', () => {
  test('an open job is pending, short of hours and not past its deadline', () => {
    const obs = observe(createMatch({ task: 'market_round', seed: 3 }), 'lab_0');
    assert.equal(hasOpenJob(obs), true);
    const done = {
      ...obs,
      self: { ...obs.self, jobs: obs.self.jobs.map((j) => ({ ...j, allocatedHours: j.gpuHoursRequired })) },
    };
    assert.equal(hasOpenJob(done), false);
  });
  for (const task of ['market_round', 'coalition_market'] as const) {
    test(`${task}: the expert's fate is sealed at ≥ 80 % of the match on every seed 0–19`, () => {
      const row = liveliness('rule_based_expert', task, SEEDS);
      assert.equal(row.atLeast80, 1, `min ${row.min}`);
      assert.ok(row.mean >= 0.8);
    });
  }
  test('deterministic: the same episode gives the same figure', () => {
    assert.deepEqual(
      livelinessEpisode('rule_based_expert', 'coalition_market', 7),
      livelinessEpisode('rule_based_expert', 'coalition_market', 7),
    );
  });
});
