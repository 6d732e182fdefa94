/**
 * Starting the Slack bot for real: settings from the environment (config.ts), the round host on the
 * event store, the catalogue as the backend, retries deduplicated through the store's claims (so several
 * bot processes sharing one PostgreSQL database never apply a retried request twice; claims older than a
 * day are pruned, dedupe.ts storeClaims), then
 * `host.restore()` so unfinished matches resume and overdue rounds close.
 *
 * - {@link startSlack}: programmatic (tests, other entry points); resolves once connected.
 * - {@link start}: the `npm start -- --platform slack` entry used by src/cli/main.ts; runs until SIGINT/SIGTERM.
 */
import { pino, type Logger } from 'pino';
import { runCommand, runText, setCommandErrorSink } from '../commands/index.js';
import { homeEntries, homeRecord } from '../commands/home.js';
import type { ArenaConfig } from './config/index.js';
import { createLlmRuntime } from './llm.js';
import type { PlatformContext } from './platform-context.js';
import { hostOptionsFromConfig } from './host-options.js';
import { RoundHost } from '../host/index.js';
import { openStore } from '../store/open.js';
import type { EventStore } from '../store/types.js';
import type { SlackClientOptions } from '../adapters/slack/app.js';
import type { SlackBackend } from '../adapters/slack/backend.js';
import { startSlackBot, type SlackBot } from '../adapters/slack/bot.js';
import { storeClaims } from '../adapters/slack/dedupe.js';
import { readSlackConfig, SlackConfigError } from '../adapters/slack/config.js';
import { ratingChangeHook } from '../analytics/ratings/match-over.js';
import { drainWithin, untilStopSignal } from './shutdown.js';

/** The catalogue (src/commands) over a round host, as the Slack adapter's backend. */
export function catalogueBackend(host: RoundHost): SlackBackend {
  return {
    runText: (channelId, caller, text, opts) => runText(host, channelId, caller, text, opts),
    runCommand: (channelId, caller, name, options, opts) => runCommand(host, channelId, caller, name, options, opts),
    home: async (userId) => ({
      entries: await homeEntries(host, userId, 'slack'),
      record: await homeRecord(host, userId),
    }),
    async context(channelId, userId) {
      const m = await host.current(channelId);
      return m ? { matchId: m.id, seat: host.seatOf(m, userId) } : null;
    },
  };
}

/** Options of {@link startSlack}. */
export interface StartSlackOptions {
  /** Where SLACK_* variables are read (usually process.env). */
  env: NodeJS.ProcessEnv;
  /** Event store; default: opened from DATABASE_URL (else SQLite ./data/arena.db) and closed by stop(). */
  store?: EventStore;
  /** App settings: match defaults, admin ids and the LLM judge/agents; default: built-in defaults, no LLM. */
  config?: ArenaConfig;
  /**
   * A round host to use instead of building one; its `publish` must forward to the returned
   * `bot.publish` (timer round closes). Default: a host built here (and stopped by stop()).
   */
  host?: RoundHost;
  logger?: Logger;
  /** HTTP mode: port (default SLACK_PORT / PORT / 3000; 0 = any free port) and listen address. */
  port?: number;
  listenHost?: string;
  /** WebClient options, e.g. `{ slackApiUrl }` for an emulator (SLACK_API_URL also works). */
  clientOptions?: SlackClientOptions;
  /** Spacing of channel posts (default 1000 ms: Slack's 1 message/s per channel). */
  postIntervalMs?: number;
  /** `new` plays its match in the thread of a card (config `chat.threads`; default: the config's, else false). */
  threads?: boolean;
}

/** A running Slack bot and its round host, as {@link startSlack} resolves them. */
export interface StartedSlack {
  bot: SlackBot;
  host: RoundHost;
  /** HTTP mode: the port of `/slack/events`; undefined in Socket Mode. */
  port?: number;
  /** Waits for running work, disconnects, stops the host (if built here) and closes the store (if opened here). */
  stop(): Promise<void>;
}

/**
 * Reads SLACK_* settings, connects and resolves when the bot is ready.
 * @throws {SlackConfigError} `missing_env` / `invalid_env` naming the variable (message safe to print).
 */
export async function startSlack(opts: StartSlackOptions): Promise<StartedSlack> {
  const cfg = readSlackConfig(opts.env);
  if (cfg instanceof SlackConfigError) throw cfg;
  const logger = opts.logger ?? pino({ level: 'info' });
  const ownStore = !opts.store;
  const store = opts.store ?? (await openStore({ databaseUrl: opts.env['DATABASE_URL'] ?? '' }));
  setCommandErrorSink((err, where) =>
    logger.error(
      { err: err instanceof Error ? err.message : String(err), command: where.name, channelId: where.channelId },
      'command failed',
    ),
  );

  let bot: SlackBot | null = null;
  const host =
    opts.host ??
    (await buildHost(store, opts.config, logger, (channelId, reply) =>
      bot ? bot.publish(channelId, reply) : Promise.resolve(),
    ));
  try {
    bot = await startSlackBot({
      config: cfg,
      backend: catalogueBackend(host),
      logger,
      claim: storeClaims(store, { logger }),
      ...(opts.clientOptions ? { clientOptions: opts.clientOptions } : {}),
      ...(opts.postIntervalMs !== undefined ? { postIntervalMs: opts.postIntervalMs } : {}),
      threadsByDefault: opts.threads ?? opts.config?.chat.threads ?? false,
      ...(opts.port !== undefined ? { port: opts.port } : {}),
      ...(opts.listenHost ? { host: opts.listenHost } : {}),
    });
  } catch (err) {
    if (!opts.host) await host.stop();
    if (ownStore) await store.close();
    throw err;
  }
  if (!opts.host) await host.restore();
  const running = bot;
  return {
    bot: running,
    host,
    ...(running.port !== null ? { port: running.port } : {}),
    async stop() {
      // Requests in flight finish first (they use the host), then timers stop, then the connection.
      await running.idle();
      if (!opts.host) await host.stop();
      await running.stop();
      if (ownStore) await store.close();
    },
  };
}

async function buildHost(
  store: EventStore,
  config: ArenaConfig | undefined,
  logger: Logger,
  publish: ConstructorParameters<typeof RoundHost>[0]['publish'],
): Promise<RoundHost> {
  const llm = config ? await createLlmRuntime(config.llm, logger, store) : null;
  return new RoundHost({
    store,
    publish,
    logger,
    // On a database shared with a Discord bot, restore only Slack matches (their posts go out here).
    platform: 'slack',
    // Each player's rating change follows a match's final post (src/analytics/ratings).
    onMatchOver: ratingChangeHook(store, { includeSeeded: config?.data.includeSeeded ?? false }),
    ...(config ? hostOptionsFromConfig(config) : {}),
    ...(llm?.judge ? { judge: llm.judge, judgeTimeoutMs: llm.hostJudgeTimeoutMs } : {}),
    ...(llm?.agentFor
      ? { agentFor: llm.agentFor, defaultAgentModel: llm.defaultAgentModel, allowedModels: llm.allowedModels }
      : {}),
    ...(llm?.llmSeatRefusal ? { llmSeatRefusal: llm.llmSeatRefusal } : {}),
  });
}

/**
 * `npm start -- --platform slack` (src/cli/main.ts): runs the bot until SIGINT/SIGTERM, then stops taking
 * requests and drains (requests in flight, queued channel posts, timer closes) for at most
 * `shutdown.drainSeconds` (src/app/shutdown.ts); a second signal exits at once. The caller closes the store.
 * @returns the exit code: 0 after a stop, 2 for a configuration error (printed to stderr).
 */
export async function start(ctx: PlatformContext): Promise<number> {
  let started: StartedSlack;
  try {
    started = await startSlack({ env: process.env, store: ctx.store, config: ctx.config, logger: ctx.logger });
  } catch (err) {
    if (err instanceof SlackConfigError) {
      process.stderr.write(`${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const sig = await untilStopSignal(ctx.logger);
  const drainSeconds = ctx.config.shutdown.drainSeconds;
  ctx.logger.info({ signal: sig, drainSeconds }, 'slack: shutting down');
  started.bot.stopAccepting();
  const outcome = await drainWithin(() => started.stop(), drainSeconds, ctx.logger);
  ctx.logger.info(outcome, 'slack: drained, closing the store');
  return 0;
}
