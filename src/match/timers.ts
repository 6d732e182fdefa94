/**
 * Time for the round host: an injectable {@link Clock} (the system clock in production, {@link FakeClock}
 * in tests so no test depends on wall-clock speed) and {@link KeyedTimers}, at most one pending timer per key.
 */

/** Opaque handle of a scheduled callback. */
export type TimerHandle = unknown;

/** Milliseconds since the epoch and one-shot timers. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** The real clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, Math.max(0, ms)),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** Resolves after `ms` of `clock` time; rejects with the signal's reason when aborted first. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clock.clearTimeout(h);
      reject(signal?.reason);
    };
    const h = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

interface FakeTimer {
  id: number;
  at: number;
  fn: () => void;
}

/**
 * Manual clock for tests: time moves only through {@link FakeClock.advance}, which fires due timers in
 * order of their due time (then creation) and lets promise callbacks run between them.
 */
export class FakeClock implements Clock {
  private t: number;
  private seq = 0;
  private timers: FakeTimer[] = [];

  constructor(startMs = Date.UTC(2025, 0, 1)) {
    this.t = startMs;
  }

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const timer = { id: ++this.seq, at: this.t + Math.max(0, ms), fn };
    this.timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers = this.timers.filter((x) => x.id !== handle);
  }

  /** Timers not yet fired. */
  get pending(): number {
    return this.timers.length;
  }

  /** Move time forward by `ms`, firing every timer that falls due, each followed by a macrotask turn. */
  async advance(ms: number): Promise<void> {
    const target = this.t + ms;
    await turn();
    for (;;) {
      const next = [...this.timers].sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!next || next.at > target) break;
      this.timers = this.timers.filter((x) => x !== next);
      this.t = Math.max(this.t, next.at);
      next.fn();
      await turn();
    }
    this.t = target;
  }
}

const turn = () => new Promise<void>((r) => setImmediate(r));

/** At most one pending timer per key; re-arming a key replaces its timer. */
export class KeyedTimers {
  /** Pending timers, and fired ones (kept so that re-arming the same due time and tag stays a no-op). */
  private readonly handles = new Map<string, { handle: TimerHandle; at: number; tag: string; fired: boolean }>();

  constructor(private readonly clock: Clock) {}

  /**
   * Call `fn` at `atMs` (clock time; immediately if past). Re-arming a key with the same due time and
   * `tag` (what the timer is for, e.g. the round) is a no-op, also after it fired (so a timer that is
   * re-armed whenever its match is looked at fires once); anything else replaces the timer.
   */
  arm(key: string, atMs: number, fn: () => void, tag = ''): void {
    const cur = this.handles.get(key);
    if (cur && cur.at === atMs && cur.tag === tag) return;
    this.clear(key);
    const entry = { handle: null as TimerHandle, at: atMs, tag, fired: false };
    entry.handle = this.clock.setTimeout(() => {
      entry.fired = true;
      fn();
    }, atMs - this.clock.now());
    this.handles.set(key, entry);
  }

  /** Due time of the key's pending (not yet fired) timer, or null. */
  dueAt(key: string): number | null {
    const cur = this.handles.get(key);
    return cur && !cur.fired ? cur.at : null;
  }

  /** Cancel the key's timer (if pending) and forget it. */
  clear(key: string): void {
    const cur = this.handles.get(key);
    if (cur && !cur.fired) this.clock.clearTimeout(cur.handle);
    this.handles.delete(key);
  }

  /** Clear every key starting with `prefix`. */
  clearPrefix(prefix: string): void {
    for (const key of [...this.handles.keys()]) if (key.startsWith(prefix)) this.clear(key);
  }

  /** Cancel and forget every timer. */
  clearAll(): void {
    for (const key of [...this.handles.keys()]) this.clear(key);
  }
}
