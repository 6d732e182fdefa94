/**
 * Reward validity in the eval (docs/RULES.md §7.4): over seeds 0–99 of every task, train and holdout,
 * no do-nothing probe beats random_validish by more than 2 standard errors (SE = std / √n), and
 * rule_based_expert beats every baseline and probe by ≥ 2 SE of the difference with 0 invalid actions.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate } from '../../src/eval/evaluate.js';
import { resolvePlayer } from '../../src/eval/players.js';
import type { EvalRow } from '../../src/eval/stats.js';
import { BASELINES, PROBES } from '../../src/engine/policies/index.js';
import { TASK_NAMES } from '../../src/engine/types.js';

const SEEDS = Array.from({ length: 100 }, (_, i) => i);
const se = (r: EvalRow): number => r.std / Math.sqrt(r.n);

const players = [...BASELINES, ...PROBES].map((name) => {
  const r = resolvePlayer(name);
  assert.ok(r.ok, name);
  return r.player;
});

for (const holdout of [false, true]) {
  describe(`${holdout ? 'holdout' : 'train'} seeds 0–99`, async () => {
    const { rows } = await evaluate({ players, tasks: TASK_NAMES, seeds: SEEDS, holdout });
    const row = (policy: string, task: string): EvalRow => rows.find((r) => r.policy === policy && r.task === task)!;

    for (const task of TASK_NAMES) {
      test(`${task}: no probe beats random_validish + 2 SE`, () => {
        const random = row('random_validish', task);
        const bar = random.mean + 2 * se(random);
        for (const p of PROBES) {
          const r = row(p, task);
          assert.ok(
            r.mean <= bar,
            `${p} ${r.mean.toFixed(4)} > random_validish ${random.mean.toFixed(4)} + 2 SE = ${bar.toFixed(4)}`,
          );
        }
      });
      test(`${task}: rule_based_expert first by ≥ 2 SE, with 0 invalid actions`, () => {
        const e = row('rule_based_expert', task);
        assert.equal(e.invalidPerEpisode, 0);
        for (const p of [...BASELINES, ...PROBES]) {
          if (p === 'rule_based_expert') continue;
          const r = row(p, task);
          const margin = 2 * Math.sqrt(se(e) ** 2 + se(r) ** 2);
          assert.ok(
            e.mean - r.mean >= margin,
            `expert ${e.mean.toFixed(4)} vs ${p} ${r.mean.toFixed(4)} (need ≥ ${margin.toFixed(4)})`,
          );
        }
      });
    }
  });
}
