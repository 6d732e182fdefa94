/**
 * The chat platforms `npm start -- --platform <name>` can run, as a registry of lazily loaded starters, so a
 * console or Slack process never loads discord.js (≈55 MB) and a console process never loads Bolt (≈36 MB).
 *
 * A starter receives a {@link PlatformContext} and resolves to the process exit code once the bot stops
 * (0 done, 1 runtime failure, 2 bad configuration).
 */
import type { PlatformContext } from './platform-context.js';

export type { PlatformContext } from './platform-context.js';

/** A platform starter: runs the bot until a stop signal; resolves to the exit code. */
export type PlatformStarter = (ctx: PlatformContext) => Promise<number>;

/** Chat platforms by name; each entry loads its adapter only when called. */
export const PLATFORMS: Readonly<Record<'discord' | 'slack', () => Promise<PlatformStarter>>> = {
  discord: async () => (await import('./discord.js')).start,
  slack: async () => (await import('./slack.js')).start,
};

/** Names accepted by `--platform`: the console plus every registered chat platform. */
export const PLATFORM_NAMES = ['console', ...(Object.keys(PLATFORMS) as (keyof typeof PLATFORMS)[])] as const;

/**
 * `--shards` (or DISCORD_SHARDS) for `--platform discord`: this process becomes discord.js's ShardingManager
 * and runs one process per shard (src/app/discord-shards.ts), loaded only when chosen.
 */
export const SHARDED_DISCORD = async (): Promise<typeof import('./discord-shards.js').startShards> =>
  (await import('./discord-shards.js')).startShards;
