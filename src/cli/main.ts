/**
 * `npm start`: GPU Arena's entry point.
 *
 *     npm start                                   # console match in this terminal (SQLite ./data/arena.db)
 *     npm start -- --task coalition_market --seed 7 --round-seconds 0 --db :memory:
 *     npm start -- --platform discord|slack       # the chat bots (when their adapters are installed)
 *     npm start -- --platform discord --shards auto   # Discord: one process per shard (ShardingManager)
 *
 * Options override the config file and environment variables (src/app/config/schema.ts lists them all).
 * `--db <file>` forces SQLite at that path even when DATABASE_URL is set.
 *
 * Chat platforms are loaded from the registry in src/app/platforms.ts only when chosen.
 * Exit codes: 0 done, 1 runtime failure, 2 bad options or configuration.
 */
import { Command, Option } from 'commander';
import { pino, type Logger } from 'pino';
import { PLATFORMS, PLATFORM_NAMES, SHARDED_DISCORD } from '../app/platforms.js';
import { z } from 'zod';
import { CONSOLE_CHANNEL, CONSOLE_USER, runConsole, type ConsoleSeat } from '../adapters/console/session.js';
import type { Persistence } from '../adapters/console/persistence.js';
import { allowedModelsOf, createLlmRuntime } from '../app/llm.js';
import { dataPolicyOf, loadConfig, type ArenaConfig } from '../app/config/index.js';
import { TASK_NAMES, type TaskName } from '../engine/types.js';
import { MAX_ROUND_SECONDS } from '../match/settings.js';
import { DatabaseUnavailableError, fatalLine, openConfiguredStore } from '../app/open-store.js';
import { DEFAULT_SQLITE_PATH } from '../store/sqlite.js';

/** A command-line integer in [min, max], with one message for every way it can be wrong. */
const wholeNumber = (min: number, max: number) => {
  const error = `expected a whole number from ${min} to ${max}`;
  return z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};

const OptionsSchema = z.object({
  platform: z.enum(PLATFORM_NAMES),
  task: z.enum(TASK_NAMES as [TaskName, ...TaskName[]]).optional(),
  /** A number, or a finished match's published secret (32 hex digits) to play its world again. */
  seed: z
    .union(
      [
        wholeNumber(0, 2 ** 31 - 1),
        z
          .string()
          .trim()
          .toLowerCase()
          .regex(/^[0-9a-f]{32}$/),
      ],
      { error: 'expected a whole number from 0 to 2147483647, or a match secret (32 hex digits)' },
    )
    .optional(),
  roundSeconds: wholeNumber(0, MAX_ROUND_SECONDS).optional(),
  db: z.string().min(1).optional(),
  config: z.string().min(1).optional(),
  seat: z.array(z.string()).default([]),
  /** console: `true` (the flag alone) resumes the latest unfinished console match; a match id resumes that one. */
  resume: z
    .union([z.literal(true), z.string().regex(/^m_[0-9a-f]{6,32}$/, 'a match id such as m_1a2b3c4d5e6f')])
    .optional(),
  /** Checked by src/adapters/discord/shard-spec.ts once the platform is known. */
  shards: z.string().trim().min(1).optional(),
});

/**
 * `--seat lab_2=llm:<model>` / `--seat lab_2=llm` (the configured agent model) / `--seat lab_1=scripted:<policy>`.
 * Returns the seats or a message naming what is wrong.
 */
function parseSeats(specs: readonly string[], defaultModel: string | null): ConsoleSeat[] | string {
  const seats: ConsoleSeat[] = [];
  for (const spec of specs) {
    const m = /^(lab_\d+)=(llm|scripted)(?::(.+))?$/.exec(spec.trim());
    if (!m) return `--seat ${spec}: expected lab_N=llm:<model> or lab_N=scripted:<policy>`;
    const [, lab, agent, name] = m as unknown as [string, string, 'llm' | 'scripted', string | undefined];
    if (agent === 'llm') {
      const model = name ?? defaultModel;
      if (!model) return `--seat ${spec}: no model named and ARENA_AGENT_MODEL is not set`;
      seats.push({ lab, agent, name: model });
    } else seats.push({ lab, agent, name: name ?? 'cooperative' });
  }
  return seats;
}

/** A shell word for a path in the resume command (quoted only when it needs to be). */
const shellWord = (s: string): string => (/^[\w./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * Where the console's store keeps the match and the command that resumes it; null for an in-memory SQLite
 * database, which keeps nothing (then no chart files are written either). A PostgreSQL URL is not shown:
 * it may hold a password.
 */
function keepingOf(db: string | undefined, config: ArenaConfig): Persistence | null {
  if (!db && config.database.url) return { where: 'the PostgreSQL database of DATABASE_URL', resume: 'npm start' };
  const path = db ?? config.database.sqlitePath;
  if (path === ':memory:') return null;
  // --db (or ARENA_DB / the config file) chose the file: the resume command names it, so it works as typed.
  return { where: path, resume: path === DEFAULT_SQLITE_PATH ? 'npm start' : `npm start -- --db ${shellWord(path)}` };
}

function parseArgs(argv: string[]): z.output<typeof OptionsSchema> {
  const program = new Command()
    .name('gpu-arena')
    .description('Judged negotiation matches over scarce GPU capacity: console, Discord or Slack.')
    .addOption(new Option('--platform <name>', 'where to play').choices([...PLATFORM_NAMES]).default('console'))
    .addOption(new Option('--task <task>', 'task of a new match').choices([...TASK_NAMES]))
    .option(
      '--seed <n>',
      "seed of a new match: a number, or a finished match's secret to replay its world (default: a secret, printed when the match is over)",
    )
    .option('--round-seconds <n>', 'round timer of a new match in seconds; 0 = rounds close on `done`')
    .option('--db <file>', 'SQLite file (default ./data/arena.db; `:memory:` keeps nothing)')
    .option('--config <file>', 'config file (default config/arena.json if present)')
    .option(
      '--shards <spec>',
      "discord: run discord.js's ShardingManager, one process per shard: auto, a count (4) or a list of a total (0,1/4); default DISCORD_SHARDS, else no sharding",
    )
    .option(
      '--resume [match]',
      'console: resume a saved unfinished match (the latest, or this id) instead of starting a new one',
    )
    .option(
      '--seat <lab=driver>',
      'console: seat an agent before the match starts, e.g. lab_2=llm:gpt-4o-mini or lab_1=scripted:selfish (repeatable)',
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .showHelpAfterError()
    // Usage errors exit 2 (the documented code); --help exits 0.
    .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2))
    .parse(argv);
  const parsed = OptionsSchema.safeParse(program.opts());
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const flag = `--${String(issue?.path[0] ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  return program.error(`error: option ${flag}: ${issue?.message ?? 'invalid'}`, { exitCode: 2 });
}

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const loaded = loadConfig(args.config);
  if (!loaded.ok) {
    process.stderr.write(`${loaded.error.message}\n`);
    return 2;
  }
  const config = loaded.config;
  const consoleMode = args.platform === 'console';
  // In the terminal, only warnings go to stderr unless LOG_LEVEL asks for more.
  const level = consoleMode && !process.env.LOG_LEVEL ? 'warn' : config.log.level;
  const logger = pino({ level }, pino.destination(2));
  // The shard manager runs no bot and opens no store: its shard processes (this entry again, without
  // --shards, with SHARDING_MANAGER set by discord.js) do.
  if (
    args.resume !== undefined &&
    (args.seed !== undefined || args.task !== undefined || args.roundSeconds !== undefined)
  ) {
    process.stderr.write(
      'error: option --resume: it continues a saved match; --task, --seed and --round-seconds start a new one. Use one or the other.\n',
    );
    return 2;
  }
  if (args.shards !== undefined && args.platform !== 'discord') {
    process.stderr.write('error: option --shards: only with --platform discord\n');
    return 2;
  }
  const shards =
    args.platform !== 'discord' || process.env.SHARDING_MANAGER
      ? undefined
      : (args.shards ?? (process.env.DISCORD_SHARDS?.trim() || undefined));
  if (shards !== undefined) return (await SHARDED_DISCORD())({ config, logger, spec: shards });
  // A database that cannot be opened ends the process with one line (what failed, which setting): fatalLine below.
  const store = await openConfiguredStore({ db: args.db, database: config.database });
  armStopDeadline(config.shutdown.drainSeconds, logger);
  try {
    if (!consoleMode)
      return await (
        await PLATFORMS[args.platform as keyof typeof PLATFORMS]()
      )({ config, store, logger });
    // The person at this terminal is the operator: the models they name with --seat are allowed too.
    const named = args.seat.map((x) => /=llm:(.+)$/.exec(x)?.[1]).filter((x): x is string => Boolean(x));
    const llmConfig = named.length
      ? { ...config.llm, allowedModels: [...allowedModelsOf(config.llm), ...named] }
      : config.llm;
    const llm = await createLlmRuntime(llmConfig, logger, store);
    const seats = parseSeats(args.seat, llm.defaultAgentModel);
    if (typeof seats === 'string') {
      process.stderr.write(`${seats}\n`);
      return 2;
    }
    if (seats.some((s) => s.agent === 'llm') && !llm.agentFor) {
      process.stderr.write(`--seat …=llm needs an LLM endpoint. ${llm.summary}\n`);
      return 2;
    }
    // As the chat platforms refuse `seat … agent:llm` up front: a seat that could never make a call is
    // refused before the match starts, not found waiting at every round.
    const spent = seats.some((s) => s.agent === 'llm')
      ? await llm.llmSeatRefusal?.({ channelId: CONSOLE_CHANNEL, personId: CONSOLE_USER.userId })
      : null;
    if (spent) {
      process.stderr.write(
        `--seat …=llm: ${spent.replace(/ Seat a scripted policy .*$/, '')} Seat a scripted policy instead (--seat lab_N=scripted:<policy>).\n`,
      );
      return 2;
    }
    const interactive = Boolean(process.stdin.isTTY);
    const keeping = keepingOf(args.db, config);
    return await runConsole({
      store,
      logger,
      input: process.stdin,
      output: process.stdout,
      interactive,
      color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
      ...(args.resume !== undefined ? { resume: args.resume } : {}),
      task: args.task ?? config.match.task,
      ...(args.seed !== undefined ? { seed: args.seed } : {}),
      roundSeconds: args.roundSeconds ?? config.console.roundSeconds,
      holdout: config.match.holdout,
      votes: config.votes.enabled,
      ballots: { ballotSeconds: config.votes.ballotSeconds, perMinute: config.votes.perMinute },
      data: dataPolicyOf(config),
      seats,
      keeping,
      // An in-memory database keeps nothing, so no chart files either (their titles are printed instead).
      ...(keeping === null ? { chartsDir: null } : {}),
      notes: [llm.summary],
      judgeTimeoutMs: llm.hostJudgeTimeoutMs,
      ...(llm.judge ? { judge: llm.judge } : {}),
      ...(llm.agentFor ? { agentFor: llm.agentFor, defaultAgentModel: llm.defaultAgentModel } : {}),
    });
  } finally {
    await store.close();
  }
}

/**
 * The backstop of a graceful stop (src/app/shutdown.ts): once a SIGTERM/SIGINT arrived, the process exits 0
 * at the latest `drainSeconds` + 2 s later, whatever still hangs (a store that will not close, a console
 * command waiting on a model); a second signal exits at once (130 / 143). The platforms drain within
 * `drainSeconds` themselves; the console finishes the command in hand.
 */
function armStopDeadline(drainSeconds: number, logger: Pick<Logger, 'warn'>): void {
  let signals = 0;
  const on = (signal: NodeJS.Signals) => {
    if (++signals > 1) process.exit(signal === 'SIGINT' ? 130 : 143);
    setTimeout(
      () => {
        logger.warn({ signal, drainSeconds }, 'stop: still running after the drain time; exiting');
        process.exit(0);
      },
      (drainSeconds + 2) * 1000,
    ).unref();
  };
  process.on('SIGINT', on);
  process.on('SIGTERM', on);
}

main(process.argv).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(fatalLine('gpu-arena', err));
    process.exit(err instanceof DatabaseUnavailableError ? err.exitCode : 1);
  },
);
