/**
 * Many sessions at once: 64 concurrent sessions with interleaved steps each get what they would get
 * alone; steps sent at once to one session never interleave.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ArenaEnv } from '../../../src/engine/gym.js';
import { rng } from '../../../src/engine/index.js';
import { getPolicy } from '../../../src/engine/policies/index.js';
import { TASK_NAMES, type TaskName } from '../../../src/engine/types.js';
import type { Observation } from '../../../src/engine/views.js';
import { ok, startServer, type Harness } from './harness.js';

let h: Harness;
before(async () => {
  h = await startServer();
});
after(async () => {
  await h.close();
});

const policy = getPolicy('random_validish');
const act = (obs: Observation, seed: number) =>
  policy(obs, { rng: rng(seed, obs.round, 'policy:lab_0'), holdout: false })[0] ?? { action_type: 'wait' as const };

/** The rewards of an episode played alone in the gym. */
function alone(task: TaskName, seed: number): number[] {
  const env = new ArenaEnv();
  let obs = env.reset({ task, seed });
  const out: number[] = [];
  while (!env.done) {
    const r = env.step(act(obs, seed));
    out.push(r.reward);
    obs = r.observation;
  }
  return out;
}

describe('concurrent sessions', () => {
  test('64 sessions stepping interleaved each give the rewards they give alone', async () => {
    const n = 64;
    const games = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const task = TASK_NAMES[i % 3]!;
        const seed = 100 + i;
        const r = ok(await h.client.reset({ task, seed }));
        return {
          task,
          seed,
          id: r.session_id,
          obs: r.observation as Observation,
          rewards: [] as number[],
          done: false,
        };
      }),
    );
    assert.equal(new Set(games.map((g) => g.id)).size, n);
    // Every wave sends one step of every unfinished session at once (shuffled order, so arrivals interleave).
    for (let wave = 0; games.some((g) => !g.done); wave++) {
      const live = games
        .filter((g) => !g.done)
        .sort((a, b) => ((a.seed * 7919 + wave) % 64) - ((b.seed * 7919 + wave) % 64));
      await Promise.all(
        live.map(async (g) => {
          const r = ok(await h.client.step(g.id, act(g.obs, g.seed) as Record<string, unknown>));
          g.rewards.push(r.reward);
          g.obs = r.observation;
          g.done = r.done;
        }),
      );
    }
    for (const g of games) assert.deepEqual(g.rewards, alone(g.task, g.seed), `${g.task} seed ${g.seed}`);
  });

  test('steps sent at once to one session run one after another', async () => {
    const { session_id } = ok(await h.client.reset({ task: 'coalition_market', seed: 8, actions_per_round: 3 }));
    const msgs = [
      'first note to the market',
      'second note to the market',
      'third note to the market',
      'fourth note to the market',
      'fifth note to the market',
    ];
    const results = await Promise.all(
      msgs.map((message) => h.client.step(session_id, { action_type: 'send_message', message })),
    );
    const steps = results.map(ok);
    // Each response saw a state with exactly one more action than the one before it: no two interleaved.
    const left = steps.map((s) => s.observation.self.actionsLeftThisRound).sort();
    const rounds = steps.map((s) => s.info.round).sort();
    const env = new ArenaEnv();
    env.reset({ task: 'coalition_market', seed: 8, actionsPerRound: 3 });
    const local = msgs.map((message) => env.step({ action_type: 'send_message', message }));
    assert.deepEqual(left, local.map((s) => s.observation.self.actionsLeftThisRound).sort());
    assert.deepEqual(rounds, local.map((s) => s.info.round).sort());
    const view = ok(await h.client.state({ session_id }));
    assert.equal((view.state as { messages: unknown[] }).messages.length, env.observation().messages.length);
    assert.equal(
      (view.state as { cumulativeReward: number }).cumulativeReward,
      env.state.seats.lab_0!.cumulativeReward,
    );
  });
});
