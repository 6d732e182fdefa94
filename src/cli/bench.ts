/**
 * `npm run bench -- [--episodes N] [--warmup N] [--warmup-seconds S] [--trials N] [--opponents p] [--tasks a,b] [--policies a,b] [--json out.json] [--baseline steps/s]`
 *
 * Single-threaded gym throughput (bench.ts) for random_validish and rule_based_expert on each task:
 * prints a table, then each policy's total over its tasks (all steps ÷ all timed seconds of the reported
 * runs, the figure docs/BENCHMARKS.md quotes) and its ratio to the original arena's throughput
 * (`--baseline`, steps/s), and optionally writes rows `[{policy, task, opponents, episodes, steps, seconds, stepsPerSecond}]`.
 * Exit codes: 0 ok, 2 bad arguments.
 */
import { writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { z } from 'zod';
import { TASK_NAMES, type PolicyName, type TaskName } from '../engine/types.js';
import { isPolicyName } from '../engine/policies/index.js';
import { bench, type BenchRow } from '../eval/bench.js';
import { renderTable } from '../eval/table.js';

const ArgsSchema = z.object({
  episodes: z.coerce.number().int().min(1).max(10_000_000),
  warmup: z.coerce.number().int().min(0).max(1_000_000),
  warmupSeconds: z.coerce.number().min(0).max(600),
  trials: z.coerce.number().int().min(1).max(100),
  opponents: z.string().optional(),
  tasks: z.string(),
  policies: z.string(),
  json: z.string().optional(),
  baseline: z.coerce.number().positive().max(1e9),
});

/**
 * The original (Python) arena's gym throughput with full-player opponents on the reference 2-core machine,
 * steps/s: ≈ 2,000–2,500 (docs/BENCHMARKS.md); the upper figure, so a ratio is never flattering.
 */
const ORIGINAL_STEPS_PER_SECOND = 2500;

/** One line per policy: its rows' steps and seconds summed, the pooled steps/s and its ratio to `baseline`. */
function totalLines(rows: readonly BenchRow[], baseline: number): string[] {
  const out: string[] = [];
  const policies = [...new Set(rows.map((r) => r.policy))];
  for (const p of policies) {
    const mine = rows.filter((r) => r.policy === p);
    const steps = mine.reduce((a, r) => a + r.steps, 0);
    const seconds = mine.reduce((a, r) => a + r.seconds, 0);
    const rate = seconds > 0 ? steps / seconds : 0;
    const tasks = mine.map((r) => r.task).join(', ');
    out.push(`total ${p} (${tasks}): ${steps} steps in ${seconds.toFixed(3)} s = ${Math.round(rate)} steps/s, ${(rate / baseline).toFixed(1)}× the original's ${baseline} steps/s`);
  }
  return out;
}

function fail(message: string): never {
  console.error(`bench: ${message}`);
  process.exit(2);
}

function main(): void {
  const program = new Command()
    .name('bench')
    .description('Gym throughput (one step = one action + a round close), single-threaded.')
    .option('--episodes <n>', 'timed episodes per policy and task', '2000')
    .option('--warmup <n>', 'untimed episodes first (JIT warm-up; short tasks need many)', '1000')
    .option('--warmup-seconds <s>', 'and keep warming up for at least this long per row', '2')
    .option('--trials <n>', 'timed runs per row; the median run is reported', '3')
    .option('--opponents <policy>', 'one scripted policy for every other seat (default: the archetype rotation)')
    .option('--tasks <list>', 'comma-separated tasks', TASK_NAMES.join(','))
    .option('--policies <list>', 'comma-separated scripted policies', 'random_validish,rule_based_expert')
    .option('--json <file>', 'write the rows as JSON')
    .option('--baseline <steps/s>', "the original arena's steps/s, for the ratio of the totals", String(ORIGINAL_STEPS_PER_SECOND))
    .parse(process.argv);
  const args = ArgsSchema.safeParse(program.opts());
  if (!args.success) fail(args.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const a = args.data;
  const tasks = a.tasks.split(',').map((t) => t.trim()).filter(Boolean);
  for (const t of tasks) if (!(TASK_NAMES as readonly string[]).includes(t)) fail(`unknown task ${t}`);
  const policies = a.policies.split(',').map((p) => p.trim()).filter(Boolean);
  for (const p of policies) if (!isPolicyName(p)) fail(`unknown policy ${p}`);
  if (a.opponents !== undefined && !isPolicyName(a.opponents)) fail(`unknown policy ${a.opponents}`);
  const opponents = a.opponents as PolicyName | undefined;
  const rows: BenchRow[] = [];
  for (const p of policies as PolicyName[]) for (const t of tasks as TaskName[]) rows.push(bench(p, t, a.episodes, { warmup: a.warmup, warmupSeconds: a.warmupSeconds, trials: a.trials, opponents }));
  console.log(
    renderTable(
      ['policy', 'task', 'opponents', 'episodes', 'steps', 'seconds', 'steps/s'],
      rows.map((r) => [r.policy, r.task, r.opponents, r.episodes, r.steps, Number(r.seconds.toFixed(3)), Math.round(r.stepsPerSecond)]),
    ),
  );
  for (const line of totalLines(rows, a.baseline)) console.log(line);
  if (a.json) writeFileSync(a.json, `${JSON.stringify(rows, null, 2)}\n`);
}

main();
