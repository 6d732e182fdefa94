/** The server bench's plumbing (not its speed): rows count whole episodes of their task, quantiles are order statistics, sessions are cleaned up. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { benchHttp, benchInProcess, quantile } from '../../../src/adapters/http/bench.js';
import { startServer, type Harness } from './harness.js';
import { ArenaEnv } from '../../../src/engine/gym.js';
import { rng } from '../../../src/engine/index.js';
import { getPolicy } from '../../../src/engine/policies/index.js';
import type { PolicyName, TaskName } from '../../../src/engine/types.js';

let h: Harness;
before(async () => {
  h = await startServer();
});
after(async () => {
  await h.close();
});

describe('bench:server', () => {
  test('quantile is the nearest-rank order statistic', () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    assert.equal(quantile(xs, 0.5), 50);
    assert.equal(quantile(xs, 0.99), 99);
    assert.equal(quantile([7], 0.99), 7);
    assert.equal(quantile([], 0.5), 0);
  });

  test('a row counts whole episodes of its task: steps = the summed lengths of the episodes of seeds 0, 1, 2, …', async () => {
    // coalition_market, whose episodes last 8, 9 or 10 steps by seed: the sum also checks which seeds were played.
    const opts = {
      task: 'coalition_market' as const,
      policy: 'random_validish' as const,
      seconds: 0.3,
      warmupSeconds: 0,
    };
    let cpu = 0;
    // One session plays seeds 0, 1, 2, … in order, as the in-process row does.
    const http = await benchHttp(h.url, 1, opts, () => (cpu += 5));
    assert.deepEqual([http.mode, http.sessions], ['http', 1]);
    assert.ok(http.episodes >= 1, 'at least one whole episode');
    assert.equal(
      http.steps,
      stepsOfSeeds(opts.task, opts.policy, http.episodes),
      `${http.steps} steps in ${http.episodes} episodes`,
    );
    assert.equal(http.cpuMsPerStep, 5 / http.steps, "the server's CPU over the timed steps, per step");
    const local = benchInProcess(opts);
    assert.ok(local.episodes >= 1);
    assert.equal(
      local.steps,
      stepsOfSeeds(opts.task, opts.policy, local.episodes),
      `${local.steps} steps in ${local.episodes} episodes`,
    );
    assert.equal(typeof local.cpuMsPerStep, 'number', 'the in-process row measures the CPU of its steps');
  });

  test('several sessions: each worker finishes whole episodes; unknown CPU without a reader; sessions are deleted afterwards', async () => {
    const opts = { task: 'single_trade' as const, policy: 'random_validish' as const, seconds: 0.2, warmupSeconds: 0 };
    const http = await benchHttp(h.url, 3, opts);
    assert.equal(http.sessions, 3);
    assert.ok(http.episodes >= 3, 'every worker finishes at least one episode');
    assert.equal(http.cpuMsPerStep, null, 'unknown without a CPU reader');
    assert.equal(h.store.size, 0, 'the bench deletes its sessions');
  });
});

/** The gym's own count: steps of the first `n` seeds' episodes of `task` with `policy` on lab_0 (bench.ts's policy). */
function stepsOfSeeds(task: TaskName, policy: PolicyName, n: number): number {
  const play = getPolicy(policy);
  let steps = 0;
  for (let seed = 0; seed < n; seed++) {
    const env = new ArenaEnv();
    let obs = env.reset({ task, seed });
    while (!env.done) {
      const action = play(obs, { rng: rng(seed, obs.round, 'policy:lab_0'), holdout: false })[0] ?? {
        action_type: 'wait',
      };
      obs = env.step(action).observation;
      steps++;
    }
  }
  return steps;
}
