/**
 * `npm run bench:llm -- [--delay-ms 500,2000] [--rounds 3] [--repeats 3] [--seed 0] [--task coalition_market]
 *   [--max-concurrent 8] [--price-in 0.15] [--price-out 0.60] [--only rounds,read,concurrent,cost] [--json out.json]`
 *
 * How fast LLM rounds are, in multiples of D (the time one model call takes), and what a match costs: the
 * real RoundHost and LLM runtime against the OpenAI emulator answering every request after D ms
 * (src/cli/bench-llm-run.ts). For each D:
 * - rounds: round times with 1, 2 and 4 LLM seats, with the rule judge and with the LLM judge (all rounds,
 *   the rounds whose model was asked, the rounds that made no judge call);
 * - read: the latency of a `status` read sent when a judge call arrives (with 2 LLM seats and the LLM judge);
 * - concurrent: three matches of four LLM seats each at once (rule judge, at least 6 rounds each), each
 *   match's mean, median and slowest round;
 * - cost (at the smallest D): whole matches with 2 LLM seats and the LLM judge: calls and tokens per match
 *   and the cost at `--price-in` / `--price-out` dollars per million input / output tokens.
 * Medians over `--rounds` rounds of `--repeats` matches (seeds seed, seed+1, …). Exit codes: 0 ok, 2 bad arguments.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { Command } from 'commander';
import { z } from 'zod';
import { TASK_NAMES, type TaskName } from '../engine/types.js';
import { renderTable, type Cell } from '../eval/table.js';
import { median, playMatch, startWorld, usageOf } from './bench-llm-run.js';

const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
const SCENARIOS = ['rounds', 'read', 'concurrent', 'cost'] as const;

const ArgsSchema = z.object({
  delayMs: z
    .string()
    .transform((s) => list(s).map(Number))
    .pipe(z.array(z.number().int().min(1).max(60_000)).min(1)),
  rounds: z.coerce.number().int().min(1).max(20),
  repeats: z.coerce.number().int().min(1).max(20),
  seed: z.coerce.number().int().min(0),
  task: z.enum(TASK_NAMES as [TaskName, ...TaskName[]]),
  maxConcurrent: z.coerce.number().int().min(1).max(256),
  priceIn: z.coerce.number().min(0),
  priceOut: z.coerce.number().min(0),
  only: z
    .string()
    .transform(list)
    .pipe(z.array(z.enum(SCENARIOS)).min(1)),
  json: z.string().optional(),
});
type Args = z.output<typeof ArgsSchema>;

function fail(message: string): never {
  console.error(`bench:llm: ${message}`);
  process.exit(2);
}

/** `ms` in D, two decimals. */
const inD = (ms: number, d: number) => (ms / d).toFixed(2);

/** Round times (ms) over `a.rounds` rounds of `a.repeats` matches with `k` LLM seats, and whether the model judged each. */
async function roundTimes(
  a: Args,
  d: number,
  k: number,
  llmJudge: boolean,
): Promise<{ ms: number[]; judged: boolean[] }> {
  const out = { ms: [] as number[], judged: [] as boolean[] };
  for (let i = 0; i < a.repeats; i++) {
    const w = await startWorld({ delayMs: d, llmJudge, maxConcurrent: a.maxConcurrent });
    try {
      const p = await playMatch(w, `rounds-${i}`, a.task, a.seed + i, k, a.rounds);
      out.ms.push(...p.closes);
      out.judged.push(...p.judged);
    } finally {
      await w.close();
    }
  }
  return out;
}

/** "2.05 (2.01–2.19, n 7)" in D, or "-" for no round. */
const spread = (ms: readonly number[], d: number) =>
  ms.length ? `${inD(median(ms), d)} (${inD(Math.min(...ms), d)}–${inD(Math.max(...ms), d)}, n ${ms.length})` : '-';

async function main(): Promise<void> {
  const program = new Command()
    .name('bench:llm')
    .description(
      'Round times in D, reads during the judge, concurrent matches and the cost of a match, against the OpenAI emulator.',
    )
    .option(
      '--delay-ms <list>',
      'D: the emulator answers every request after this many ms (comma-separated list)',
      '500,2000',
    )
    .option('--rounds <n>', 'rounds measured per match', '3')
    .option('--repeats <n>', 'matches per figure (seeds seed, seed+1, …)', '3')
    .option('--seed <n>', 'first seed', '0')
    .option('--task <task>', `task (${TASK_NAMES.join(', ')})`, 'coalition_market')
    .option('--max-concurrent <n>', 'the process-wide limit of model calls in flight (llm.maxConcurrent)', '8')
    .option('--price-in <dollars>', 'price per million input (prompt) tokens', '0.15')
    .option('--price-out <dollars>', 'price per million output (completion) tokens', '0.60')
    .option('--only <list>', `scenarios (${SCENARIOS.join(', ')})`, SCENARIOS.join(','))
    .option('--json <file>', 'write the figures as JSON')
    .parse(process.argv);
  const parsed = ArgsSchema.safeParse(program.opts());
  if (!parsed.success) fail(parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; '));
  const a = parsed.data;
  const report: Record<string, unknown> = { args: a };
  console.log(
    `bench:llm — ${a.task}, seeds ${a.seed}–${a.seed + a.repeats - 1}, ${a.rounds} rounds each, llm.maxConcurrent ${a.maxConcurrent}; figures in D (the emulator's answer delay)`,
  );
  console.log(
    `machine: ${cpus().length} cores, load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' / ')} (1/5/15 min), Node ${process.versions.node}`,
  );

  for (const d of a.delayMs) {
    const at: Record<string, unknown> = {};
    report[`D=${d}`] = at;
    console.log(`\n## D = ${d} ms`);
    if (a.only.includes('rounds')) {
      const rows: Cell[][] = [];
      for (const k of [1, 2, 4]) {
        const rule = await roundTimes(a, d, k, false);
        const llm = await roundTimes(a, d, k, true);
        const asked = llm.ms.filter((_, i) => llm.judged[i]);
        const skipped = llm.ms.filter((_, i) => !llm.judged[i]);
        rows.push([
          `${k} LLM seat${k === 1 ? '' : 's'}`,
          spread(rule.ms, d),
          spread(llm.ms, d),
          spread(asked, d),
          spread(skipped, d),
        ]);
        at[`rounds_k${k}`] = { ruleMs: rule.ms, llmMs: llm.ms, llmJudged: llm.judged };
      }
      console.log(
        '\nRound time in D: median (range, rounds)\n' +
          renderTable(
            ['seats', 'rule judge', 'LLM judge, all rounds', 'LLM judge, model asked', 'LLM judge, no judge call'],
            rows,
          ),
      );
    }
    if (a.only.includes('read')) {
      const reads: { ms: number; beforeJudgeAnswer: boolean }[] = [];
      const closes: number[] = [];
      for (let i = 0; i < a.repeats; i++) {
        const w = await startWorld({
          delayMs: d,
          llmJudge: true,
          maxConcurrent: a.maxConcurrent,
          readDuringJudge: true,
        });
        try {
          closes.push(...(await playMatch(w, `read-${i}`, a.task, a.seed + i, 2, a.rounds, true)).closes);
          reads.push(...w.reads);
        } finally {
          await w.close();
        }
      }
      const ms = reads.map((r) => r.ms);
      at['read'] = { reads, closes };
      console.log(
        `\nA \`status\` read sent when a judge call arrives (2 LLM seats, LLM judge): ${reads.length} reads, median ${median(ms).toFixed(1)} ms = ${inD(median(ms), d)} D, max ${Math.max(...ms).toFixed(1)} ms = ${inD(Math.max(...ms), d)} D; ` +
          `${reads.filter((r) => r.beforeJudgeAnswer).length} of ${reads.length} answered before the judge's answer was sent; those rounds took ${inD(median(closes), d)} D (median).`,
      );
    }
    if (a.only.includes('concurrent')) {
      // Rounds of concurrent matches fall into step with each other: at least 6 rounds each, so a mean says who waited.
      const rounds = Math.max(a.rounds, 6);
      const rows: Cell[][] = [];
      const per: number[][] = [[], [], []];
      for (let i = 0; i < a.repeats; i++) {
        const w = await startWorld({ delayMs: d, llmJudge: false, maxConcurrent: a.maxConcurrent });
        try {
          const runs = await Promise.all(
            [0, 1, 2].map((j) => playMatch(w, `conc-${i}-${j}`, a.task, a.seed + i * 3 + j, 4, rounds)),
          );
          runs.forEach((r, j) => per[j]!.push(...r.closes));
        } finally {
          await w.close();
        }
      }
      const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
      per.forEach((xs, j) =>
        rows.push([
          `match ${j + 1} (started ${['first', 'second', 'third'][j]})`,
          inD(mean(xs), d),
          inD(median(xs), d),
          inD(Math.max(...xs), d),
        ]),
      );
      at['concurrent'] = per;
      console.log(
        `\nThree matches at once, four LLM seats each, rule judge (llm.maxConcurrent ${a.maxConcurrent}; ${rounds} rounds × ${a.repeats})\n` +
          renderTable(['match', 'mean round (D)', 'median round (D)', 'slowest round (D)'], rows),
      );
    }
  }

  if (a.only.includes('cost')) {
    const d = Math.min(...a.delayMs);
    const w = await startWorld({ delayMs: d, llmJudge: true, maxConcurrent: a.maxConcurrent });
    const rows: Cell[][] = [];
    const cost: unknown[] = [];
    try {
      const played = await Promise.all(
        Array.from({ length: a.repeats }, (_, i) => playMatch(w, `cost-${i}`, a.task, a.seed + i, 2, 'all')),
      );
      for (const [i, p] of played.entries()) {
        const use = await usageOf(w.store, p.matchId);
        const agent = use.get('bench-agent') ?? { calls: 0, prompt: 0, completion: 0 };
        const judge = use.get('bench-judge') ?? { calls: 0, prompt: 0, completion: 0 };
        const prompt = agent.prompt + judge.prompt;
        const completion = agent.completion + judge.completion;
        const dollars = (prompt * a.priceIn + completion * a.priceOut) / 1e6;
        rows.push([
          `seed ${a.seed + i}`,
          p.closes.length,
          agent.calls,
          judge.calls,
          prompt + completion,
          dollars.toFixed(4),
        ]);
        cost.push({ seed: a.seed + i, rounds: p.closes.length, agent, judge, dollars });
      }
    } finally {
      await w.close();
    }
    report['cost'] = cost;
    console.log(
      `\nOne match, 2 LLM seats + the LLM judge (D = ${d} ms; $${a.priceIn} / $${a.priceOut} per million input / output tokens)\n` +
        renderTable(['match', 'rounds', 'seat calls', 'judge calls', 'tokens', 'cost ($)'], rows),
    );
  }
  if (a.json) writeFileSync(a.json, JSON.stringify(report, null, 2));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
