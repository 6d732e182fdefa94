/**
 * Liveliness of a match (docs/EVALUATION.md "A match that stays open"): how long a strong player still
 * has something to decide. For each episode, rule_based_expert (or any scripted policy) plays lab_0
 * against the default archetypes (gym.ts defaultOpponents) as `npm run eval` does, and the runner looks
 * at the seat's own observation at the start of every round: a job is **open** while it is pending, not
 * fully allocated and not past its deadline. The seat's fate is sealed after the last round that started
 * with an open job; `sealed = (that round + 1) / rounds` (0 if no round ever started with one; 1 if the
 * last round did). A finished seat is sealed from then on. Pure apart from the episode loop; deterministic.
 */
import { ArenaEnv } from '../engine/gym.js';
import { rng } from '../engine/index.js';
import { getPolicy } from '../engine/policies/index.js';
import { MAX_SCRIPTED_ACTIONS } from '../engine/policies/types.js';
import type { PolicyName, TaskName } from '../engine/types.js';
import type { Observation } from '../engine/views.js';
import { HOLDOUT_SEED_OFFSET } from './runner.js';
import { summarize, type Summary } from './stats.js';

/** One episode's liveliness: the round (0-based) of the last open start, and the share of the match. */
export interface LivelinessEpisode {
  seed: number;
  rounds: number;
  /** Last round that started with an open job of the seat; −1 if none. */
  lastOpenRound: number;
  /** (lastOpenRound + 1) / rounds, in [0, 1]. */
  sealedShare: number;
}

/** One row of `npm run eval -- --liveliness`: the mean share over seeds, with its spread. */
export interface LivelinessRow extends Summary {
  policy: string;
  task: TaskName;
  split: 'train' | 'holdout';
  /** Share of episodes sealed at ≥ 80 % of the match. */
  atLeast80: number;
}

/** Whether the seat has a job it can still act on (pending, short of hours, deadline not passed). */
export function hasOpenJob(obs: Observation): boolean {
  const jobs = obs.self.jobs;
  for (let i = 0; i < jobs.length; i++) {
    const j = jobs[i]!;
    if (j.outcome === 'pending' && j.allocatedHours < j.gpuHoursRequired && j.deadlineRound >= obs.round) return true;
  }
  return false;
}

/** Play one episode with `policy` on lab_0 and measure when its fate was sealed. */
export function livelinessEpisode(
  policy: PolicyName,
  task: TaskName,
  seed: number,
  holdout = false,
): LivelinessEpisode {
  const engineSeed = holdout ? HOLDOUT_SEED_OFFSET + seed : seed;
  const env = new ArenaEnv();
  let obs = env.reset({ task, seed: engineSeed, seat: 'lab_0', holdout, actionsPerRound: MAX_SCRIPTED_ACTIONS });
  const play = getPolicy(policy);
  const rounds = obs.maxRounds;
  let lastOpen = -1;
  while (!env.done) {
    if (hasOpenJob(obs)) lastOpen = obs.round;
    const actions = play(obs, { rng: rng(engineSeed, obs.round, 'policy:lab_0'), holdout }).slice(
      0,
      MAX_SCRIPTED_ACTIONS,
    );
    let closed = false;
    for (const a of actions) {
      const r = env.step(a);
      obs = r.observation;
      if (r.info.closed || r.done) {
        closed = true;
        break;
      }
    }
    if (!closed && !env.done) obs = env.endRound().observation;
  }
  return { seed: engineSeed, rounds, lastOpenRound: lastOpen, sealedShare: (lastOpen + 1) / rounds };
}

/** Liveliness of `policy` on `task` over `seeds` (train or holdout split). */
export function liveliness(
  policy: PolicyName,
  task: TaskName,
  seeds: readonly number[],
  holdout = false,
): LivelinessRow {
  const eps = seeds.map((s) => livelinessEpisode(policy, task, s, holdout));
  const shares = eps.map((e) => e.sealedShare);
  const s = summarize(shares);
  const atLeast80 = eps.length === 0 ? 0 : eps.filter((e) => e.sealedShare >= 0.8 - 1e-9).length / eps.length;
  return { policy, task, split: holdout ? 'holdout' : 'train', ...s, atLeast80 };
}
