/**
 * `npm start -- --platform discord --shards <spec>` (or DISCORD_SHARDS): this process becomes discord.js's
 * ShardingManager (src/adapters/discord/sharding.ts) and forks the same entry point once per shard, with
 * the same arguments minus `--shards`; each child runs the ordinary Discord bot (src/app/discord.ts) on
 * its shard. The manager opens no store and hosts no match. Without the option the bot runs as one process
 * with no manager, as before.
 *
 * Stop: the first SIGTERM/SIGINT asks every shard to drain (IPC) and waits `shutdown.drainSeconds` + 3 s
 * for them (each drains within `drainSeconds` and exits by itself at the latest 2 s later), then kills
 * what is left and exits 0; a second signal kills the shards and exits at once (130 / 143).
 * Exit codes: 0 stopped, 1 the shards could not start or kept crashing, 2 bad configuration.
 */
import type { Logger } from 'pino';
import type { ArenaConfig } from './config/index.js';
import { readDiscordConfig } from '../adapters/discord/config.js';
import { parseShardSpec, withoutShardsOption } from '../adapters/discord/shard-spec.js';
import { startShardManager, type ShardManagerHandle } from '../adapters/discord/sharding.js';
import { isCodedError } from '../errors/coded-error.js';
import { untilStopSignal } from './shutdown.js';

/** What the entry point passes: the configuration, a logger and the `--shards` value. */
export interface ShardedStart {
  config: ArenaConfig;
  logger: Logger;
  /** The `--shards` value (or DISCORD_SHARDS). */
  spec: string;
  /** The entry script and its arguments / Node flags (default: this process's). */
  file?: string;
  argv?: readonly string[];
  execArgv?: readonly string[];
}

/** Extra time the manager gives its shards beyond their own drain time (they exit 2 s after it at the latest). */
const MANAGER_GRACE_MS = 3000;

/** Runs the shard manager until a stop signal; resolves to the exit code (see the file comment). */
export async function startShards(opts: ShardedStart): Promise<number> {
  const { config, logger } = opts;
  const spec = parseShardSpec(opts.spec);
  if (spec instanceof Error) {
    process.stderr.write(`${spec.message}\n`);
    return 2;
  }
  const discord = readDiscordConfig(process.env, ['DISCORD_TOKEN']);
  if (discord instanceof Error) {
    process.stderr.write(`${discord.message}\n`);
    return 2;
  }
  const file = opts.file ?? process.argv[1];
  if (!file) {
    process.stderr.write('--shards: cannot tell which script to run for each shard\n');
    return 2;
  }
  let handle: ShardManagerHandle | undefined;
  // Signals are handled from before the spawn: a stop during it stops the shards once they are up; a
  // second signal kills what was spawned and exits at once (untilStopSignal's default exit follows).
  const stopSignal = untilStopSignal(logger, {
    onSecond: (signal) => {
      handle?.kill();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    },
  });
  try {
    handle = await startShardManager({
      token: discord.token,
      ...(discord.apiUrl ? { restApi: discord.apiUrl } : {}),
      spec,
      file,
      args: withoutShardsOption(opts.argv ?? process.argv.slice(2)),
      execArgv: opts.execArgv ?? process.execArgv,
      logger,
    });
  } catch (err) {
    const code = isCodedError(err) ? err.code : null;
    logger.error({ code, err: err instanceof Error ? err.message : String(err) }, 'discord shards: could not start');
    return code === 'shard_out_of_range' || code === 'shard_config' ? 2 : 1;
  }
  logger.info({ shards: handle.shards, total: handle.total }, 'discord shards: running; press Ctrl+C to stop');
  const running = handle;
  const outcome = await Promise.race([
    stopSignal.then((signal) => ({ signal })),
    running.failed.then((code) => ({ code })),
  ]);
  if ('code' in outcome) {
    await running.stop(0);
    return outcome.code;
  }
  const drainSeconds = config.shutdown.drainSeconds;
  logger.info({ signal: outcome.signal, drainSeconds }, 'discord shards: stopping');
  const inTime = await running.stop(drainSeconds * 1000 + MANAGER_GRACE_MS);
  logger.info({ inTime }, 'discord shards: stopped');
  return 0;
}
