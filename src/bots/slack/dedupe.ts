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

const KeyFields = z.object({ trigger_id: z.string().min(1).optional(), event_id: z.string().min(1).optional() }).loose();

/** The dedup key of a request body (see the module comment). */
export function requestKey(body: unknown): string {
  const f = KeyFields.safeParse(body);
  if (f.success && f.data.trigger_id) return `slack:trigger:${f.data.trigger_id}`;
  if (f.success && f.data.event_id) return `slack:event:${f.data.event_id}`;
  return `slack:body:${createHash('sha256').update(JSON.stringify(body) ?? '').digest('hex')}`;
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

/** Bolt global middleware: claims the request's key; duplicates are acked without running any listener. */
export function dedupeMiddleware(claim: ClaimFn, logger: Logger): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const key = requestKey(args.body);
    if (await claim(key)) return args.next();
    logger.info({ retryNum: args.context.retryNum ?? null, retryReason: args.context.retryReason ?? null }, 'slack: duplicate request ignored');
    if ('ack' in args && typeof args.ack === 'function') await (args.ack as () => Promise<void>)();
  };
}
