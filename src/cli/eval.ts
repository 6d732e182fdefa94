/**
 * `npm run eval -- --tasks single_trade,market_round,coalition_market --seeds 0-199 [--holdout]
 *   [--policies a,b] [--json out.json] [--plugin ./module.ts] [--concurrency 4] [--breakdown]`
 *
 * Plays each policy on lab_0 against the scripted archetype seats (docs/RULES.md §8) on every seed and
 * prints a table (policy × task: n, mean, std, min, max, mean steps, invalid actions per episode), a
 * mean ± std pivot, and the feasibility shares of the generated jobs. `--json` writes the rows
 * `[{policy, task, split, n, mean, std, min, max, meanSteps, invalidPerEpisode, breakdown}]` (breakdown:
 * mean reward columns per episode).
 * `--liveliness` prints, per scripted policy (default rule_based_expert) and task, when lab_0 last had an open job (src/eval/liveliness.ts).
 * `--breakdown` adds, per (policy, task), the mean of each reward column and its share of the reward.
 * `--plugin` modules may export `registerEvalAgents(register)` to add `llm:<model>` players.
 * Exit codes: 0 ok, 2 bad arguments.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command } from 'commander';
import { z } from 'zod';
import { TASK_NAMES, type TaskName } from '../engine/types.js';
import { BASELINES } from '../engine/policies/index.js';
import type { AgentFactory } from '../agents/seat.js';
import { evaluate, parseSeeds } from '../eval/evaluate.js';
import { feasibility } from '../eval/feasibility.js';
import { registerAgentFactory, resolvePlayer } from '../eval/players.js';
import { registerEvalAgents as registerLlmEvalAgents } from '../app/llm.js';
import { HOLDOUT_SEED_OFFSET, type EvalPlayer } from '../eval/runner.js';
import type { EvalRow } from '../eval/stats.js';
import { num, renderTable } from '../eval/table.js';
import { printBreakdown } from '../eval/breakdown.js';
import { liveliness, type LivelinessRow } from '../eval/liveliness.js';
import { isPolicyName } from '../engine/policies/index.js';
import type { PolicyName } from '../engine/types.js';
import { renderChart } from '../analytics/charts/request.js';
import { evalChart } from '../analytics/charts/requests.js';

const ArgsSchema = z.object({
  tasks: z.string(),
  seeds: z.string(),
  holdout: z.boolean().default(false),
  policies: z.string(),
  json: z.string().optional(),
  chart: z.string().optional(),
  plugin: z.array(z.string()).default([]),
  concurrency: z.coerce.number().int().min(1).max(64).default(1),
  breakdown: z.boolean().default(false),
  liveliness: z.boolean().default(false),
});

const PluginSchema = z.object({
  registerEvalAgents: z.custom<(register: (f: AgentFactory) => void) => unknown>((v) => typeof v === 'function'),
});

function fail(message: string): never {
  console.error(`eval: ${message}`);
  process.exit(2);
}

async function loadPlugins(paths: readonly string[]): Promise<void> {
  for (const p of paths) {
    const mod: unknown = await import(pathToFileURL(resolve(p)).href);
    const parsed = PluginSchema.safeParse(mod);
    if (!parsed.success) fail(`plugin ${p} does not export registerEvalAgents(register)`);
    await parsed.data.registerEvalAgents(registerAgentFactory);
  }
}

/** Print the eval rows to stdout: the full table, then policy × task as `mean ± std` of the episode reward. */
export function printRows(rows: readonly EvalRow[]): void {
  console.log(
    renderTable(
      ['policy', 'task', 'split', 'n', 'mean', 'std', 'min', 'max', 'steps', 'invalid/ep'],
      rows.map((r) => [
        r.policy,
        r.task,
        r.split,
        r.n,
        r.mean,
        r.std,
        r.min,
        r.max,
        Number(r.meanSteps.toFixed(2)),
        Number(r.invalidPerEpisode.toFixed(3)),
      ]),
    ),
  );
  const tasks = [...new Set(rows.map((r) => r.task))];
  const policies = [...new Set(rows.map((r) => r.policy))];
  console.log('');
  console.log(
    renderTable(
      ['policy', ...tasks],
      policies.map((p) => [
        p,
        ...tasks
          .map((t) => rows.find((r) => r.policy === p && r.task === t))
          .map((r) => (r ? `${num(r.mean)} ± ${num(r.std)}` : '-')),
      ]),
    ),
  );
}

/** Print liveliness rows: mean share of the match before the seat had nothing left to decide. */
function printLiveliness(rows: readonly LivelinessRow[]): void {
  console.log(
    renderTable(
      ['policy', 'task', 'split', 'n', 'sealed at (mean)', 'std', 'min', 'max', 'episodes ≥ 80 %'],
      rows.map((r) => [
        r.policy,
        r.task,
        r.split,
        r.n,
        `${(100 * r.mean).toFixed(1)}%`,
        `${(100 * r.std).toFixed(1)}%`,
        `${(100 * r.min).toFixed(0)}%`,
        `${(100 * r.max).toFixed(0)}%`,
        `${(100 * r.atLeast80).toFixed(1)}%`,
      ]),
    ),
  );
}

async function main(): Promise<void> {
  const program = new Command()
    .name('eval')
    .description('Evaluate policies on the GPU arena tasks (docs/RULES.md §7–8).')
    .option('--tasks <list>', 'comma-separated tasks', TASK_NAMES.join(','))
    .option('--seeds <range>', 'seeds, e.g. 0-199 or 1,2,5-9', '0-199')
    .option('--holdout', 'holdout split: seeds + 50000 and holdout archetype parameters', false)
    .option('--policies <list>', 'comma-separated policies (scripted names or llm:<model>)', BASELINES.join(','))
    .option('--json <file>', 'write the rows as JSON')
    .option('--chart <file>', 'write a PNG of mean ± standard error per policy and task')
    .option('--plugin <module...>', 'modules exporting registerEvalAgents(register)')
    .option('--concurrency <n>', 'episodes at once for agent players', '1')
    .option('--breakdown', "also print each policy's mean reward columns and their shares of its reward", false)
    .option(
      '--liveliness',
      'instead: when each scripted policy (default rule_based_expert) on lab_0 has nothing left to decide, as a share of the match',
      false,
    )
    .parse(process.argv);
  const args = ArgsSchema.safeParse(program.opts());
  if (!args.success) fail(args.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const a = args.data;
  const tasks = a.tasks
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  for (const t of tasks)
    if (!(TASK_NAMES as readonly string[]).includes(t)) fail(`unknown task ${t} (tasks: ${TASK_NAMES.join(', ')})`);
  const seeds = parseSeeds(a.seeds);
  if (!seeds.ok) fail(seeds.message);
  if (a.liveliness) {
    const names =
      program.getOptionValueSource('policies') === 'default'
        ? ['rule_based_expert']
        : a.policies
            .split(',')
            .map((p) => p.trim())
            .filter(Boolean);
    for (const n of names) if (!isPolicyName(n)) fail(`--liveliness needs scripted policies (${n} is not one)`);
    printLiveliness(
      names.flatMap((n) => (tasks as TaskName[]).map((t) => liveliness(n as PolicyName, t, seeds.seeds, a.holdout))),
    );
    return;
  }
  await loadPlugins(a.plugin);
  // llm:<model> players through the configured OpenAI-compatible endpoint (src/app/llm.ts).
  if (a.policies.split(',').some((p) => p.trim().startsWith('llm:'))) {
    const llm = await registerLlmEvalAgents(registerAgentFactory);
    if (!llm.ok && a.plugin.length === 0) fail(`llm:<model> players need an endpoint. ${llm.message}`);
  }
  const players: EvalPlayer[] = [];
  for (const name of a.policies
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const r = resolvePlayer(name);
    if (!r.ok) fail(`${r.code}: ${r.message}`);
    players.push(r.player);
  }

  const split = a.holdout ? 'holdout' : 'train';
  const offset = a.holdout ? HOLDOUT_SEED_OFFSET : 0;
  console.log(
    `eval: ${players.length} policies × ${tasks.length} tasks × ${seeds.seeds.length} seeds (${split}, engine seeds +${offset})`,
  );
  const started = performance.now();
  const { rows } = await evaluate({
    players,
    tasks: tasks as TaskName[],
    seeds: seeds.seeds,
    holdout: a.holdout,
    concurrency: a.concurrency,
  });
  printRows(rows);
  if (a.breakdown) printBreakdown(rows);
  console.log('');
  console.log(
    renderTable(
      ['task', 'jobs', 'own blocks', 'through trades'],
      (tasks as TaskName[]).map((t) => {
        const f = feasibility(
          t,
          seeds.seeds.map((s) => s + offset),
        );
        return [t, f.jobs, `${(100 * f.ownShare).toFixed(1)}%`, `${(100 * f.marketShare).toFixed(1)}%`];
      }),
    ),
  );
  console.log(`\n${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (a.json) writeFileSync(a.json, `${JSON.stringify(rows, null, 2)}\n`);
  // Standard error of the mean: population std / √n (the table's std is the population std).
  if (a.chart)
    writeFileSync(
      a.chart,
      (
        await renderChart(
          evalChart(
            rows.map((r) => ({
              policy: r.policy,
              task: r.task,
              mean: r.mean,
              se: r.n > 0 ? r.std / Math.sqrt(r.n) : 0,
            })),
          ),
        )
      ).png,
    );
}

await main();
