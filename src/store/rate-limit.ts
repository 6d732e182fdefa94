/**
 * Rate limits kept where the store keeps its data, through rate-limiter-flexible (loaded on first use):
 * on PostgreSQL a RateLimiterPostgres over the store's own pg Pool, so every bot process sharing the
 * database counts against one limit (table `rate_limits` of migration 0005; one atomic upsert per point);
 * on SQLite (one process) a RateLimiterMemory, per process. Fixed windows of `durationSeconds` per key.
 *
 * Bounded: a memory limiter drops a key when its window ends; on PostgreSQL every process deletes rows
 * expired for more than an hour once every 5 minutes (the library's `clearExpiredByTimeout`, on an
 * unref'd timer), so the table holds about one row per key active in the last hour.
 */
import type { Pool } from 'pg';

/** Outcome of {@link RateLimit.consume}: allowed, or refused with the time until the window resets. */
export type RateDecision = { ok: true } | { ok: false; msBeforeNext: number };

/** A limit of `points` per key and window; see the file comment. */
export interface RateLimit {
  /** Where the counts live: this process only (`process`), or the database every process shares (`shared`). */
  readonly scope: 'process' | 'shared';
  /** Take one point for `key`. Rejects only when the database fails. */
  consume(key: string): Promise<RateDecision>;
}

/** Options of a rate limit: `points` per `durationSeconds` (integers ≥ 1). */
export interface RateLimitOptions {
  points: number;
  durationSeconds: number;
}

/** Table of the shared limits (migration 0005); the library's own layout: key, points, expire (ms epoch). */
export const RATE_LIMIT_TABLE = 'rate_limits';

const NAME = /^[a-z][a-z0-9_]{0,31}$/;

function check(name: string, opts: RateLimitOptions): void {
  if (!NAME.test(name))
    throw new TypeError(`rateLimit: bad name ${JSON.stringify(name)} (lowercase letters, digits, _)`);
  for (const k of ['points', 'durationSeconds'] as const) {
    if (!Number.isInteger(opts[k]) || opts[k] < 1)
      throw new TypeError(`rateLimit: ${k} must be an integer >= 1, got ${opts[k]}`);
  }
}

type Limiter = { consume(key: string): Promise<unknown> };

/** Wraps a rate-limiter-flexible limiter: its RateLimiterRes rejection is a refusal, anything else a failure. */
function wrap(scope: RateLimit['scope'], make: () => Promise<{ limiter: Limiter; Res: new () => object }>): RateLimit {
  let built: ReturnType<typeof make> | null = null;
  return {
    scope,
    async consume(key: string) {
      built ??= make();
      const { limiter, Res } = await built;
      try {
        await limiter.consume(key);
        return { ok: true };
      } catch (e) {
        if (!(e instanceof Res)) throw e;
        return { ok: false, msBeforeNext: Math.max(0, (e as { msBeforeNext: number }).msBeforeNext) };
      }
    },
  };
}

/**
 * A per-process limit (SQLite, or no shared database). `name` keys the limit (lowercase letters, digits, `_`).
 * @throws {TypeError} for a bad name or non-integer options.
 */
export function memoryRateLimit(name: string, opts: RateLimitOptions): RateLimit {
  check(name, opts);
  return wrap('process', async () => {
    const m = await import('rate-limiter-flexible');
    return {
      limiter: new m.RateLimiterMemory({ keyPrefix: name, points: opts.points, duration: opts.durationSeconds }),
      Res: m.RateLimiterRes,
    };
  });
}

/**
 * A limit shared by every process on the PostgreSQL database of `pool` (table {@link RATE_LIMIT_TABLE} in the
 * pool's search_path, created by migration 0005). Keys are stored as `<name>:<key>`.
 * @throws {TypeError} for a bad name or non-integer options.
 */
export function postgresRateLimit(pool: Pool, name: string, opts: RateLimitOptions): RateLimit {
  check(name, opts);
  return wrap('shared', async () => {
    const m = await import('rate-limiter-flexible');
    const limiter = new m.RateLimiterPostgres({
      storeClient: pool,
      storeType: 'pool',
      tableName: RATE_LIMIT_TABLE,
      // The migration made it: no DDL at run time (and no race between processes creating it).
      tableCreated: true,
      keyPrefix: name,
      points: opts.points,
      duration: opts.durationSeconds,
    });
    return { limiter, Res: m.RateLimiterRes };
  });
}
