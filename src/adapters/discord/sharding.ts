/**
 * Discord sharding with discord.js's own ShardingManager (`npm start -- --platform discord --shards auto`):
 * this process becomes the manager and runs no bot itself; it forks the entry point once per shard, and each
 * child runs the ordinary bot with its shard id from the environment the manager sets (SHARDS,
 * SHARD_COUNT; discord.js's Client reads them). The children share the database (PostgreSQL for several
 * processes), which is what makes any of them able to serve any person (src/store/inbox.ts) and round
 * closes exactly-once across them (claims and the log, src/host/rounds.ts).
 *
 * Beyond the library: the shard count and identify rate come from `GET /gateway/bot` at the configured REST
 * base (discord.js's own lookup always asks discord.com, so an emulator or proxy would be bypassed); a
 * stop asks each child over IPC ({@link SHARD_STOP_MESSAGE}) rather than by signal, so a child that already
 * got the terminal's Ctrl+C does not take the manager's request for a second, forcing signal; a child
 * that exits is respawned by the manager (a crash, or a kill) after a growing pause ({@link respawnDelayMs}),
 * except after a configuration error (exit 2, also during the first spawn: the manager then exits 2) or when
 * one shard dies more than {@link CRASH_LIMIT} times in a minute.
 */
import type { ChildProcess } from 'node:child_process';
import { ShardingManager, type Shard } from 'discord.js';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { ShardSpec } from './shard-spec.js';
import { ShardingError } from './errors.js';

/** The IPC message a manager sends a shard process to stop it gracefully (see app/discord.ts). */
export const SHARD_STOP_MESSAGE = { arena: 'stop' } as const;

/** Pause before respawning a shard after its `n`-th exit within the crash window: 1 s, 2 s, 4 s, … at most 30 s. */
export const respawnDelayMs = (n: number): number => Math.min(30_000, 1000 * 2 ** Math.max(0, n - 1));

/** A shard that exits this many times within {@link CRASH_WINDOW_MS} is not respawned again: the manager stops. */
export const CRASH_LIMIT = 5;
const CRASH_WINDOW_MS = 60_000;

/** Discord: at most `max_concurrency` IDENTIFYs per 5 s; discord.js waits 5.5 s between shards for a concurrency of 1. */
const IDENTIFY_WINDOW_MS = 5500;

/** Options of {@link startShardManager}. */
export interface ShardManagerOptions {
  token: string;
  /** REST base, as DISCORD_API_URL (e.g. `http://127.0.0.1:P/api`); default Discord's. */
  restApi?: string;
  spec: ShardSpec;
  /** The script each shard process runs (the entry point) and its arguments and Node flags. */
  file: string;
  args: readonly string[];
  execArgv: readonly string[];
  logger: Logger;
  /** How long a shard may take to become ready (ms); default 60 000. */
  readyTimeoutMs?: number;
}

/** A running manager: its shards, and a bounded stop. */
export interface ShardManagerHandle {
  /** Shard ids this manager runs, and the total across managers. */
  readonly shards: readonly number[];
  readonly total: number;
  /** Resolves with an exit code when the manager gives up by itself (a configuration error, a crash loop). */
  readonly failed: Promise<number>;
  /**
   * Ask every shard process to stop (IPC), wait up to `graceMs` for all of them to exit, then kill those
   * still running (SIGKILL). Never respawns them. Resolves with whether all stopped in time.
   */
  stop(graceMs: number): Promise<boolean>;
  /** Kill every shard process at once (a second stop signal). */
  kill(): void;
}

const GatewayBotSchema = z.object({
  shards: z.number().int().min(1),
  session_start_limit: z
    .object({ max_concurrency: z.number().int().min(1) })
    .partial()
    .optional(),
});

/**
 * Discord's recommended shard count and identify concurrency, from `GET /gateway/bot` at `restApi`.
 * Rejects with {@link ShardingError} `token_invalid` (401) or `gateway_unavailable` (any other failure).
 */
export async function gatewayBot(
  token: string,
  restApi = 'https://discord.com/api',
): Promise<{ shards: number; maxConcurrency: number }> {
  let res: Response;
  try {
    res = await fetch(`${restApi.replace(/\/+$/, '')}/v10/gateway/bot`, {
      headers: { Authorization: `Bot ${token.replace(/^Bot\s*/i, '')}` },
    });
  } catch (err) {
    throw new ShardingError('gateway_unavailable', `GET /gateway/bot failed: ${(err as Error).message}`);
  }
  if (res.status === 401)
    throw new ShardingError(
      'token_invalid',
      'Discord refused the token (401) when asked for the shard count; check DISCORD_TOKEN.',
    );
  if (!res.ok) throw new ShardingError('gateway_unavailable', `GET /gateway/bot answered ${res.status}`);
  const parsed = GatewayBotSchema.safeParse(await res.json().catch(() => null));
  if (!parsed.success) throw new ShardingError('gateway_unavailable', 'GET /gateway/bot answered an unexpected body');
  return { shards: parsed.data.shards, maxConcurrency: parsed.data.session_start_limit?.max_concurrency ?? 1 };
}

/**
 * Start the manager and spawn its shards (one process each, one after another, as fast as Discord's
 * identify limit allows); resolves once every shard is ready. Rejects with a {@link ShardingError}.
 */
export async function startShardManager(opts: ShardManagerOptions): Promise<ShardManagerHandle> {
  const logger = opts.logger.child({ component: 'discord-shards' });
  const gateway = await gatewayBot(opts.token, opts.restApi);
  const total = opts.spec.total === 'auto' ? gateway.shards : opts.spec.total;
  const list = opts.spec.list === 'all' ? [...Array(total).keys()] : opts.spec.list;
  const outside = list.find((n) => n >= total);
  if (outside !== undefined)
    throw new ShardingError(
      'shard_out_of_range',
      `shard ${outside} does not exist: Discord recommends ${total} shards (ids 0 to ${total - 1}); name the total, e.g. --shards ${list.join(',')}/${outside + 1}`,
    );
  const delay = Math.ceil(IDENTIFY_WINDOW_MS / gateway.maxConcurrency);

  const manager = new ShardingManager(opts.file, {
    token: opts.token,
    totalShards: total,
    shardList: list,
    mode: 'process',
    // We respawn ourselves, with a growing pause (a database away for a few seconds must not exhaust the
    // crash limit in a burst of instant restarts).
    respawn: false,
    shardArgs: [...opts.args],
    execArgv: [...opts.execArgv],
  });
  let giveUp!: (code: number) => void;
  const failed = new Promise<number>((r) => (giveUp = r));
  const deaths = new Map<number, number[]>();
  let stopping = false;
  // Respawns start once every shard was ready (a shard that dies during the first spawn fails the start);
  // a shard that exits 2 (its configuration is wrong) fails it with exit code 2.
  let ready = false;
  let configError = false;

  manager.on('shardCreate', (shard: Shard) => {
    // mode 'process': the shard's child is a ChildProcess (never a Worker).
    shard.on('spawn', (child) =>
      logger.info(
        { shard: shard.id, shardPid: (child as ChildProcess).pid ?? null },
        'discord shards: shard process started',
      ),
    );
    shard.on('ready', () =>
      logger.info({ shard: shard.id, shardPid: shard.process?.pid ?? null }, 'discord shards: shard ready'),
    );
    // Without a listener a failed respawn (discord.js emits 'error') would end the manager.
    shard.on('error', (err: Error) =>
      logger.error({ shard: shard.id, err: err.message }, 'discord shards: shard error'),
    );
    shard.on('death', (dead) => {
      const child = dead as ChildProcess;
      const code = child.exitCode;
      logger.warn(
        { shard: shard.id, shardPid: child.pid ?? null, code, signal: child.signalCode, stopping },
        'discord shards: shard process exited',
      );
      if (stopping) return;
      const now = Date.now();
      const recent = [...(deaths.get(shard.id) ?? []), now].filter((t) => now - t < CRASH_WINDOW_MS);
      deaths.set(shard.id, recent);
      if (code === 2) {
        configError = true;
        giveUp(2);
      } else if (recent.length > CRASH_LIMIT) {
        logger.error({ shard: shard.id, exits: recent.length }, 'discord shards: a shard keeps exiting; giving up');
        giveUp(1);
      } else if (ready) {
        const waitMs = respawnDelayMs(recent.length);
        logger.info({ shard: shard.id, waitMs }, 'discord shards: respawning the shard');
        setTimeout(() => {
          if (!stopping)
            shard
              .spawn(opts.readyTimeoutMs ?? 60_000)
              .catch((err: Error) =>
                logger.error({ shard: shard.id, err: err.message }, 'discord shards: respawn failed'),
              );
        }, waitMs);
      }
    });
  });

  const children = () =>
    [...manager.shards.values()]
      .map((s) => s.process)
      .filter((p): p is ChildProcess => p !== null && p.exitCode === null && p.signalCode === null);
  const kill = () => {
    stopping = true;
    manager.respawn = false;
    for (const p of children()) p.kill('SIGKILL');
  };

  logger.info({ total, shards: list, delayMs: delay }, 'discord shards: spawning');
  try {
    await manager.spawn({ amount: total, delay, timeout: opts.readyTimeoutMs ?? 60_000 });
  } catch (err) {
    kill();
    if (configError)
      throw new ShardingError('shard_config', 'a shard exited with a configuration error (see its output above)');
    throw new ShardingError('spawn_failed', `a shard did not become ready: ${(err as Error).message}`);
  }
  ready = true;
  logger.info({ total, shards: list }, 'discord shards: every shard is ready');

  return {
    shards: list,
    total,
    failed,
    kill,
    async stop(graceMs) {
      stopping = true;
      manager.respawn = false;
      const running = children();
      const exited = running.map(
        (p) =>
          new Promise<void>((r) => (p.exitCode !== null || p.signalCode !== null ? r() : p.once('exit', () => r()))),
      );
      for (const p of running) {
        // IPC, not a signal (see the file comment); a child without IPC gets SIGTERM.
        if (p.connected) p.send(SHARD_STOP_MESSAGE, (err) => err && p.kill('SIGTERM'));
        else p.kill('SIGTERM');
      }
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), graceMs)));
      const first = await Promise.race([Promise.all(exited).then(() => 'done' as const), late]);
      clearTimeout(timer);
      if (first === 'late') {
        logger.warn({ graceMs }, 'discord shards: shard processes still running after the grace time; killing them');
        kill();
        await Promise.race([Promise.all(exited), new Promise((r) => setTimeout(r, 1000))]);
      }
      return first === 'done';
    },
  };
}
