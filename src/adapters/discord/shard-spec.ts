/**
 * The `--shards` option of the Discord bot (or DISCORD_SHARDS), parsed with zod. Discord requires sharding
 * past 2,500 guilds: each shard is one gateway connection that receives the events of the guilds with
 * `(guild_id >> 22) % shard_count == shard_id`.
 *
 * | value | meaning |
 * |---|---|
 * | `auto` | as many shards as Discord recommends (`GET /gateway/bot`), all run by this manager |
 * | `4` | 4 shards, all run by this manager |
 * | `0,1/4` or `0-1/4` | shards 0 and 1 of 4 (another manager, e.g. on another machine, runs 2 and 3) |
 * | `0,1` | shards 0 and 1 of Discord's recommended count |
 *
 * Light imports only (no discord.js), so the entry point checks the option before loading the platform.
 */
import { z } from 'zod';
import { ShardSpecError } from './errors.js';

/** Which shards a manager runs: `list` (ids) of `total`; 'all' / 'auto' as in the file comment. */
export interface ShardSpec {
  /** Total shard count across every manager, or 'auto' (Discord's recommendation). */
  total: number | 'auto';
  /** Shard ids this manager runs, or 'all' (0 … total − 1). */
  list: number[] | 'all';
}

/** Most shards a spec may name (Discord's largest bots run a few thousand). */
export const MAX_SHARDS = 16_384;

const HELP = 'expected `auto`, a shard count such as `4`, or a shard list such as `0,1/4` (shards 0 and 1 of 4)';

const id = z.coerce
  .number()
  .int()
  .min(0)
  .max(MAX_SHARDS - 1);
const count = z.coerce.number().int().min(1).max(MAX_SHARDS);

/** The ids of `0,2,4-6` (ranges inclusive), sorted, without duplicates; null if any part is not an id or range. */
function parseList(text: string): number[] | null {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) return null;
    const from = id.safeParse(m[1]);
    const to = id.safeParse(m[2] ?? m[1]);
    if (!from.success || !to.success || to.data < from.data) return null;
    for (let n = from.data; n <= to.data; n++) out.add(n);
  }
  return [...out].sort((a, b) => a - b);
}

/**
 * Parse a `--shards` value (see the file comment).
 * @returns the spec, or a {@link ShardSpecError} value (`invalid_shards`) naming what is wrong.
 */
export function parseShardSpec(text: string): ShardSpec | ShardSpecError {
  const t = text.trim().toLowerCase();
  if (t === 'auto') return { total: 'auto', list: 'all' };
  if (/^\d+$/.test(t)) {
    const n = count.safeParse(t);
    return n.success
      ? { total: n.data, list: 'all' }
      : new ShardSpecError(`--shards ${text}: a shard count is 1 to ${MAX_SHARDS}`);
  }
  const [listText, totalText, ...extra] = t.split('/');
  if (extra.length > 0 || !listText) return new ShardSpecError(`--shards ${text}: ${HELP}`);
  const list = parseList(listText);
  if (!list || list.length === 0) return new ShardSpecError(`--shards ${text}: ${HELP}`);
  if (totalText === undefined) return { total: 'auto', list };
  const total = count.safeParse(totalText.trim());
  if (!total.success)
    return new ShardSpecError(`--shards ${text}: the total after / is a shard count, 1 to ${MAX_SHARDS}`);
  const outside = list.find((n) => n >= total.data);
  if (outside !== undefined)
    return new ShardSpecError(
      `--shards ${text}: shard ${outside} does not exist with ${total.data} shards (ids are 0 to ${total.data - 1})`,
    );
  return { total: total.data, list };
}

/** The arguments of the shard processes: this process's own, without `--shards <value>` / `--shards=<value>`. */
export function withoutShardsOption(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--shards') {
      i++;
      continue;
    }
    if (a.startsWith('--shards=')) continue;
    out.push(a);
  }
  return out;
}
