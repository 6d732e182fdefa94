/**
 * The running Slack bot: a Bolt App (app.ts) with the retry guard (dedupe.ts) and the `/arena`, button
 * and modal listeners (handlers.ts), posting through per-channel queues (deliver.ts). `publish` is what
 * the round host calls for posts that answer nobody (timer round closes, agent turns).
 */
import type { App } from '@slack/bolt';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Reply } from '../../commands/types.js';
import { createSlackApp, type SlackClientOptions } from './app.js';
import type { SlackBackend } from './backend.js';
import type { SlackConfig } from './config.js';
import { dedupeMiddleware, memoryClaims, type ClaimFn } from './dedupe.js';
import { ChannelQueues, POST_INTERVAL_MS, SlackPoster, errText } from './deliver.js';
import { registerHandlers } from './handlers.js';
import { slackSurface } from './threads.js';

/** Options of {@link startSlackBot}. */
export interface SlackBotOptions {
  config: SlackConfig;
  backend: SlackBackend;
  logger: Logger;
  /** Exactly-once claims for retry dedup; pass the store's `tryClaim` so it holds across processes. Default: in memory. */
  claim?: ClaimFn;
  clientOptions?: SlackClientOptions;
  /** Spacing of channel posts in ms (default 1000: Slack's 1 message/s per channel). Tests may lower it. */
  postIntervalMs?: number;
  /**
   * `new` posts a card in the channel and plays its match in the card's thread (threads.ts), unless
   * `thread:off` or the channel's setting says otherwise (config `chat.threads`; default here false).
   */
  threadsByDefault?: boolean;
  /** HTTP mode: port (default config.port; 0 = any free port) and host (default all interfaces). */
  port?: number;
  host?: string;
}

/** A connected Slack app (HTTP or Socket Mode) with the arena's listeners; what {@link startSlackBot} resolves to. */
export interface SlackBot {
  readonly app: App;
  readonly mode: SlackConfig['mode'];
  /** HTTP mode: the port `/slack/events` listens on; null in Socket Mode. */
  readonly port: number | null;
  /** Posts a reply that answers nobody: public posts to the channel (queued), private ones as ephemerals. */
  publish(channelId: string, reply: Reply): Promise<void>;
  /** Resolves when no request is being handled and every channel queue is empty. */
  idle(): Promise<void>;
  /**
   * Stop taking requests (a graceful stop began): each one from now on is acked at once — a slash command
   * with a short "restarting" note — and runs nothing.
   */
  stopAccepting(): void;
  /** Waits for running work, then disconnects (HTTP: closes the server; Socket Mode: closes the socket). */
  stop(): Promise<void>;
}

/** Tracks running handlers so tests and shutdown can wait for them without timing guesses. */
class Tracker {
  private readonly running = new Set<Promise<void>>();
  track(work: Promise<void>): Promise<void> {
    const done = work.finally(() => this.running.delete(done));
    this.running.add(done);
    return done;
  }
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}

/** Builds the app, connects (HTTP: listens; Socket Mode: opens the socket) and resolves when ready. */
export async function startSlackBot(opts: SlackBotOptions): Promise<SlackBot> {
  const logger = opts.logger.child({ platform: 'slack' });
  const { config } = opts;
  const app = createSlackApp({ config, logger, ...(opts.clientOptions ? { clientOptions: opts.clientOptions } : {}) });
  const queues = new ChannelQueues(opts.postIntervalMs ?? POST_INTERVAL_MS);
  const poster = new SlackPoster(
    {
      postMessage: (a) => app.client.chat.postMessage(a),
      postEphemeral: (a) => app.client.chat.postEphemeral(a),
      update: (a) => app.client.chat.update(a),
    },
    queues,
    logger,
    { uploadV2: ({ thread_ts, ...a }) => app.client.files.uploadV2(thread_ts ? { ...a, thread_ts } : a) },
  );
  const tracker = new Tracker();
  let accepting = true;
  app.use(async (args) => {
    if (accepting) return args.next();
    logger.info('slack: stopping, request not taken');
    if ('ack' in args && typeof args.ack === 'function') {
      const ack = args.ack as (r?: { response_type: 'ephemeral'; text: string }) => Promise<void>;
      await ('command' in args
        ? ack({ response_type: 'ephemeral', text: 'GPU Arena is restarting; please send that again in a moment.' })
        : ack());
    }
  });
  app.use(dedupeMiddleware(opts.claim ?? memoryClaims(), logger));
  registerHandlers(app, {
    backend: opts.backend,
    poster,
    logger,
    adminUserIds: new Set(config.adminUserIds),
    openView: (trigger_id, view) => app.client.views.open({ trigger_id, view }),
    publishHome: (user_id, view) => app.client.views.publish({ user_id, view }),
    surface: slackSurface(
      {
        post: async (channel, m) => {
          const r = await queues.run(channel, () =>
            app.client.chat.postMessage({ channel, ...m, unfurl_links: false, unfurl_media: false }),
          );
          if (!r.ts) throw new Error('chat.postMessage answered without a ts');
          return r.ts;
        },
        update: (a) => app.client.chat.update(a),
      },
      logger,
      opts.threadsByDefault ?? false,
    ),
    track: (w) => tracker.track(w),
  });
  app.error(async (err) => {
    logger.error({ err: errText(err) }, 'slack: unhandled error');
  });

  let port: number | null = null;
  if (config.mode === 'http') {
    const listen = { port: opts.port ?? config.port, ...(opts.host ? { host: opts.host } : {}) };
    const server = (await app.start(listen)) as Server;
    port = (server.address() as AddressInfo).port;
  } else {
    await app.start();
  }
  logger.info({ mode: config.mode, port }, 'slack: ready');

  const idle = async () => {
    await tracker.idle();
    await queues.idle();
  };
  return {
    app,
    mode: config.mode,
    port,
    async publish(channelId, reply) {
      try {
        await poster.publish(channelId, reply);
      } catch (err) {
        logger.error({ channelId, err: errText(err) }, 'slack: publish failed');
      }
    },
    idle,
    stopAccepting: () => void (accepting = false),
    async stop() {
      accepting = false;
      await idle();
      await app.stop();
      logger.info('slack: stopped');
    },
  };
}
