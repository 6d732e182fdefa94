/**
 * World generation (docs/RULES.md §1): task presets, seat list, labs, blocks, jobs, shock schedule.
 * Draws come from `rng(seed, 0, purpose)` with purposes `params:<task>`, `world:<task>` and `shocks:<task>`.
 */
import type { Block, Difficulty, Job, Lab, LabId, ScheduledShock, Seed, TaskName, WorldParams } from './types.js';
import { SHOCK_KINDS } from './types.js';
import { rng } from './rng.js';
import { pick, uniform2 } from './util.js';

/** Per-task constants (docs/RULES.md §1 table; the original's sizes, docs/RULES.md §A.1, with hard rounds 8–10 as its SPEC promised, §A.2 D17). */
export interface TaskPreset {
  difficulty: Difficulty;
  /** Seeded choice among these. */
  labCounts: readonly number[];
  /** Seeded choice among these. */
  roundCounts: readonly number[];
  blocksPerLab: number;
  jobsPerLab: number;
  coalitionsEnabled: boolean;
  /** Shocks scheduled per match: 0, 1 (at round 2 or 3) or 3 (distinct rounds in [1, rounds − 2]). */
  shockCount: 0 | 1 | 3;
  /** Earliest job deadline round. */
  minDeadline: number;
}

export const PRESETS: Readonly<Record<TaskName, TaskPreset>> = {
  single_trade: {
    difficulty: 'easy',
    labCounts: [2],
    roundCounts: [3],
    blocksPerLab: 2,
    jobsPerLab: 1,
    coalitionsEnabled: false,
    shockCount: 0,
    minDeadline: 1,
  },
  market_round: {
    difficulty: 'medium',
    labCounts: [3],
    roundCounts: [5],
    blocksPerLab: 3,
    jobsPerLab: 2,
    coalitionsEnabled: true,
    shockCount: 1,
    minDeadline: 1,
  },
  coalition_market: {
    difficulty: 'hard',
    labCounts: [4, 5],
    roundCounts: [8, 9, 10],
    blocksPerLab: 4,
    jobsPerLab: 3,
    coalitionsEnabled: true,
    shockCount: 3,
    minDeadline: 2,
  },
};

/** Block sizes and job sizes (the original's, docs/RULES.md §A.1). */
export const GPU_COUNTS = [1, 2, 4] as const;
export const DURATIONS = [1, 2, 3] as const;
export const JOB_HOURS = [2, 3, 4, 6, 8] as const;
/** Share of generated jobs with partial credit (the original's, docs/RULES.md §A.1). */
export const PARTIAL_CREDIT_P = 0.35;

/** The last (task, seed) → drawn [labCount, maxRounds]: a match's setup asks for it several times in a row. */
let lastDrawn: { task: TaskName; seed: Seed; counts: readonly [number, number] } | null = null;

function drawCounts(task: TaskName, seed: Seed): readonly [number, number] {
  const p = PRESETS[task];
  // Nothing to draw when both are fixed (the draws would not change anything).
  if (p.labCounts.length === 1 && p.roundCounts.length === 1) return [p.labCounts[0]!, p.roundCounts[0]!];
  if (lastDrawn !== null && lastDrawn.task === task && lastDrawn.seed === seed) return lastDrawn.counts;
  const r = rng(seed, 0, `params:${task}`);
  const labCount = pick(r, p.labCounts);
  const counts = [labCount, pick(r, p.roundCounts)] as const;
  lastDrawn = { task, seed, counts };
  return counts;
}

/** The world constants of a match: seat count and round count are seeded for coalition_market. */
export function worldParams(task: TaskName, seed: Seed): WorldParams {
  const p = PRESETS[task];
  const [labCount, maxRounds] = drawCounts(task, seed);
  return {
    difficulty: p.difficulty,
    labCount,
    maxRounds,
    blocksPerLab: p.blocksPerLab,
    jobsPerLab: p.jobsPerLab,
    coalitionsEnabled: p.coalitionsEnabled,
  };
}

/** Seat ids `lab_0 … lab_{n−1}` of a match, known before it is created. */
export function labIdsFor(task: TaskName, seed: Seed): LabId[] {
  const n = drawCounts(task, seed)[0];
  while (LAB_IDS.length < n) LAB_IDS.push(`lab_${LAB_IDS.length}`);
  return LAB_IDS.slice(0, n);
}
const LAB_IDS: LabId[] = [];

/** "Lab A", "Lab B", … */
export const publicNameOf = (i: number): string => `Lab ${String.fromCharCode(65 + i)}`;

/**
 * A fresh block drawn as in §1 (count, duration, reliability U(0.72, 0.99), energy U(1.5, 6.0)).
 * `tradedFrom` is written as undefined (JSON omits it) so that traded and untraded blocks share one
 * object layout (see newJob).
 */
export function drawBlock(r: () => number, id: string, owner: LabId): Block {
  const gpuCount = pick(r, GPU_COUNTS);
  const duration = pick(r, DURATIONS);
  return {
    id,
    owner,
    gpuCount,
    duration,
    gpuHours: gpuCount * duration,
    reliability: uniform2(r, 0.72, 0.99),
    energyCost: uniform2(r, 1.5, 6.0),
    status: 'available',
    reservedFor: null,
    committedTo: null,
    usedFor: null,
    tradedFrom: undefined,
  };
}

/** A job with zero progress. */
export function newJob(
  fields: Pick<
    Job,
    | 'id'
    | 'owner'
    | 'gpuHoursRequired'
    | 'deadlineRound'
    | 'baseValue'
    | 'urgencyMultiplier'
    | 'minReliability'
    | 'partialCreditAllowed'
    | 'surge'
  >,
): Job {
  // An explicit literal: adding keys to a spread copy is very slow in V8 (dictionary-mode objects). The
  // optional keys are written as undefined so that every job the engine makes has one object layout
  // whatever later happens to it (a trade credit, a held bonus, in either order): code that reads jobs
  // stays monomorphic (≈ 18 % of a gym step, docs/BENCHMARKS.md). JSON omits undefined keys.
  return {
    id: fields.id,
    owner: fields.owner,
    gpuHoursRequired: fields.gpuHoursRequired,
    deadlineRound: fields.deadlineRound,
    baseValue: fields.baseValue,
    urgencyMultiplier: fields.urgencyMultiplier,
    minReliability: fields.minReliability,
    partialCreditAllowed: fields.partialCreditAllowed,
    allocatedHours: 0,
    allocatedBlockIds: [],
    energyCost: 0,
    outcome: 'pending',
    realisedValue: null,
    surge: fields.surge,
    shockAffected: fields.surge,
    tradeCredit: undefined,
    heldBonus: undefined,
  };
}

export interface GeneratedWorld {
  labs: Record<LabId, Lab>;
  blocks: Record<string, Block>;
  jobs: Record<string, Job>;
}

/**
 * The ids of a world of a given size and record templates with its keys in generation order (values
 * null). A record is built as a copy of its template whose entries are then all overwritten: storing
 * to existing keys is much cheaper in V8 than adding 20 keys to a fresh {} at every match. Module-level
 * cache keyed by the world's size: it holds only strings and key lists, so it can never change a result.
 */
interface Layout {
  labIds: LabId[];
  names: string[];
  /** blockIds[i][j] = `b_${i}_${j}`; jobIds likewise `j_${i}_${j}`. */
  blockIds: string[][];
  jobIds: string[][];
  labs: Record<string, null>;
  blocks: Record<string, null>;
  jobs: Record<string, null>;
}
/** Key: labCount·10⁴ + blocksPerLab·10² + jobsPerLab (each < 100 in every preset). */
const layouts = new Map<number, Layout>();

function layoutFor(params: WorldParams): Layout {
  const key = params.labCount * 10_000 + params.blocksPerLab * 100 + params.jobsPerLab;
  let l = layouts.get(key);
  if (l !== undefined) return l;
  const labIds: LabId[] = [];
  const blockIds: string[][] = [];
  const jobIds: string[][] = [];
  for (let i = 0; i < params.labCount; i++) {
    labIds.push(`lab_${i}`);
    blockIds.push(Array.from({ length: params.blocksPerLab }, (_, j) => `b_${i}_${j}`));
    jobIds.push(Array.from({ length: params.jobsPerLab }, (_, j) => `j_${i}_${j}`));
  }
  // fromEntries makes fast-mode templates (20 keyed stores into {} would make a slow dictionary-mode
  // object), and a spread copy of a fast template is fast too.
  const template = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, null])) as Record<string, null>;
  l = {
    labIds,
    names: labIds.map((_, i) => publicNameOf(i)),
    blockIds,
    jobIds,
    labs: template(labIds),
    blocks: template(blockIds.flat()),
    jobs: template(jobIds.flat()),
  };
  layouts.set(key, l);
  return l;
}

/** Labs, blocks and jobs (before the feasibility fix), drawn in lab order from rng(seed, 0, `world:<task>`). */
export function generateWorld(task: TaskName, params: WorldParams, seed: Seed): GeneratedWorld {
  const r = rng(seed, 0, `world:${task}`);
  const layout = layoutFor(params);
  // Copies of the templates; every key is assigned below, in the templates' order.
  const labs = { ...layout.labs } as unknown as Record<LabId, Lab>;
  const blocks = { ...layout.blocks } as unknown as Record<string, Block>;
  const jobs = { ...layout.jobs } as unknown as Record<string, Job>;
  const minDeadline = params.difficulty === 'hard' ? 2 : 1;
  const deadlineSpan = params.maxRounds - 1 - minDeadline + 1;
  for (let i = 0; i < params.labCount; i++) {
    const id = layout.labIds[i]!;
    const budget = uniform2(r, 70, 130);
    labs[id] = {
      id,
      publicName: layout.names[i]!,
      budget,
      initialBudget: budget,
      reputation: uniform2(r, 0.35, 0.85),
      finished: false,
    };
    const blockIds = layout.blockIds[i]!;
    for (let j = 0; j < params.blocksPerLab; j++) {
      const b = drawBlock(r, blockIds[j]!, id);
      blocks[b.id] = b;
    }
    const jobIds = layout.jobIds[i]!;
    for (let j = 0; j < params.jobsPerLab; j++) {
      const job = newJob({
        id: jobIds[j]!,
        owner: id,
        gpuHoursRequired: pick(r, JOB_HOURS),
        deadlineRound: minDeadline + Math.floor(r() * deadlineSpan),
        baseValue: uniform2(r, 30, 95),
        urgencyMultiplier: uniform2(r, 1.0, 1.8),
        minReliability: uniform2(r, 0.7, 0.9),
        partialCreditAllowed: r() < PARTIAL_CREDIT_P,
        surge: false,
      });
      jobs[job.id] = job;
    }
  }
  return { labs, blocks, jobs };
}

/**
 * The private shock schedule (docs/RULES.md §1, §5), from rng(seed, 0, `shocks:<task>`):
 * medium: one shock at round 2 or 3 of a seeded kind; hard: three at distinct seeded rounds in
 * [1, rounds − 2] with distinct seeded kinds; easy: none. Sorted by round.
 */
export function shockScheduleFor(task: TaskName, params: WorldParams, seed: Seed): ScheduledShock[] {
  const count = PRESETS[task].shockCount;
  if (count === 0) return [];
  const r = rng(seed, 0, `shocks:${task}`);
  if (count === 1) return [{ round: pick(r, [2, 3]), kind: pick(r, SHOCK_KINDS) }];
  const rounds: number[] = [];
  for (let i = 1; i <= params.maxRounds - 2; i++) rounds.push(i);
  shuffle(r, rounds);
  const kinds = SHOCK_KINDS.slice();
  shuffle(r, kinds);
  const out: ScheduledShock[] = [];
  for (let i = 0; i < count && i < rounds.length; i++) out.push({ round: rounds[i]!, kind: kinds[i]! });
  return out.sort(byRound);
}

const byRound = (a: ScheduledShock, b: ScheduledShock): number => a.round - b.round;

/** Fisher–Yates shuffle in place (draws r() for i = n−1 … 1). */
function shuffle<T>(r: () => number, xs: T[]): void {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    const t = xs[i]!;
    xs[i] = xs[j]!;
    xs[j] = t;
  }
}
