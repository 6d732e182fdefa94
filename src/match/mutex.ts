/**
 * Per-match serialisation: every mutation of one match runs alone (a p-limit(1) queue per key), while
 * different matches proceed in parallel. Not re-entrant: code running under a key's lock must not
 * acquire the same key again (it would wait for itself).
 */
import pLimit, { type LimitFunction } from 'p-limit';

/** A lock per key (match id); see the file comment. */
export class KeyedMutex {
  private readonly queues = new Map<string, LimitFunction>();

  /** Run `fn` once every earlier task of `key` has settled; resolves/rejects with `fn`'s outcome. */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    let queue = this.queues.get(key);
    if (!queue) {
      queue = pLimit(1);
      this.queues.set(key, queue);
    }
    const q = queue;
    try {
      return await q(fn);
    } finally {
      // Drop idle queues so a long-running bot does not keep one per finished match.
      if (q.activeCount === 0 && q.pendingCount === 0 && this.queues.get(key) === q) this.queues.delete(key);
    }
  }

  /** Number of keys with queued or running work (for tests and diagnostics). */
  get busyKeys(): number {
    return this.queues.size;
  }
}
