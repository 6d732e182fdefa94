/**
 * Throughput of the gym loop (docs/RULES.md §8 with actionsPerRound = 1: one step = one action of the
 * controlled seat + a round close, in which the scripted opponents act and the rule judge runs).
 * The controlled seat plays a scripted policy: its first action each round (wait if it has none).
 * Single-threaded; timed with performance.now() after a warm-up on other seeds (resets stay inside the
 * timed loop). The warm-up matters: V8 optimises the hot functions only after many calls, so a short
 * task (single_trade: 3 steps an episode) timed after 200 episodes reads up to 2× low; the CLI default
 * is 1,000 warm-up episodes.
 */
import { ArenaEnv } from '../env/gym';
import { rng } from '../env/index';
import type { PolicyName, TaskName } from '../env/types';
import { getPolicy } from '../env/policies';

export interface BenchRow {
  policy: PolicyName;
  task: TaskName;
  episodes: number;
  /** Gym steps (action + round close). */
  steps: number;
  seconds: number;
  stepsPerSecond: number;
}

/** Play `episodes` episodes (seeds first…first+episodes−1); returns the number of steps taken. */
export function playEpisodes(policy: PolicyName, task: TaskName, episodes: number, firstSeed = 0): number {
  const fn = getPolicy(policy);
  const env = new ArenaEnv();
  let steps = 0;
  for (let e = 0; e < episodes; e++) {
    const seed = firstSeed + e;
    let obs = env.reset({ task, seed });
    while (!env.done) {
      const action = fn(obs, { rng: rng(seed, obs.round, 'policy:lab_0'), holdout: false })[0] ?? { action_type: 'wait' };
      obs = env.step(action).observation;
      steps++;
    }
  }
  return steps;
}

/** Time `episodes` episodes after `warmup` untimed ones (different seeds). */
export function bench(policy: PolicyName, task: TaskName, episodes: number, warmup: number): BenchRow {
  playEpisodes(policy, task, warmup, 1_000_000);
  const t0 = performance.now();
  const steps = playEpisodes(policy, task, episodes, 0);
  const seconds = (performance.now() - t0) / 1000;
  return { policy, task, episodes, steps, seconds, stepsPerSecond: seconds > 0 ? steps / seconds : 0 };
}
