/**
 * At most `concurrency` calls in flight, shared fairly between keys (matches): a free slot goes to the
 * key with the fewest calls running, the longest-waiting first among equals, so one busy match cannot
 * starve another; alone, a match may use every slot. Calls of one key start in the order they were made.
 *
 * Built on p-queue's priorities: each key has at most one call (its head) in the shared queue, with
 * priority −(the key's running calls); when a key's call ends, its head's priority is raised to match
 * (`setPriority`), and when its head starts, its next call becomes the head.
 */
import PQueue from 'p-queue';

interface KeyState {
  running: number;
  /** Calls behind the head, in order. */
  waiting: (() => Promise<void>)[];
  /** The id of the head in the shared queue, or null when none is queued. */
  head: string | null;
}

/** A concurrency limit shared fairly between keys (see the file comment). */
export class FairQueue {
  private readonly queue: PQueue;
  private readonly keys = new Map<string, KeyState>();
  private seq = 0;

  constructor(concurrency: number) {
    this.queue = new PQueue({ concurrency });
  }

  /** Calls running now. */
  get running(): number {
    return this.queue.pending;
  }

  /** Calls waiting for a slot. */
  get queued(): number {
    let n = this.queue.size;
    for (const k of this.keys.values()) n += k.waiting.length;
    return n;
  }

  /** Run `fn` when a slot is free and it is `key`'s turn; resolves or rejects as `fn` does. */
  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const k = this.keys.get(key) ?? { running: 0, waiting: [], head: null };
      this.keys.set(key, k);
      const task = async () => {
        k.head = null;
        k.running++;
        this.enqueueNext(key, k);
        try {
          resolve(await fn());
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        } finally {
          k.running--;
          if (k.head !== null) this.queue.setPriority(k.head, -k.running);
          else if (k.running === 0 && k.waiting.length === 0) this.keys.delete(key);
        }
      };
      k.waiting.push(task);
      if (k.head === null) this.enqueueNext(key, k);
    });
  }

  /** Put `key`'s next call into the shared queue as its head, ranked by the key's running calls. */
  private enqueueNext(key: string, k: KeyState): void {
    const next = k.waiting.shift();
    if (!next) return;
    k.head = `${key}#${++this.seq}`;
    void this.queue.add(next, { priority: -k.running, id: k.head });
  }
}
