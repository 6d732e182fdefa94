/**
 * Rate limiters for the chat emulators, so end-to-end tests can check that the bot stays within the
 * platforms' documented limits. Both are keyed (one state per channel) and read the real clock
 * (`Date.now()`, ms) unless given another `now`.
 *
 * - {@link FixedWindowLimiter}: Discord's per-route buckets (docs.discord.com/developers/topics/rate-limits):
 *   `limit` requests per `windowMs` per top-level resource (the channel id), reported in the
 *   X-RateLimit-* headers of every response of the route, answered with 429 + `retry_after` when exceeded.
 * - {@link PacedLimiter}: Slack's chat.postMessage "1 message per second per channel" (Web API special tier,
 *   api.slack.com/docs/rate-limits: "1 per second, short bursts >1 allowed"). A GCRA: over any stretch the
 *   rate is one request per `intervalMs`; a request may come up to `toleranceMs` early, so
 *   `toleranceMs = intervalMs` allows a burst of two and absorbs arrival jitter, and 0 allows none.
 */

/** One request a limiter judged: accepted (200) or answered 429. */
export interface RateRecord {
  /** The emulator's request sequence number (for an accepted request, the `seq` in its `requests`). */
  seq: number;
  /** When it arrived, ms since epoch (real time). */
  at: number;
  /** The limited resource: a channel id. */
  key: string;
  status: 200 | 429;
  /** For a 429: how long the client was told to wait, ms. */
  retryAfterMs: number | null;
  /** The request body as received (to check that a 429'd post was later retried, unchanged). */
  body: unknown;
}

/** A fixed-window decision: the bucket state after this request, as Discord reports it. */
export interface WindowDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the window resets, ms since epoch. */
  resetAt: number;
  /** ms until the reset (the wait a 429 asks for). */
  resetAfterMs: number;
}

/** `limit` requests per `windowMs` per key; a window opens at the first request after the last one reset. */
export class FixedWindowLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a request for `key` if the window has room; returns the bucket state either way. */
  take(key: string): WindowDecision {
    const t = this.now();
    let w = this.windows.get(key);
    if (!w || t >= w.start + this.windowMs) {
      w = { start: t, count: 0 };
      this.windows.set(key, w);
    }
    const allowed = w.count < this.limit;
    if (allowed) w.count += 1;
    const resetAt = w.start + this.windowMs;
    return { allowed, limit: this.limit, remaining: this.limit - w.count, resetAt, resetAfterMs: resetAt - t };
  }
}

/**
 * Discord's rate-limit headers for a bucket state (the ones discord.js's REST reads: Limit, Remaining,
 * Reset-After, Bucket, and on a 429 Retry-After and Scope). Times in seconds with ms precision, as Discord sends.
 */
export function discordRateHeaders(d: WindowDecision, bucket: string): Record<string, string> {
  const h: Record<string, string> = {
    'x-ratelimit-limit': String(d.limit),
    'x-ratelimit-remaining': String(Math.max(0, d.remaining)),
    'x-ratelimit-reset': (d.resetAt / 1000).toFixed(3),
    'x-ratelimit-reset-after': (Math.max(0, d.resetAfterMs) / 1000).toFixed(3),
    'x-ratelimit-bucket': bucket,
  };
  if (!d.allowed) {
    h['retry-after'] = String(Math.max(1, Math.ceil(d.resetAfterMs / 1000)));
    h['x-ratelimit-scope'] = 'user';
  }
  return h;
}

/** The answer to a rate-limited request: status, headers and JSON body. */
export interface LimitAnswer {
  status: 200 | 429;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/**
 * Discord's channel message bucket for one request: null unless it is `POST /api/v10/channels/:id/messages`;
 * otherwise the bucket decision (logged to `log`), with the X-RateLimit-* headers for a 200 and, for a 429,
 * Discord's rate-limit body (RESTRateLimit: `retry_after` in seconds with ms precision, `global: false`).
 */
export function discordMessageLimit(
  limiter: FixedWindowLimiter,
  req: { seq: number; method: string; path: string; body: unknown },
  log: RateRecord[],
): LimitAnswer | null {
  const g = /^\/api\/v\d+\/channels\/(\d+)\/messages$/.exec(req.path);
  if (req.method !== 'POST' || !g) return null;
  const d = limiter.take(g[1]!);
  const status = d.allowed ? 200 : 429;
  log.push({
    seq: req.seq,
    at: Date.now(),
    key: g[1]!,
    status,
    retryAfterMs: d.allowed ? null : d.resetAfterMs,
    body: req.body,
  });
  const headers = discordRateHeaders(d, 'emu-channel-messages');
  if (d.allowed) return { status, headers, body: {} };
  return {
    status,
    headers: { ...headers, 'content-type': 'application/json' },
    body: { message: 'You are being rate limited.', retry_after: d.resetAfterMs / 1000, global: false },
  };
}

/**
 * At most one request per `intervalMs` per key over time, allowing a request up to `toleranceMs` early
 * (GCRA: each accepted request moves the key's next theoretical slot one interval on).
 */
export class PacedLimiter {
  private readonly next = new Map<string, number>();

  constructor(
    readonly intervalMs: number,
    readonly toleranceMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Accepts (and books the next slot) or returns how long to wait, ms. */
  take(key: string): { allowed: true } | { allowed: false; retryAfterMs: number } {
    const t = this.now();
    const slot = this.next.get(key) ?? t;
    if (t < slot - this.toleranceMs) return { allowed: false, retryAfterMs: slot - t };
    this.next.set(key, Math.max(t, slot) + this.intervalMs);
    return { allowed: true };
  }
}
