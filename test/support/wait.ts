/**
 * Waiting in tests without betting on the machine's speed: poll a condition until it holds, with a
 * deadline far above any normal wait (CI runs on a loaded 2-core machine). Use it instead of a fixed
 * sleep ("wait 100 ms, then it has surely happened"); the deadline only decides when a test that would
 * fail anyway gives up.
 */
import assert from 'node:assert/strict';

/** Options of {@link waitUntil}. */
export interface WaitOptions {
  /** Give up after this many ms (default 10 000: generous on a loaded machine). */
  timeoutMs?: number;
  /** Poll every this many ms (default 10). */
  intervalMs?: number;
}

/**
 * Resolves as soon as `pred()` is true (checked at once, then every `intervalMs`); fails the test with
 * "timed out waiting for <what>" after `timeoutMs`.
 */
export async function waitUntil(
  what: string,
  pred: () => boolean | Promise<boolean>,
  opts: WaitOptions = {},
): Promise<void> {
  const { timeoutMs = 10_000, intervalMs = 10 } = opts;
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await pred()) return;
    if (Date.now() >= end) assert.fail(`timed out waiting for ${what} (${timeoutMs} ms)`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
