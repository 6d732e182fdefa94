/**
 * `npm run export -- --match <id> --format transcript|jsonl [--out file] [--db file | DATABASE_URL]`
 *
 * Writes a match's transcript (markdown, see transcript.ts) or its event log as JSON lines (one stored
 * event per line: `{matchId, seq, at, body}`, in seq order) to `--out` or stdout. The store is the one
 * the bot uses: `--db` (SQLite), else DATABASE_URL / the config file, else ./data/arena.db.
 * Exit codes: 0 written, 1 unknown match or store failure, 2 bad options or configuration.
 */
import { writeFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { z } from 'zod';
import { loadConfig } from '../config';
import { openStore } from '../store';
import { renderTranscript } from './transcript';

const ArgsSchema = z.object({
  match: z.string().trim().min(1),
  format: z.enum(['transcript', 'jsonl']),
  out: z.string().min(1).optional(),
  db: z.string().min(1).optional(),
  config: z.string().min(1).optional(),
});

async function main(): Promise<number> {
  const program = new Command()
    .name('export')
    .description("Export a match's transcript (markdown) or event log (JSON lines).")
    .requiredOption('--match <id>', 'match id (e.g. m_1a2b3c4d5e6f)')
    .addOption(new Option('--format <format>', 'output format').choices(['transcript', 'jsonl']).default('transcript'))
    .option('--out <file>', 'write here instead of stdout')
    .option('--db <file>', 'SQLite file (default: the configured database)')
    .option('--config <file>', 'config file (default config/arena.json if present)')
    .parse(process.argv);
  const parsed = ArgsSchema.safeParse(program.opts());
  if (!parsed.success) return program.error(`error: --${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`, { exitCode: 2 });
  const args = parsed.data;
  const loaded = loadConfig(args.config);
  if (!loaded.ok) {
    process.stderr.write(`${loaded.error.message}\n`);
    return 2;
  }
  const db = loaded.config.database;
  const store = await openStore(args.db ? { sqlitePath: args.db } : { ...(db.url ? { databaseUrl: db.url } : {}), sqlitePath: db.sqlitePath });
  try {
    const record = await store.getMatch(args.match);
    if (!record) {
      process.stderr.write(`No match ${args.match} in this database.\n`);
      return 1;
    }
    const events = await store.load(args.match);
    const text = args.format === 'jsonl' ? events.map((e) => JSON.stringify(e)).join('\n') + (events.length ? '\n' : '') : renderTranscript(events);
    if (args.out) writeFileSync(args.out, text);
    else process.stdout.write(text);
    return 0;
  } finally {
    await store.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`export: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
