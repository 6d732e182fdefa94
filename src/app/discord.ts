/**
 * Starting the Discord bot: `npm start -- --platform discord` (src/cli/main.ts calls {@link start}), or
 * {@link startDiscord} from code and tests. Wires the command catalogue and a {@link RoundHost} whose
 * out-of-command posts (timer round closes, agent turns, restore) go to the Discord channel.
 *
 * Needs DISCORD_TOKEN (see config.ts); commands are registered separately with `npm run discord:register`.
 * With `--shards` the entry point runs discord-shards.ts instead, whose shard processes each run {@link start}.
 *
 * Scale-out: private posts for other people wait in the store (`storeInbox`), so any process or shard
 * serves "My private update" and a restart keeps them; the host restores only Discord matches
 * (`platform: 'discord'`), so a Discord process never closes a Slack match's round it could not post.
 */
import { pino, type Logger } from 'pino';
import { COMMANDS, completions, runCommand, runText, setCommandErrorSink } from '../commands/index.js';
import type { PlatformContext } from './platform-context.js';
import { hostOptionsFromConfig } from './host-options.js';
import { createLlmRuntime } from './llm.js';
import { RoundHost, type RoundHostOptions } from '../host/index.js';
import type { EventStore } from '../store/types.js';
import type { CommandBackend } from '../adapters/discord/backend.js';
import { startDiscordBot, type DiscordBot } from '../adapters/discord/bot.js';
import { storeInbox } from '../adapters/discord/inbox.js';
import { SHARD_STOP_MESSAGE } from '../adapters/discord/sharding.js';
import { readDiscordConfig } from '../adapters/discord/config.js';
import { DiscordConfigError } from '../adapters/discord/errors.js';
import { ratingChangeHook } from '../analytics/ratings/match-over.js';
import { drainWithin, untilStopSignal } from './shutdown.js';

/** Options of {@link startDiscord}. */
export interface StartDiscordOptions {
  /** DISCORD_TOKEN (required), DISCORD_ADMIN_ROLE_ID, DISCORD_API_URL (see config.ts). */
  env: NodeJS.ProcessEnv;
  /** The event store (the caller owns it and closes it after `stop`). */
  store: EventStore;
  logger?: Logger;
  /** REST base for discord.js (overrides DISCORD_API_URL), e.g. a local emulator's `http://127.0.0.1:P/api`. */
  restApi?: string;
  /** Round host options besides store, publish and logger: judge, agentFor, clock, defaults, adminUserIds, … */
  hostOptions?: Omit<RoundHostOptions, 'store' | 'publish' | 'logger'>;
  /** A command still running after this many ms is deferred (default 2000). */
  softDeadlineMs?: number;
  /** Shards of this client (see DiscordBotOptions.shards); default: the ShardingManager's environment, else one. */
  shards?: { ids: number[]; count: number };
  /** `new` opens its match in a thread under a card (config `chat.threads`; default here false: in the channel). */
  threads?: boolean;
}

/** A running Discord bot and its round host, as {@link startDiscord} resolves them. */
export interface DiscordRuntime {
  bot: DiscordBot;
  host: RoundHost;
  /** Stops the host's timers and agent turns, then the client. The store stays open. */
  stop(): Promise<void>;
}

/** The catalogue run against `host`, as the Discord adapter's backend. */
export function hostBackend(host: RoundHost): CommandBackend {
  return {
    commands: COMMANDS,
    run: (channelId, caller, name, options, opts) => runCommand(host, channelId, caller, name, options, opts),
    runText: (channelId, caller, text, opts) => runText(host, channelId, caller, text, opts),
    complete: (channelId, caller, kind, typed, where) => completions(host, channelId, caller, kind, typed, where),
    async context(channelId, userId) {
      const m = await host.current(channelId);
      if (!m) return null;
      return {
        matchId: m.id,
        seat: userId ? host.seatOf(m, userId) : null,
        phase: m.phase,
        round: m.state?.round ?? null,
      };
    },
  };
}

/**
 * Logs in, then restores unfinished matches (their overdue closes are posted to their channels).
 * Rejects with a {@link DiscordConfigError} (`missing_env` naming DISCORD_TOKEN, or `invalid_env`), or
 * with discord.js's error when login fails (e.g. TokenInvalid).
 */
export async function startDiscord(opts: StartDiscordOptions): Promise<DiscordRuntime> {
  const config = readDiscordConfig(opts.env, ['DISCORD_TOKEN']);
  if (config instanceof Error) throw config;
  const logger = opts.logger ?? pino({ level: 'info' });
  setCommandErrorSink((err, where) =>
    logger.error({ command: where.name, err: err instanceof Error ? err.message : String(err) }, 'command failed'),
  );
  // The host publishes through the bot, which needs the host's backend: bind late.
  let bot: DiscordBot | null = null;
  const host = new RoundHost({
    // Each player's rating change follows a match's final post (src/analytics/ratings).
    onMatchOver: ratingChangeHook(opts.store, { includeSeeded: opts.hostOptions?.data?.includeSeeded ?? false }),
    platform: 'discord',
    ...opts.hostOptions,
    store: opts.store,
    logger: logger.child({ component: 'round-host' }),
    publish: async (channelId, reply) => {
      if (bot) await bot.publish(channelId, reply);
      else logger.warn({ channelId }, 'discord: post before the client was ready was dropped');
    },
  });
  const restApi = opts.restApi ?? config.apiUrl ?? undefined;
  try {
    bot = await startDiscordBot({
      backend: hostBackend(host),
      token: config.token,
      logger,
      adminRoleId: config.adminRoleId,
      inbox: storeInbox(opts.store, logger),
      ...(restApi ? { restApi } : {}),
      ...(opts.softDeadlineMs !== undefined ? { softDeadlineMs: opts.softDeadlineMs } : {}),
      ...(opts.shards ? { shards: opts.shards } : {}),
      threadsByDefault: opts.threads ?? false,
    });
  } catch (err) {
    await host.stop();
    throw err;
  }
  await host.restore();
  const started = bot;
  return {
    bot: started,
    host,
    async stop() {
      await host.stop();
      await started.stop();
    },
  };
}

/**
 * Entry point for `npm start -- --platform discord`: runs until SIGINT/SIGTERM, then stops taking
 * interactions and drains (in-flight commands, timer closes and their posts) for at most
 * `shutdown.drainSeconds` (src/app/shutdown.ts); a second signal exits at once. The caller closes the store.
 * Exit codes: 0 stopped by a signal, 1 login or runtime failure, 2 missing/invalid configuration.
 */
export async function start(ctx: PlatformContext): Promise<number> {
  const { config, store, logger } = ctx;
  // Listen for a stop from the start: a signal or a manager's stop during log-in and restore is kept and
  // honoured once the bot runs (a shard whose manager died meanwhile must not stay connected for ever).
  const stopping = Promise.race([untilStopSignal(logger), managerStop()]);
  const llm = await createLlmRuntime(config.llm, logger, store);
  let rt: DiscordRuntime;
  try {
    rt = await startDiscord({
      env: process.env,
      store,
      logger,
      threads: config.chat.threads,
      hostOptions: {
        ...hostOptionsFromConfig(config),
        judgeTimeoutMs: llm.hostJudgeTimeoutMs,
        ...(llm.judge ? { judge: llm.judge } : {}),
        ...(llm.agentFor
          ? { agentFor: llm.agentFor, defaultAgentModel: llm.defaultAgentModel, allowedModels: llm.allowedModels }
          : {}),
        ...(llm.llmSeatRefusal ? { llmSeatRefusal: llm.llmSeatRefusal } : {}),
      },
    });
  } catch (err) {
    if (err instanceof DiscordConfigError) {
      process.stderr.write(`${err.message}\n`);
      return 2;
    }
    logger.error({ err: (err as Error).message }, 'discord: could not start');
    return 1;
  }
  logger.info({ llm: llm.summary }, 'discord: running; press Ctrl+C to stop');
  const signal = await stopping;
  const drainSeconds = config.shutdown.drainSeconds;
  logger.info({ signal, drainSeconds }, 'discord: stopping');
  rt.bot.stopAccepting();
  const outcome = await drainWithin(() => rt.stop(), drainSeconds, logger);
  logger.info(outcome, 'discord: drained, closing the store');
  return 0;
}

/**
 * In a shard process (started by discord-shards.ts): resolves when the manager asks this shard to stop
 * (IPC {@link SHARD_STOP_MESSAGE}) or is gone (the IPC channel closed: an orphaned shard would hold its
 * gateway session while a new manager starts another). Never resolves in a process without a manager.
 */
function managerStop(): Promise<'manager' | 'manager_gone'> {
  if (!process.env.SHARDING_MANAGER || !process.send) return new Promise(() => {});
  if (!process.connected) return Promise.resolve('manager_gone');
  return new Promise((resolve) => {
    process.on('message', (m: unknown) => {
      if (typeof m === 'object' && m !== null && (m as { arena?: unknown }).arena === SHARD_STOP_MESSAGE.arena)
        resolve('manager');
    });
    process.once('disconnect', () => resolve('manager_gone'));
  });
}
