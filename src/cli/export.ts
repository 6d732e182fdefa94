/**
 * `npm run export -- --match <id> --format transcript|jsonl|ledger [--out file] [--db file | DATABASE_URL]`
 * `npm run export -- --votes --format trl|openai-dpo|jsonl [--source human|judge] [--include-identifying] [--match id | --since date] [--out file]`
 * `npm run export -- --sft --format trl|openai [--author person|llm|scripted] [--match id | --since date] [--out file]`
 *
 * Without --votes/--sft: a match's transcript (markdown, see transcript.ts) or its event log as JSON lines
 * (one stored event per line: `{matchId, seq, at, body}`, in seq order) or its reward ledger (one entry per
 * line: seat, round, column, amount, reason, event seq; see LedgerRowSchema in src/present/ledger.ts). With --votes: preference rows of
 * pitch pairs labelled by people (default: votes on anonymous ballot pairs only; --include-identifying adds the
 * rest) or by the judge; with --sft: demonstrations (src/analytics/preference,
 * formats in src/analytics/preference/formats.ts, every row validated before it is written; people only as
 * pseudonyms). The store is the one the bot uses: `--db` (SQLite), else DATABASE_URL / the config file,
 * else ./data/arena.db. Exit codes: 0 written, 1 unknown match or store failure, 2 bad options or configuration.
 */
import { writeFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { z } from 'zod';
import type { EventStore } from '../store/types.js';
import { sftRows, type AuthorFilter } from '../analytics/preference/export-sft.js';
import { preferenceRows } from '../analytics/preference/export-votes.js';
import { PreferenceFormatSchema, SftFormatSchema, SourceSchema } from '../analytics/preference/formats.js';
import { loadMatchData, selectMatchData, selectMatches } from '../analytics/preference/index.js';
import { grantedIds, withConsent } from '../analytics/preference/consent.js';
import type { MatchData } from '../analytics/preference/dataset.js';
import { pseudonymizer } from '../analytics/preference/pseudonym.js';
import { renderTranscript } from '../present/transcript.js';
import { ledgerRows } from '../present/ledger.js';
import { replay } from '../match/replay.js';
import { parseOptions } from './options.js';
import { withConfiguredStore } from '../app/store.js';
import { writeDataset } from './export-dataset.js';
import { fatalLine } from '../app/open-store.js';

const since = z
  .string()
  .refine((s) => !Number.isNaN(Date.parse(s)), 'expected a date such as 2030-01-31 or an ISO timestamp')
  .transform((s) => new Date(Date.parse(s)).toISOString());

const ArgsSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('match'),
    match: z.string().trim().min(1),
    format: z.enum(['transcript', 'jsonl', 'ledger']).default('transcript'),
  }),
  z.object({
    kind: z.literal('votes'),
    match: z.string().trim().min(1).optional(),
    since: since.optional(),
    format: PreferenceFormatSchema.default('jsonl'),
    source: SourceSchema.default('human'),
    includeIdentifying: z.boolean().default(false),
  }),
  z.object({
    kind: z.literal('dataset'),
    dataset: z.string().trim().min(1),
    pseudonymKey: z
      .string()
      .regex(/^[0-9a-f]{32,128}$/, '32 to 128 lowercase hex digits')
      .optional(),
  }),
  z.object({
    kind: z.literal('sft'),
    match: z.string().trim().min(1).optional(),
    since: since.optional(),
    format: SftFormatSchema.default('trl'),
    author: z.enum(['person', 'llm', 'scripted']).optional(),
  }),
]);
const CommonSchema = z.object({
  out: z.string().min(1).optional(),
  db: z.string().min(1).optional(),
  config: z.string().min(1).optional(),
});

async function main(): Promise<number> {
  const program = new Command()
    .name('export')
    .description("Export a match's transcript or event log, preference pairs (--votes) or demonstrations (--sft).")
    .option('--match <id>', 'match id (e.g. m_1a2b3c4d5e6f); required without --votes/--sft')
    .option('--votes', 'preference rows of pitch pairs (labelled by people, or by the judge with --source judge)')
    .option('--sft', "demonstrations: each seat's observation and its actions per round")
    .option(
      '--dataset <dir>',
      'a dataset release into a new directory: JSON lines, a dataset card (README.md) and SHA256SUMS',
    )
    .option('--pseudonym-key <hex>', "--dataset: this release's pseudonym key (default: a fresh one, printed once)")
    .addOption(
      new Option(
        '--format <format>',
        'transcript|jsonl|ledger (a match), trl|openai-dpo|jsonl (--votes), trl|openai (--sft)',
      ),
    )
    .addOption(new Option('--source <source>', '--votes: who labels the pairs').choices(['human', 'judge']))
    .addOption(new Option('--author <kind>', '--sft: only seats driven by').choices(['person', 'llm', 'scripted']))
    .option(
      '--include-identifying',
      '--votes: also votes on ballot pairs that still identified an author after redaction',
    )
    .option('--since <date>', '--votes/--sft: only votes (human source) or matches created since this date')
    .option('--out <file>', 'write here instead of stdout')
    .option('--db <file>', 'SQLite file (default: the configured database)')
    .option('--config <file>', 'config file (default config/arena.json if present)')
    .parse(process.argv);
  const o = program.opts<Record<string, unknown>>();
  if (o.votes && o.sft) return program.error('error: --votes and --sft are exclusive', { exitCode: 2 });
  if (o.match && o.since) return program.error('error: --match and --since are exclusive', { exitCode: 2 });
  if (o.includeIdentifying && !o.votes)
    return program.error('error: --include-identifying goes with --votes', { exitCode: 2 });
  if ([o.votes, o.sft, o.dataset].filter(Boolean).length > 1)
    return program.error('error: --votes, --sft and --dataset are exclusive', { exitCode: 2 });
  const kind = o.dataset ? 'dataset' : o.votes ? 'votes' : o.sft ? 'sft' : 'match';
  const picked = Object.fromEntries(
    Object.entries({
      kind,
      match: o.match,
      format: o.format,
      source: o.source,
      author: o.author,
      since: o.since,
      includeIdentifying: o.includeIdentifying,
      dataset: o.dataset,
      pseudonymKey: o.pseudonymKey,
    }).filter(([, v]) => v !== undefined),
  );
  const args = parseOptions(program, ArgsSchema, picked);
  const common = parseOptions(program, CommonSchema, o);
  return withConfiguredStore(common, async (store, config) => {
    if (args.kind === 'dataset')
      return writeDataset(store, config, await loadAll(store, {}), args.dataset, args.pseudonymKey);
    if (args.match && !(await store.getMatch(args.match))) {
      process.stderr.write(`No match ${args.match} in this database.\n`);
      return 1;
    }
    let text: string;
    if (args.kind === 'match') {
      const events = await store.load(args.match);
      if (args.format === 'ledger') {
        const rows = ledgerRows(replay(events)!);
        text = rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : '');
        process.stderr.write(`${rows.length} ledger entries\n`);
      } else
        text =
          args.format === 'jsonl'
            ? events.map((e) => JSON.stringify(e)).join('\n') + (events.length ? '\n' : '')
            : renderTranscript(events);
    } else {
      const configured = config.votes.pseudonymSecret;
      const pseudonymize = await pseudonymizer(store, configured);
      // Human labels: every match, votes since `since`; judge labels and demonstrations: matches created since.
      // Host-seeded matches (practice) only with config `data.includeSeeded`; identifying votes only when asked.
      const selection = {
        includeIdentifying: args.kind === 'votes' && args.includeIdentifying,
        includeSeeded: config.data.includeSeeded,
      };
      const byVotes = args.kind === 'votes' && args.source === 'human';
      // People's words and votes only with their consent (consent.ts).
      const matches = withConsent(
        await loadAll(store, {
          ...(args.match ? { matchId: args.match } : {}),
          ...(args.since && !byVotes ? { since: args.since } : {}),
        }),
        grantedIds(await store.listConsents()),
      );
      const rows =
        args.kind === 'votes'
          ? preferenceRows(matches, {
              format: args.format,
              source: args.source,
              pseudonymize,
              selection,
              ...(args.since ? { since: args.since } : {}),
            })
          : sftRows(matches, {
              format: args.format,
              pseudonymize,
              selection,
              ...(args.author ? { author: args.author as AuthorFilter } : {}),
            });
      text = rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : '');
      const kept = selectMatchData(matches, selection).length;
      const seeded = matches.length - kept;
      const left = seeded
        ? `; ${seeded} match${seeded === 1 ? '' : 'es'} seeded by the host (practice) left out (config data.includeSeeded counts them)`
        : '';
      process.stderr.write(`${rows.length} rows from ${kept} match${kept === 1 ? '' : 'es'}${left}\n`);
    }
    if (common.out) writeFileSync(common.out, text);
    else process.stdout.write(text);
    return 0;
  });
}

async function loadAll(store: EventStore, filter: { matchId?: string; since?: string }): Promise<MatchData[]> {
  const out: MatchData[] = [];
  for (const rec of await selectMatches(store, filter)) {
    const d = await loadMatchData(store, rec.id);
    if (d) out.push(d);
  }
  return out;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(fatalLine('export', err));
    process.exit(1);
  },
);
