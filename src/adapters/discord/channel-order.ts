/**
 * Channel posts in order: one p-queue of concurrency 1 per channel, dropped when idle. Discord's REST client
 * keeps requests of one route in order once they are submitted, but a reply is rendered (charts) and its
 * private part stored (the inbox) before it is submitted, so two replies published back to back could
 * otherwise overtake each other.
 */
import PQueue from 'p-queue';

export class ChannelOrder {
  private readonly queues = new Map<string, PQueue>();

  /** Runs `task` after every task queued earlier for `channelId` has settled. */
  async run<T>(channelId: string, task: () => Promise<T>): Promise<T> {
    let q = this.queues.get(channelId);
    if (!q) {
      q = new PQueue({ concurrency: 1 });
      this.queues.set(channelId, q);
    }
    const queue = q;
    try {
      return (await queue.add(task)) as T;
    } finally {
      if (queue.size === 0 && queue.pending === 0 && this.queues.get(channelId) === queue)
        this.queues.delete(channelId);
    }
  }
}
