/**
 * Late jobs and late supply (docs/RULES.md §1.1, rules v3): so that a strong seat's fate is not sealed
 * early, work keeps arriving. At the close of round a − 1 (step 4b of §2), for the arrival round a of the
 * task, every unfinished lab gets one new private job, and ⌈labs / 2⌉ new blocks of capacity appear in
 * the market, each owned by a drawn lab (public). Draws come from rng(seed, a, 'arrivals'); the
 * new jobs are made feasible against the market as it is then (feasibility.ts), so each can be done.
 */
import type { Block, Job, LabId, TaskName } from './types.js';
import type { Draft } from './mut.js';
import type { ArrivalEvent } from './views.js';
import { rng } from './rng.js';
import { drawBlock, newJob } from './world.js';
import { makeFeasible, marketHours, servableByReliability } from './feasibility.js';
import { newBlockId } from './shocks.js';
import { labIndex, pick, uniform2 } from './util.js';
import { PARTIAL_CREDIT_P } from './world.js';

/** Hours of a late job (smaller than the opening jobs: it must fit in the time left). */
export const LATE_JOB_HOURS = [2, 3, 4, 6] as const;

/** One arrival of the schedule: the round whose opening reveals it and the latest deadline it may get. */
export interface ArrivalSlot {
  /** The job is revealed when round `round − 1` closes, so it is visible from the start of `round`. */
  round: number;
  /** Its deadline is drawn in [round + 1, lastDeadline]. */
  lastDeadline: number;
}

/**
 * Arrival rounds of a task with `maxRounds` rounds (docs/RULES.md §1.1): none in single_trade; one at
 * round maxRounds − 2 in market_round and coalition_market (when maxRounds ≥ 3). Every job arriving at
 * round a is due in [a + 1, maxRounds − 1]: a seat has at least one round to buy what it needs.
 */
export function arrivalSchedule(task: TaskName, maxRounds: number): ArrivalSlot[] {
  const slot = slotAt(task, maxRounds, maxRounds - 2);
  return slot === undefined ? [] : [slot];
}

/** The slot of `arrivalSchedule(task, maxRounds)` at `round`, if any (no list built: it runs at every close). */
function slotAt(task: TaskName, maxRounds: number, round: number): ArrivalSlot | undefined {
  if (task === 'single_trade' || round < 1 || round !== maxRounds - 2) return undefined;
  return { round, lastDeadline: maxRounds - 1 };
}

/** Next free job index of `lab` (`j_<i>_<n>`): opening and earlier late jobs count, surge jobs do not. */
function nextJobId(d: Draft, lab: LabId): string {
  const i = labIndex(lab);
  let n = d.s.params.jobsPerLab;
  while (Object.hasOwn(d.s.jobs, `j_${i}_${n}`)) n += 1;
  return `j_${i}_${n}`;
}

/**
 * Reveal the jobs and supply arriving at round `round` (the round about to open), if any: the late
 * blocks first (⌈live labs / 2⌉, each to a drawn live lab), then one job per live lab in seat order, made
 * feasible against the market including the new blocks. Returns what arrived (null if nothing).
 */
export function arrive(d: Draft, round: number): ArrivalEvent | null {
  const slot = slotAt(d.s.config.task, d.s.params.maxRounds, round);
  if (slot === undefined) return null;
  const live: LabId[] = [];
  for (let i = 0; i < d.s.labIds.length; i++) if (!d.s.labs[d.s.labIds[i]!]!.finished) live.push(d.s.labIds[i]!);
  if (live.length === 0) return null;
  const draw = rng(d.s.config.seed, round, 'arrivals');
  const blocks: Block[] = [];
  const supply: ArrivalEvent['blocks'] = [];
  const count = Math.ceil(live.length / 2);
  for (let i = 0; i < count; i++) {
    const to = pick(draw, live);
    // Ids b_s<round>_<k>: the same space as shock capacity (newBlockId skips ids taken).
    const id = blocks.length === 0 ? newBlockId(d, round) : nextAfter(blocks[blocks.length - 1]!.id, d);
    const b = drawBlock(draw, id, to);
    blocks.push(b);
    supply.push({ blockId: b.id, owner: to, gpuHours: b.gpuHours });
  }
  d.addBlocks(blocks);
  const market = servableByReliability(Object.values(d.s.blocks));
  const hours = marketHours(market);
  const jobs: Job[] = [];
  const span = slot.lastDeadline - round;
  for (let i = 0; i < live.length; i++) {
    const lab = live[i]!;
    const job = newJob({
      id: nextJobId(d, lab),
      owner: lab,
      gpuHoursRequired: pick(draw, LATE_JOB_HOURS),
      deadlineRound: round + 1 + Math.floor(draw() * span),
      baseValue: uniform2(draw, 30, 95),
      urgencyMultiplier: uniform2(draw, 1.0, 1.8),
      minReliability: uniform2(draw, 0.7, 0.9),
      partialCreditAllowed: draw() < PARTIAL_CREDIT_P,
      surge: false,
    });
    jobs.push(makeFeasible(job, market, hours));
  }
  d.addJobs(jobs);
  const arrived: ArrivalEvent['jobs'] = [];
  for (let i = 0; i < live.length; i++) arrived.push({ lab: live[i]!, jobId: jobs[i]!.id });
  return { round, jobs: arrived, blocks: supply };
}

/** The id after `prev` (`b_s<r>_<k + 1>`), skipping ids already in the match. */
function nextAfter(prev: string, d: Draft): string {
  const cut = prev.lastIndexOf('_');
  const stem = prev.slice(0, cut + 1);
  let k = Number(prev.slice(cut + 1)) + 1;
  while (Object.hasOwn(d.s.blocks, `${stem}${k}`)) k += 1;
  return `${stem}${k}`;
}
