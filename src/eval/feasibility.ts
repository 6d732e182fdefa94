/**
 * Feasibility report of generated worlds (docs/RULES.md §1 feasibility guarantee): the share of jobs a
 * lab can complete from its own blocks alone, and the share the whole market could complete (through
 * trades; the engine guarantees 100%). Computed on the initial state, per job, independently.
 */
import { createMatch } from '../engine/index.js';
import type { Block, Job, MatchState, TaskName } from '../engine/types.js';

/** Feasibility of one task's generated jobs over a seed range; shares in [0, 1]. */
export interface FeasibilityShare {
  task: TaskName;
  jobs: number;
  /** Share of jobs whose owner's blocks with reliability ≥ the job's minimum sum to ≥ its hours. */
  ownShare: number;
  /** Same over every block of the market. */
  marketShare: number;
}

const covers = (job: Job, blocks: readonly Block[]): boolean => {
  let h = 0;
  for (const b of blocks)
    if (b.status !== 'used' && b.status !== 'failed' && b.reliability >= job.minReliability) h += b.gpuHours;
  return h >= job.gpuHoursRequired;
};

/** Count own/market-feasible jobs of every lab of `state`. */
export function feasibilityOf(state: MatchState): { jobs: number; own: number; market: number } {
  const blocks = Object.values(state.blocks);
  let jobs = 0;
  let own = 0;
  let market = 0;
  for (const job of Object.values(state.jobs)) {
    jobs++;
    if (
      covers(
        job,
        blocks.filter((b) => b.owner === job.owner),
      )
    )
      own++;
    if (covers(job, blocks)) market++;
  }
  return { jobs, own, market };
}

/** Feasibility shares of a task over `seeds` (engine seeds). */
export function feasibility(task: TaskName, seeds: readonly number[]): FeasibilityShare {
  let jobs = 0;
  let own = 0;
  let market = 0;
  for (const seed of seeds) {
    const f = feasibilityOf(createMatch({ task, seed }));
    jobs += f.jobs;
    own += f.own;
    market += f.market;
  }
  return { task, jobs, ownShare: jobs ? own / jobs : 0, marketShare: jobs ? market / jobs : 0 };
}
