/**
 * `npm run leaderboard -- [--task <task>] [--kind people|models|all] [--format md|json|csv] [--out <file>]
 * [--chart <file.png>] [--history --format jsonl] [--db <file>] [--config <file>]`: the ratings across
 * every finished match in the database (see src/analytics/ratings), with every person together as one player
 * ("people") below the ranked rows. People appear as pseudonyms. Exit codes: 0 done,
 * 1 runtime failure, 2 bad options or configuration.
 */
import { writeFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { z } from 'zod';
import { renderChart } from '../analytics/charts/request.js';
import { ratingsChart } from '../analytics/charts/requests.js';
import { TASK_NAMES, type TaskName } from '../engine/types.js';
import { pseudonymizer } from '../analytics/preference/pseudonym.js';
import { formatHistory, formatLeaderboard, exportName } from '../analytics/ratings/format.js';
import { buildLeaderboard } from '../analytics/ratings/leaderboard.js';
import { ResultsLoader } from '../analytics/ratings/load.js';
import { liveRatings } from '../analytics/ratings/openskill.js';
import { parseOptions } from './options.js';
import { withConfiguredStore } from '../app/store.js';
import { fatalLine } from '../app/open-store.js';

const ArgsSchema = z
  .object({
    task: z.enum(TASK_NAMES as [TaskName, ...TaskName[]]).optional(),
    kind: z.enum(['people', 'models', 'all']).default('all'),
    format: z.enum(['md', 'json', 'csv', 'jsonl']).optional(),
    out: z.string().min(1).optional(),
    chart: z.string().min(1).optional(),
    history: z.boolean().default(false),
    samples: z.coerce.number().int().min(10).max(10_000).default(200),
    seed: z.string().default('arena-ratings'),
    db: z.string().min(1).optional(),
    config: z.string().min(1).optional(),
  })
  .refine((a) => (a.history ? (a.format ?? 'jsonl') === 'jsonl' : a.format !== 'jsonl'), {
    message: '--history writes jsonl; the table writes md, json or csv',
    path: ['format'],
  });

async function main(): Promise<number> {
  const program = new Command()
    .name('leaderboard')
    .description(
      'Ratings across finished matches: Bradley–Terry with 95% intervals (model while preliminary, then bootstrap), ranked by the lower bound; openskill; people as one player and against each model.',
    )
    .addOption(new Option('--task <task>', 'only matches of this task').choices([...TASK_NAMES]))
    .addOption(new Option('--kind <kind>', 'which players').choices(['people', 'models', 'all']))
    .addOption(
      new Option('--format <format>', 'md (default), json, csv; jsonl with --history').choices([
        'md',
        'json',
        'csv',
        'jsonl',
      ]),
    )
    .option('--out <file>', 'write to a file instead of stdout')
    .option('--chart <file>', 'also write the ratings chart as PNG')
    .option('--history', 'one row per match and player with the openskill rating before and after (jsonl)')
    .option('--samples <n>', 'bootstrap resamples (default 200)')
    .option('--seed <text>', 'bootstrap seed (default arena-ratings): same data, same table')
    .option('--db <file>', 'SQLite file (default: the configured database)')
    .option('--config <file>', 'config file (default config/arena.json if present)')
    .parse(process.argv);
  const args = parseOptions(program, ArgsSchema);
  return withConfiguredStore(args, async (store, config) => {
    const pseudo = await pseudonymizer(store, config.votes.pseudonymSecret);
    const { results, excluded } = await new ResultsLoader(store).load({}, { includeSeeded: config.data.includeSeeded });
    const all = args.task ? results.filter((r) => r.task === args.task) : results;
    let text: string;
    if (args.history) text = formatHistory(liveRatings(all).history, pseudo);
    else {
      const table = buildLeaderboard(results, {
        ...(args.task ? { task: args.task } : {}),
        kind: args.kind,
        samples: args.samples,
        seed: args.seed,
      });
      text = formatLeaderboard(table, (args.format ?? 'md') as 'md' | 'json' | 'csv', pseudo);
      if (args.chart)
        writeFileSync(
          args.chart,
          (
            await renderChart(
              ratingsChart(
                table.rows,
                `Ratings (${args.task ?? 'all tasks'}, ${table.matches} matches)`,
                (r) => exportName(r.player, pseudo),
                table.people,
              ),
            )
          ).png,
        );
    }
    if (args.out) writeFileSync(args.out, text);
    else process.stdout.write(text);
    const left = Object.entries(excluded).map(([k, n]) => `${n} ${k}`);
    process.stderr.write(
      `${results.length} counted match(es)${left.length ? `; not counted: ${left.join(', ')}` : ''}.\n`,
    );
    return 0;
  });
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(fatalLine('leaderboard', err));
    process.exit(1);
  },
);
