/**
 * `npm run stats -- [--match id] [--include-identifying] [--json] [--chart out.png] [--db file] [--config file]`
 *
 * Preference statistics (src/analytics/preference/stats.ts) of one match, or of every match in the database:
 * chat-style text, or the full {@link PreferenceStats} as JSON. Only votes on anonymous ballot pairs count
 * unless --include-identifying (src/analytics/preference/selection.ts). The store is the bot's: `--db` (SQLite),
 * else DATABASE_URL / the config file, else ./data/arena.db.
 * Exit codes: 0 written, 1 unknown match or store failure, 2 bad options or configuration.
 */
import { writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { z } from 'zod';
import { renderSpec } from '../analytics/charts/render.js';
import { preferenceChartSpec } from '../analytics/preference/chart.js';
import { formatStats, statsForMatches } from '../analytics/preference/index.js';
import { parseOptions } from './options.js';
import { withConfiguredStore } from '../app/store.js';
import { fatalLine } from '../app/open-store.js';

const ArgsSchema = z.object({
  match: z.string().trim().min(1).optional(),
  json: z.boolean().optional(),
  includeIdentifying: z.boolean().optional(),
  chart: z.string().min(1).optional(),
  db: z.string().min(1).optional(),
  config: z.string().min(1).optional(),
});

async function main(): Promise<number> {
  const program = new Command()
    .name('stats')
    .description('Judge–human agreement, human–human agreement and position bias of the collected votes.')
    .option('--match <id>', 'one match (default: every match)')
    .option('--include-identifying', 'also count votes on ballot pairs that still identified an author after redaction')
    .option('--json', 'print the full statistics as JSON')
    .option('--chart <file>', 'also write a PNG chart of the rates with their 95% intervals')
    .option('--db <file>', 'SQLite file (default: the configured database)')
    .option('--config <file>', 'config file (default config/arena.json if present)')
    .parse(process.argv);
  const args = parseOptions(program, ArgsSchema);
  return withConfiguredStore(args, async (store, config) => {
    if (args.match && !(await store.getMatch(args.match))) {
      process.stderr.write(`No match ${args.match} in this database.\n`);
      return 1;
    }
    const stats = await statsForMatches(store, args.match ? { matchId: args.match } : {}, {
      includeIdentifying: args.includeIdentifying ?? false,
      includeSeeded: config.data.includeSeeded,
    });
    if (args.chart) writeFileSync(args.chart, (await renderSpec(preferenceChartSpec(stats))).png);
    process.stdout.write(args.json ? `${JSON.stringify(stats, null, 2)}\n` : `${formatStats(stats)}\n`);
    return 0;
  });
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(fatalLine('stats', err));
    process.exit(1);
  },
);
