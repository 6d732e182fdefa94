/**
 * Slack retries: when Slack does not see an ack in time it sends the same request again (HTTP: header
 * `x-slack-retry-num`; Socket Mode: envelope `retry_attempt`, with a new envelope_id). Every incoming
 * request claims a key derived from its body before any listener runs; a request whose key was already
 * claimed — by this process or another one sharing the store — is acked and dropped. So an action is
 * applied at most once, never twice (a request that failed before its ack is not re-run either).
 *
 * The key: `slack:trigger:<trigger_id>` (slash commands, buttons and modal submissions each get a fresh
 * trigger_id, which retries repeat), else `slack:event:<event_id>` (Events API), else a SHA-256 of the body.
 */
import { createHash } from 'node:crypto';
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { Logger } from 'pino';
import { z } from 'zod';

/** Exactly-once claim: true for the first caller with `key` (EventStore.tryClaim). */
export type ClaimFn = (key: string) => Promise<boolean>;

/** Key namespace of every request claim (see {@link requestKey}); the one {@link storeClaims} prunes. */
export const REQUEST_CLAIM_PREFIX = 'slack:';

const KeyFields = z
  .object({ trigger_id: z.string().min(1).optional(), event_id: z.string().min(1).optional() })
  .loose();

/** The dedup key of a request body (see the module comment). */
export function requestKey(body: unknown): string {
  const f = KeyFields.safeParse(body);
  if (f.success && f.data.trigger_id) return `${REQUEST_CLAIM_PREFIX}trigger:${f.data.trigger_id}`;
  if (f.success && f.data.event_id) return `${REQUEST_CLAIM_PREFIX}event:${f.data.event_id}`;
  return `${REQUEST_CLAIM_PREFIX}body:${createHash('sha256')
    .update(JSON.stringify(body) ?? '')
    .digest('hex')}`;
}

/**
 * An in-process claim set for when no store is given (tests, one process). Bounded: the oldest keys are
 * forgotten after `capacity` claims (Slack retries within minutes, so recent keys are what matter).
 */
export function memoryClaims(capacity = 10_000): ClaimFn {
  const seen = new Set<string>();
  return async (key) => {
    if (seen.has(key)) return false;
    seen.add(key);
    if (seen.size > capacity) seen.delete(seen.values().next().value as string);
    return true;
  };
}

/**
 * How long a request claim is kept: a day. Slack retries a request at most 3 times, the last about 5
 * minutes after the first (Events API and interactivity retry policy), so a day is ample.
 */
export const REQUEST_CLAIM_RETENTION_MS = 24 * 3_600_000;

/** How often {@link storeClaims} prunes: at most once an hour, on a claim. */
export const REQUEST_CLAIM_PRUNE_EVERY_MS = 3_600_000;

/** The part of the EventStore that {@link storeClaims} uses. */
export interface ClaimStore {
  tryClaim(key: string): Promise<boolean>;
  pruneClaims(prefix: string, before: Date): Promise<number>;
}

/** Options of {@link storeClaims}. */
export interface StoreClaimsOptions {
  logger: Logger;
  /** Keep claims this long (ms; default {@link REQUEST_CLAIM_RETENTION_MS}). */
  retentionMs?: number;
  /** Prune at most this often (ms; default {@link REQUEST_CLAIM_PRUNE_EVERY_MS}). */
  pruneEveryMs?: number;
  /** Clock in epoch ms (tests). */
  now?: () => number;
}

/**
 * Claims through the event store (so they hold across processes) and keeps its `claims` table bounded:
 * the first claim, and then one claim an hour at most, also deletes `slack:` claims older than the
 * retention. Every request claims a key, so without this the table would grow by one row per request
 * forever. The prune runs after the claim and is awaited (one DELETE an hour over a day's claims;
 * nothing is left running when the bot stops); a failed prune is logged and the claim still counts.
 */
export function storeClaims(store: ClaimStore, opts: StoreClaimsOptions): ClaimFn {
  const retention = opts.retentionMs ?? REQUEST_CLAIM_RETENTION_MS;
  const every = opts.pruneEveryMs ?? REQUEST_CLAIM_PRUNE_EVERY_MS;
  const now = opts.now ?? Date.now;
  let lastPrune = Number.NEGATIVE_INFINITY;
  let pruning = false;
  return async (key) => {
    const first = await store.tryClaim(key);
    const t = now();
    if (!pruning && t - lastPrune >= every) {
      pruning = true;
      lastPrune = t;
      try {
        const removed = await store.pruneClaims(REQUEST_CLAIM_PREFIX, new Date(t - retention));
        if (removed > 0) opts.logger.info({ removed }, 'slack: old request claims pruned');
      } catch (err) {
        opts.logger.warn(
          { err: err instanceof Error ? err.message : String(err) },
          'slack: pruning request claims failed',
        );
      } finally {
        pruning = false;
      }
    }
    return first;
  };
}

/** Bolt global middleware: claims the request's key; duplicates are acked without running any listener. */
export function dedupeMiddleware(claim: ClaimFn, logger: Logger): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const key = requestKey(args.body);
    if (await claim(key)) return args.next();
    logger.info(
      { retryNum: args.context.retryNum ?? null, retryReason: args.context.retryReason ?? null },
      'slack: duplicate request ignored',
    );
    if ('ack' in args && typeof args.ack === 'function') await (args.ack as () => Promise<void>)();
  };
}
