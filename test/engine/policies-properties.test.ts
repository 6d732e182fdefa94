import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ArenaEnv } from '../../src/engine/gym.js';
import { observe, rng } from '../../src/engine/index.js';
import { ActionSchema } from '../../src/engine/actions.js';
import { POLICIES, MAX_SCRIPTED_ACTIONS } from '../../src/engine/policies/index.js';
import { TASK_NAMES } from '../../src/engine/types.js';
import type { Observation } from '../../src/engine/views.js';

/** Observations of every seat at every round of real matches (expert on lab_0, archetypes elsewhere). */
function realObservations(): Observation[] {
  const out: Observation[] = [];
  const expert = POLICIES.find((p) => p.name === 'rule_based_expert')!.policy;
  for (const task of TASK_NAMES) {
    for (let seed = 0; seed < 8; seed++) {
      const env = new ArenaEnv();
      let obs = env.reset({ task, seed, actionsPerRound: MAX_SCRIPTED_ACTIONS });
      while (!env.done) {
        for (const lab of env.state.labIds) out.push(observe(env.state, lab));
        let closed = false;
        for (const a of expert(obs, { rng: rng(seed, obs.round, 'policy:lab_0'), holdout: false })) {
          const r = env.step(a);
          obs = r.observation;
          closed = r.info.closed || r.done;
          if (closed) break;
        }
        if (!closed && !env.done) obs = env.endRound().observation;
      }
    }
  }
  return out;
}

describe('every policy on real observations', () => {
  const observations = realObservations();
  test('returns at most 4 schema-valid actions, deterministically for a given rng, and never throws', () => {
    assert.ok(observations.length > 300);
    for (const info of POLICIES) {
      for (const holdout of [false, true]) {
        for (const [i, obs] of observations.entries()) {
          const a = info.policy(obs, { rng: rng(i, obs.round, 'prop'), holdout });
          const b = info.policy(obs, { rng: rng(i, obs.round, 'prop'), holdout });
          assert.deepEqual(a, b, `${info.name} is deterministic`);
          assert.ok(a.length <= MAX_SCRIPTED_ACTIONS, `${info.name}: ${a.length} actions`);
          for (const x of a) assert.ok(ActionSchema.safeParse(x).success, `${info.name}: ${JSON.stringify(x)}`);
        }
      }
    }
  });

  test('acts only on its own observation: a finished or over seat does nothing', () => {
    const obs = observations[0]!;
    for (const info of POLICIES) {
      assert.deepEqual(info.policy({ ...obs, over: true }, { rng: () => 0.5, holdout: false }), []);
      assert.deepEqual(
        info.policy({ ...obs, self: { ...obs.self, finished: true } }, { rng: () => 0.5, holdout: false }),
        [],
      );
    }
  });
});
