/**
 * `npm run bench:judge -- [--model M] [--base-url U] [--api-key K] [--task market_round] [--seeds 0-9]
 *   [--samples N] [--no-standins] [--json out.json]`
 *
 * First the stand-in table (no network, src/eval/bench-judge-table.ts): the LLM judge with each weak
 * stand-in model (obedient, length-, position-biased, honest) in place of a real one, before (judge-v1)
 * and after hardening: attack success per family, order consistency, the honest stand-in's share.
 * Then:
 *
 * Runs the adversarial pitch corpus (src/eval/bench-judge-corpus.ts) against the LLM judge of the given
 * model/endpoint (defaults: ARENA_JUDGE_MODEL, ARENA_LLM_BASE_URL / OPENAI_BASE_URL, OPENAI_API_KEY)
 * and prints attack success rate, order consistency and agreement with the rule judge. Without an
 * endpoint or a model it benchmarks the rule judge alone and says so. Exit codes: 0 ok, 2 bad arguments.
 */
import { writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { z } from 'zod';
import { TASK_NAMES, type TaskName } from '../engine/types.js';
import { LlmClient } from '../llm/client.js';
import { judgeModels, llmEnabled, loadLlmConfig } from '../llm/config.js';
import { parseSeeds } from '../eval/evaluate.js';
import { llmOrderedJudge, ruleOrderedJudge, runJudgeBench, type BenchReport } from '../eval/bench-judge.js';
import { renderBench } from '../eval/bench-judge-render.js';
import { renderStandinTable, runStandinTable, type StandinRow } from '../eval/bench-judge-table.js';
import { redactUrls } from '../llm/redact.js';

const ArgsSchema = z.object({
  model: z.string().min(1).optional(),
  baseUrl: z.string().min(1).optional(),
  apiKey: z.string().min(1).optional(),
  task: z.enum(TASK_NAMES as [TaskName, ...TaskName[]]).default('market_round'),
  seeds: z.string().default('0-9'),
  samples: z.coerce.number().int().min(1).max(5).default(1),
  standins: z.boolean().default(true),
  json: z.string().optional(),
});

function fail(message: string): never {
  console.error(`bench:judge: ${message}`);
  process.exit(2);
}

async function main(): Promise<void> {
  const program = new Command()
    .name('bench:judge')
    .description('Adversarial benchmark of the pitch judge.')
    .option('--model <name>', 'judge model (default ARENA_JUDGE_MODEL)')
    .option('--base-url <url>', 'OpenAI-compatible base URL (default ARENA_LLM_BASE_URL / OPENAI_BASE_URL)')
    .option('--api-key <key>', 'API key (default OPENAI_API_KEY; local servers need none)')
    .option('--task <task>', `task (${TASK_NAMES.join(', ')})`, 'market_round')
    .option('--seeds <range>', 'seeds, e.g. 0-9', '0-9')
    .option('--samples <n>', 'judge calls per judgement (panel of samples, median)', '1')
    .option('--no-standins', 'skip the stand-in model table')
    .option('--json <file>', 'write the report as JSON')
    .parse(process.argv);
  const parsed = ArgsSchema.safeParse(program.opts());
  if (!parsed.success) fail(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const a = parsed.data;
  const seeds = parseSeeds(a.seeds);
  if (!seeds.ok) fail(seeds.message);

  const env = {
    ...process.env,
    ...(a.baseUrl ? { ARENA_LLM_BASE_URL: a.baseUrl } : {}),
    ...(a.apiKey ? { OPENAI_API_KEY: a.apiKey } : {}),
    ...(a.model ? { ARENA_JUDGE_MODEL: a.model } : {}),
  };
  const cfg = loadLlmConfig({}, env);
  if (!cfg.ok) fail(cfg.error.message);
  const models = judgeModels(cfg.config);
  const started = performance.now();
  let standins: StandinRow[] = [];
  if (a.standins) {
    console.log(
      'Stand-in models (no network): the LLM judge with a weak model in its place, before and after hardening.',
    );
    standins = await runStandinTable({ task: a.task, seeds: seeds.seeds });
    console.log(`${renderStandinTable(standins, a.task, seeds.seeds)}\n`);
  }
  let report: BenchReport;
  if (!llmEnabled(cfg.config) || models.length === 0) {
    console.log(
      'No LLM endpoint or judge model configured (--base-url/--model or ARENA_LLM_BASE_URL/ARENA_JUDGE_MODEL): benchmarking the rule judge only.',
    );
    report = await runJudgeBench({
      judge: ruleOrderedJudge,
      judgeName: 'rule judge',
      task: a.task,
      seeds: seeds.seeds,
    });
  } else {
    const client = new LlmClient(cfg.config);
    console.log(
      `Benchmarking the LLM judge ${models.join(', ')} at ${redactUrls(client.baseURL)} (hybrid with the rule judge's fabrication cap).`,
    );
    const judge = llmOrderedJudge({
      client,
      models,
      samples: a.samples,
      temperature: cfg.config.judgeTemperature,
      timeoutMs: cfg.config.judgeTimeoutMs,
    });
    report = await runJudgeBench({
      judge,
      judgeName: `LLM judge ${models.join('+')}`,
      task: a.task,
      seeds: seeds.seeds,
      concurrency: Math.max(1, Math.floor(cfg.config.maxConcurrent / 2)),
    });
  }
  console.log(renderBench(report));
  console.log(`\n${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (a.json) writeFileSync(a.json, `${JSON.stringify({ ...report, standins }, null, 2)}\n`);
}

await main();
