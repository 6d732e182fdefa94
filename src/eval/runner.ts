/**
 * Episode runner for evaluation (docs/RULES.md §8): the evaluated player drives one seat (lab_0 by
 * default) of a match whose other seats are scripted archetypes, until the match is over.
 *
 * Two kinds of player:
 * - a scripted {@link Policy} (sync): asked once per round, its ≤ 4 actions are applied in order, then
 *   the round closes (the same budget the scripted opponents have). Runs without any await.
 * - a {@link SeatAgent} (async, e.g. an LLM; src/agents/seat.ts): asked once per round with an
 *   AgentContext (with a dry-run `validate` on the current state), its ≤ 12 actions are applied, then the
 *   round closes. A rejection or a non-list answer makes the seat wait that round.
 */
import { ArenaEnv } from '../engine/gym.js';
import { rng } from '../engine/index.js';
import type { Observation } from '../engine/views.js';
import { validatorFor } from '../agents/dry-run.js';
import type { LabId, PolicyName, RewardBreakdown, TaskName } from '../engine/types.js';
import { addBreakdowns, emptyBreakdown } from '../engine/reward.js';
import type { Policy } from '../engine/policies/types.js';
import { MAX_SCRIPTED_ACTIONS } from '../engine/policies/types.js';
import type { SeatAgent } from '../agents/seat.js';
import { MAX_AGENT_ACTIONS } from '../agents/seat.js';

/** Seed offset of the holdout split (the original's holdout split, docs/RULES.md §A.1: seeds 50000+). */
export const HOLDOUT_SEED_OFFSET = 50_000;

/** One evaluation episode: task, seed, split, the controlled seat (default lab_0) and its opponents. */
export interface EpisodeOptions {
  task: TaskName;
  /** Seed as given on the command line; the holdout split adds {@link HOLDOUT_SEED_OFFSET}. */
  seed: number;
  holdout?: boolean;
  seat?: LabId;
  /** Override the scripted opponents (default: gym.ts defaultOpponents). */
  opponents?: PolicyName[] | Record<LabId, PolicyName>;
}

/** Outcome of one episode for the controlled seat; `rounds` = rounds closed (the final state's `round`). */
export interface EpisodeResult {
  task: TaskName;
  /** Engine seed actually played (holdout: offset + seed). */
  seed: number;
  holdout: boolean;
  /** The controlled seat's cumulative reward at the end (the original's "episode reward", docs/RULES.md §A.1). */
  reward: number;
  /** Actions the controlled seat took. */
  steps: number;
  invalidActions: number;
  rounds: number;
  /** Jobs of the controlled seat completed / total at the end. */
  jobsCompleted: number;
  jobsTotal: number;
  /**
   * Column-wise sum of the controlled seat's step and round-close breakdowns over the episode (its
   * normalized_reward sums to `reward`); which reward columns the episode reward came from.
   */
  breakdown: RewardBreakdown;
}

/** A player the runner can evaluate. */
export type EvalPlayer =
  { name: string; kind: 'policy'; policy: Policy } | { name: string; kind: 'agent'; agent: SeatAgent };

const engineSeed = (o: EpisodeOptions) => (o.holdout ? HOLDOUT_SEED_OFFSET + o.seed : o.seed);

function start(o: EpisodeOptions, actionsPerRound: number): ArenaEnv {
  const env = new ArenaEnv();
  env.reset({
    task: o.task,
    seed: engineSeed(o),
    seat: o.seat ?? 'lab_0',
    holdout: o.holdout ?? false,
    opponents: o.opponents,
    actionsPerRound,
  });
  return env;
}

function finish(env: ArenaEnv, o: EpisodeOptions, breakdown: RewardBreakdown): EpisodeResult {
  const s = env.state;
  const seat = s.seats[env.seat]!;
  let done = 0;
  let total = 0;
  for (const id in s.jobs) {
    const j = s.jobs[id]!;
    if (j.owner !== env.seat) continue;
    total++;
    if (j.outcome === 'completed') done++;
  }
  return {
    task: o.task,
    seed: engineSeed(o),
    holdout: o.holdout ?? false,
    reward: seat.cumulativeReward,
    steps: seat.steps,
    invalidActions: seat.invalidActions,
    rounds: s.round,
    jobsCompleted: done,
    jobsTotal: total,
    breakdown,
  };
}

/** Sums the controlled seat's breakdowns over an episode. */
class Tally {
  total: RewardBreakdown = emptyBreakdown();
  add(b: RewardBreakdown): void {
    this.total = addBreakdowns(this.total, b);
  }
}

/**
 * Apply a round's actions in order; close the round unless one of them did. Returns the new
 * observation; every step's breakdown goes to `tally`.
 */
function playRound(env: ArenaEnv, actions: readonly unknown[], tally: Tally): Observation {
  for (const a of actions) {
    const r = env.step(a);
    tally.add(r.breakdown);
    if (r.info.closed || r.done) return r.observation;
  }
  if (env.done) return env.observation();
  const r = env.endRound();
  tally.add(r.breakdown);
  return r.observation;
}

/** Play one episode with a scripted policy on the controlled seat. Synchronous. */
export function runPolicyEpisode(policy: Policy, o: EpisodeOptions): EpisodeResult {
  const env = start(o, MAX_SCRIPTED_ACTIONS);
  const seed = engineSeed(o);
  const tally = new Tally();
  let obs = env.observation();
  while (!env.done) {
    const actions = policy(obs, { rng: rng(seed, obs.round, `policy:${env.seat}`), holdout: o.holdout ?? false }).slice(
      0,
      MAX_SCRIPTED_ACTIONS,
    );
    obs = playRound(env, actions, tally);
  }
  return finish(env, o, tally.total);
}

/** Play one episode with an async agent on the controlled seat. */
export async function runAgentEpisode(agent: SeatAgent, o: EpisodeOptions): Promise<EpisodeResult> {
  const env = start(o, MAX_AGENT_ACTIONS);
  const matchId = `eval:${o.task}:${engineSeed(o)}`;
  const tally = new Tally();
  let obs = env.observation();
  while (!env.done) {
    // The same dry run the round host gives agents, so eval and live play feed back the same codes.
    const validate = validatorFor(env.state, env.seat);
    const ac = new AbortController();
    let actions: unknown[] = [];
    try {
      const out: unknown = await agent.act(obs, {
        matchId,
        lab: env.seat,
        round: obs.round,
        signal: ac.signal,
        validate,
      });
      if (Array.isArray(out)) actions = out.slice(0, MAX_AGENT_ACTIONS);
    } catch {
      actions = []; // the seat waits this round, as the host does
    }
    obs = playRound(env, actions, tally);
  }
  return finish(env, o, tally.total);
}

/** Play one episode with either kind of player. Scripted players never await. */
export function runEpisode(player: EvalPlayer, o: EpisodeOptions): EpisodeResult | Promise<EpisodeResult> {
  return player.kind === 'policy' ? runPolicyEpisode(player.policy, o) : runAgentEpisode(player.agent, o);
}
