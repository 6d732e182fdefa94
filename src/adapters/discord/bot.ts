/**
 * The Discord client: logs in with only the Guilds intent (slash commands, buttons and modals arrive as
 * interactions, which need no privileged intent), answers interactions through {@link createInteractionHandler},
 * and posts replies that answer nobody (timer round closes) to their channel.
 *
 * Sharding: started by discord.js's ShardingManager (sharding.ts), the client takes its shard ids from the
 * environment the manager sets (SHARDS, SHARD_COUNT) and receives only its shards' guilds; it can still post
 * to any channel over REST (a round another process's shard hosts, closed by this process's timer).
 */
import { Client, Events, GatewayIntentBits, type Interaction } from 'discord.js';
import type { Logger } from 'pino';
import type { Reply } from '../../commands/types.js';
import type { CommandBackend } from './backend.js';
import { ChannelOrder } from './channel-order.js';
import { publishReply } from './deliver.js';
import { clientSink, discordSurface } from './threads.js';
import { MemoryInbox, type PrivateInbox } from './inbox.js';
import { createInteractionHandler } from './interactions.js';
import { ButtonIds } from './render.js';

/** Options of {@link startDiscordBot}. */
export interface DiscordBotOptions {
  backend: CommandBackend;
  token: string;
  logger: Logger;
  /** DISCORD_ADMIN_ROLE_ID: members with it count as admins (Caller.isAdmin). */
  adminRoleId?: string | null;
  /** REST base (discord.js `rest.api`), e.g. `http://127.0.0.1:PORT/api` for an emulator. */
  restApi?: string;
  /** See HandlerDeps.softDeadlineMs (default 2000 ms). */
  softDeadlineMs?: number;
  /** Where private posts for other people wait (inbox.ts); default in this process (MemoryInbox). */
  inbox?: PrivateInbox;
  /**
   * Shards this client connects (ids of `count`), all in this process; default: what a ShardingManager set in
   * the environment (SHARDS, SHARD_COUNT), else one shard.
   */
  shards?: { ids: number[]; count: number };
  /**
   * `new` opens its match in a thread of the channel, under a card (threads.ts), unless `thread:off` or the
   * channel's setting says otherwise (config `chat.threads`; default here false: posts in the channel).
   */
  threadsByDefault?: boolean;
}

/** A logged-in Discord client with the arena's interaction handler; what {@link startDiscordBot} resolves to. */
export interface DiscordBot {
  readonly client: Client<true>;
  /** Posts a reply to a channel: public posts as messages, private posts held for their recipients. */
  publish(channelId: string, reply: Reply): Promise<void>;
  /** Resolves when the handler of interaction `id` has finished (whether it arrived yet or not). */
  handled(id: string): Promise<void>;
  /** Resolves when no interaction handler is running. */
  idle(): Promise<void>;
  /** Stop taking commands (a graceful stop began): interactions from now on are logged and left unanswered. */
  stopAccepting(): void;
  stop(): Promise<void>;
}

/** Tracks running handlers so callers (tests, shutdown) can wait for them without timing guesses. */
class Tracker {
  private readonly waits = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  private readonly running = new Set<Promise<void>>();
  /** Recently finished ids (bounded), so a late `wait` still resolves. */
  private readonly finished = new Set<string>();

  run(id: string, work: Promise<void>): void {
    const done = work.finally(() => {
      this.running.delete(done);
      this.finished.add(id);
      if (this.finished.size > 1000) this.finished.delete(this.finished.values().next().value as string);
      this.waits.get(id)?.resolve();
      this.waits.delete(id);
    });
    this.running.add(done);
  }

  wait(id: string): Promise<void> {
    if (this.finished.has(id)) return Promise.resolve();
    let e = this.waits.get(id);
    if (!e) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      e = { promise, resolve };
      this.waits.set(id, e);
    }
    return e.promise;
  }

  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}

/** Logs in and resolves once the client is ready. Rejects if login fails (e.g. an invalid token). */
export async function startDiscordBot(opts: DiscordBotOptions): Promise<DiscordBot> {
  const logger = opts.logger.child({ platform: 'discord' });
  const ids = new ButtonIds();
  const inbox = opts.inbox ?? new MemoryInbox();
  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    ...(opts.restApi ? { rest: { api: opts.restApi } } : {}),
    ...(opts.shards ? { shards: opts.shards.ids, shardCount: opts.shards.count } : {}),
  });
  const tracker = new Tracker();
  const queues = new ChannelOrder();
  const sink = clientSink(client);

  async function publish(channelId: string, reply: Reply): Promise<void> {
    // Matches of other platforms (a shared database) are restored here too; their channels are not ours.
    if (!/^\d{5,25}$/.test(channelId))
      return void logger.debug({ channelId }, 'discord: not a Discord channel, post skipped');
    // One at a time per channel, in the order the host published them: a round close must not overtake
    // the round-open post still storing its private briefings or waiting on a rate limit.
    await queues.run(channelId, async () => {
      try {
        await publishReply(sink, channelId, reply, inbox, ids, logger);
      } catch (err) {
        logger.error({ channelId, err: (err as Error).message }, 'discord: channel post failed');
      }
    });
  }

  const handler = createInteractionHandler({
    backend: opts.backend,
    ids,
    inbox,
    logger,
    adminRoleId: opts.adminRoleId ?? null,
    softDeadlineMs: opts.softDeadlineMs ?? 2000,
    publish,
    surface: (inThread) =>
      discordSurface(sink, ids, logger, { threadsByDefault: opts.threadsByDefault ?? false, inThread }),
  });
  let accepting = true;
  client.on(Events.InteractionCreate, (i: Interaction) => {
    if (accepting) return tracker.run(i.id, handler(i));
    logger.info({ interaction: i.id }, 'discord: stopping, interaction not taken');
  });
  client.on(Events.Error, (err) => logger.error({ err: err.message }, 'discord: client error'));
  client.on(Events.Warn, (msg) => logger.warn({ msg }, 'discord: client warning'));

  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(opts.token);
  await ready;
  logger.info(
    {
      user: client.user?.id ?? null,
      shards: client.shard ? client.shard.ids : null,
      shardCount: client.shard ? client.shard.count : null,
    },
    'discord: ready',
  );

  return {
    client: client as Client<true>,
    publish,
    handled: (id) => tracker.wait(id),
    idle: () => tracker.idle(),
    stopAccepting: () => void (accepting = false),
    async stop() {
      accepting = false;
      await tracker.idle();
      await client.destroy();
      logger.info('discord: stopped');
    },
  };
}
