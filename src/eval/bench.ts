/**
 * Throughput of the gym loop (docs/RULES.md §8 with actionsPerRound = 1: one step = one action of the
 * controlled seat + a round close, in which the scripted opponents act and the rule judge runs).
 * The controlled seat plays a scripted policy: its first action each round (wait if it has none).
 * Single-threaded; timed with performance.now() after a warm-up on other seeds (resets stay inside the
 * timed loop). The warm-up matters: V8 optimises the hot functions only after many calls and some time,
 * so a short task (single_trade: 3 steps an episode) timed after 1,000 warm-up episodes read 2.5× low
 * (27,800 vs 70,000 steps/s in the same process later); the CLI warms up for ≥ 1,000 episodes and
 * ≥ 2 s per row and reports the median of 3 timed runs.
 */
import { ArenaEnv } from '../engine/gym.js';
import { rng } from '../engine/index.js';
import type { PolicyName, TaskName } from '../engine/types.js';
import { getPolicy } from '../engine/policies/index.js';

/** One row of `npm run bench`. */
export interface BenchRow {
  /** The controlled seat's policy (lab_0). */
  policy: PolicyName;
  task: TaskName;
  /** The other seats: 'archetypes' (the default rotation, gym.ts defaultOpponents) or one policy for all. */
  opponents: PolicyName | 'archetypes';
  episodes: number;
  /** Gym steps (action + round close). */
  steps: number;
  seconds: number;
  stepsPerSecond: number;
}

/**
 * Play `episodes` episodes (seeds first…first+episodes−1); returns the number of steps taken.
 * `opponents`: one policy for every other seat instead of the default archetype rotation.
 */
export function playEpisodes(
  policy: PolicyName,
  task: TaskName,
  episodes: number,
  firstSeed = 0,
  opponents?: PolicyName,
): number {
  const fn = getPolicy(policy);
  const env = new ArenaEnv();
  let steps = 0;
  for (let e = 0; e < episodes; e++) {
    const seed = firstSeed + e;
    let obs = env.reset(opponents === undefined ? { task, seed } : { task, seed, opponents: [opponents] });
    while (!env.done) {
      const action = fn(obs, { rng: rng(seed, obs.round, 'policy:lab_0'), holdout: false })[0] ?? {
        action_type: 'wait',
      };
      obs = env.step(action).observation;
      steps++;
    }
  }
  return steps;
}

/** Options of {@link bench}. */
export interface BenchOptions {
  /** Untimed episodes first (other seeds). */
  warmup: number;
  /** Keep warming up until this many seconds have passed too (V8 tiers up by call counts and time). */
  warmupSeconds?: number;
  /** Timed runs of `episodes` episodes; the row is the median run by steps/s (default 3). */
  trials?: number;
  /** One policy for every other seat (default: the archetype rotation). */
  opponents?: PolicyName;
}

/**
 * Time `episodes` episodes (seeds 0…episodes−1) after a warm-up on seeds from 1,000,000 that lasts
 * `warmup` episodes and at least `warmupSeconds`; repeated `trials` times, the median run is returned.
 */
export function bench(policy: PolicyName, task: TaskName, episodes: number, opts: BenchOptions): BenchRow {
  const warmupMs = (opts.warmupSeconds ?? 0) * 1000;
  const w0 = performance.now();
  let warmed = 0;
  while (warmed < opts.warmup || performance.now() - w0 < warmupMs) {
    const n = Math.max(1, Math.min(200, opts.warmup - warmed));
    playEpisodes(policy, task, n, 1_000_000 + warmed, opts.opponents);
    warmed += n;
  }
  const runs: BenchRow[] = [];
  for (let t = 0; t < Math.max(1, opts.trials ?? 3); t++) {
    const t0 = performance.now();
    const steps = playEpisodes(policy, task, episodes, 0, opts.opponents);
    const seconds = (performance.now() - t0) / 1000;
    runs.push({
      policy,
      task,
      opponents: opts.opponents ?? 'archetypes',
      episodes,
      steps,
      seconds,
      stepsPerSecond: seconds > 0 ? steps / seconds : 0,
    });
  }
  runs.sort((a, b) => a.stepsPerSecond - b.stepsPerSecond);
  return runs[Math.floor(runs.length / 2)]!;
}
