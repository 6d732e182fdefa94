/**
 * Evaluation loop of `npm run eval`: every player on every task over a seed range, train or holdout
 * split (holdout: seeds offset by 50000 and the holdout archetype parameters, docs/RULES.md §7.2).
 * Scripted players run synchronously; agent players (LLM) run episodes with bounded concurrency (p-limit).
 */
import pLimit from 'p-limit';
import type { TaskName } from '../engine/types.js';
import { type EpisodeResult, type EvalPlayer, runAgentEpisode, runPolicyEpisode } from './runner.js';
import { type EvalRow, evalRow } from './stats.js';

/** Options of {@link evaluate}. */
export interface EvaluateOptions {
  players: readonly EvalPlayer[];
  tasks: readonly TaskName[];
  /** Seeds as given (the holdout split offsets them). */
  seeds: readonly number[];
  holdout: boolean;
  /** Episodes run at once for agent players (default 1). */
  concurrency?: number;
  /** Called after each (player, task) cell. */
  onCell?: (row: EvalRow) => void;
}

/** What {@link evaluate} returns: one row per (player, task) cell, in player then task order. */
export interface EvaluateResult {
  rows: EvalRow[];
  /** Per-episode results, keyed `${player}|${task}`, in seed order. */
  episodes: Record<string, EpisodeResult[]>;
}

/** Run every player on every task over `seeds` (holdout split if asked) and summarise each cell (stats.ts). */
export async function evaluate(o: EvaluateOptions): Promise<EvaluateResult> {
  const rows: EvalRow[] = [];
  const episodes: Record<string, EpisodeResult[]> = {};
  const split = o.holdout ? 'holdout' : 'train';
  const limit = pLimit(Math.max(1, o.concurrency ?? 1));
  for (const player of o.players) {
    for (const task of o.tasks) {
      let eps: EpisodeResult[];
      if (player.kind === 'policy') {
        eps = o.seeds.map((seed) => runPolicyEpisode(player.policy, { task, seed, holdout: o.holdout }));
      } else {
        eps = await Promise.all(
          o.seeds.map((seed) => limit(() => runAgentEpisode(player.agent, { task, seed, holdout: o.holdout }))),
        );
      }
      episodes[`${player.name}|${task}`] = eps;
      const row = evalRow(player.name, task, split, eps);
      rows.push(row);
      o.onCell?.(row);
    }
  }
  return { rows, episodes };
}

/** Result of {@link parseSeeds}: the seeds, or `bad_seeds` with a message. */
export type SeedsParse = { ok: true; seeds: number[] } | { ok: false; code: 'bad_seeds'; message: string };

/** Parse "0-199", "5", "0,3,10-12" into a sorted list of unique integer seeds ≥ 0 (at most 100,000). */
export function parseSeeds(text: string): SeedsParse {
  const out = new Set<number>();
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) return { ok: false, code: 'bad_seeds', message: `cannot read seeds "${part}" (use 0-199 or 1,2,5-9)` };
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a) return { ok: false, code: 'bad_seeds', message: `empty seed range ${part}` };
    if (b - a + out.size >= 100_000) return { ok: false, code: 'bad_seeds', message: 'at most 100000 seeds' };
    for (let s = a; s <= b; s++) out.add(s);
  }
  if (out.size === 0) return { ok: false, code: 'bad_seeds', message: 'no seeds given' };
  return { ok: true, seeds: [...out].sort((x, y) => x - y) };
}
