/**
 * The private inbox of the Discord adapter: private posts for people other than the caller wait here until
 * that person's next interaction in the same channel (or their press of "My private update" there), because
 * Discord can make a post ephemeral only in the recipient's own interaction. Posts are held per person AND
 * channel: a person in matches in two channels must never see one channel's private offer (with its Accept
 * button) under a command in the other.
 *
 * Two implementations: {@link storeInbox} keeps the posts in the event store (`inboxAdd` / `inboxTake`,
 * src/store/inbox.ts), so any bot process (any shard) serves any person and a restart loses nothing;
 * {@link MemoryInbox} keeps them in this process (a bot built without a store, e.g. adapter tests). Taking is
 * atomic in both: of two interactions of one person at once, each post is shown by exactly one.
 */
import type { Logger } from 'pino';
import { z } from 'zod';
import type { PrivatePost } from '../../commands/types.js';

/** Where private posts wait for their recipient, per channel. */
export interface PrivateInbox {
  /** Hold `posts`, made in `channelId`, for their recipients (each post's `userId`), in order. Never rejects. */
  add(channelId: string, posts: readonly PrivatePost[]): Promise<void>;
  /** Remove and return the posts waiting for `userId` in `channelId`, oldest first. Never rejects (a failure is logged: nothing). */
  take(userId: string, channelId: string): Promise<PrivatePost[]>;
}

/** Posts held per person and channel by {@link MemoryInbox} (the store keeps as many: src/store/inbox.ts). */
const PER_USER = 10;

/** The in-process inbox: bounded per person and channel (the oldest dropped); lost on restart, not shared between processes. */
export class MemoryInbox implements PrivateInbox {
  private readonly held = new Map<string, PrivatePost[]>();
  constructor(private readonly perUser = PER_USER) {}

  async add(channelId: string, posts: readonly PrivatePost[]): Promise<void> {
    for (const post of posts) {
      const key = JSON.stringify([post.userId, channelId]);
      const list = this.held.get(key) ?? [];
      list.push(post);
      this.held.set(key, list.slice(-this.perUser));
    }
  }

  async take(userId: string, channelId: string): Promise<PrivatePost[]> {
    const key = JSON.stringify([userId, channelId]);
    const list = this.held.get(key) ?? [];
    this.held.delete(key);
    return list;
  }
}

/** The store's inbox methods (EventStore satisfies it; the adapter does not import the store layer). */
export interface InboxStore {
  inboxAdd(userId: string, channelId: string, posts: readonly unknown[]): Promise<void>;
  inboxTake(userId: string, channelId: string): Promise<unknown[]>;
}

const cell = z.union([z.string(), z.number(), z.null()]);
/** A stored post as read back: the {@link PrivatePost} shape, checked (a row that fails is dropped and logged). */
const StoredPostSchema = z.object({
  userId: z.string().min(1),
  title: z.string().optional(),
  text: z.string(),
  buttons: z
    .array(
      z.object({
        id: z.string(),
        label: z.string(),
        command: z.string(),
        style: z.enum(['primary', 'secondary', 'success', 'danger']),
        matchId: z.string().min(1),
      }),
    )
    .optional(),
  fields: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
  charts: z
    .array(
      z.object({
        kind: z.enum(['standings', 'breakdown', 'ratings', 'eval', 'preference']),
        title: z.string(),
        rows: z.array(z.record(z.string(), cell)),
        name: z.string().optional(),
      }),
    )
    .optional(),
});

/**
 * The inbox kept in the event store (see the file comment). A store failure is logged and never fails the
 * interaction: an add that fails loses those posts (`/arena me` still shows the seat), a take that fails
 * shows nothing new and leaves the posts in place.
 */
export function storeInbox(store: InboxStore, logger: Pick<Logger, 'warn' | 'error'>): PrivateInbox {
  return {
    async add(channelId, posts) {
      const byUser = new Map<string, PrivatePost[]>();
      for (const p of posts) byUser.set(p.userId, [...(byUser.get(p.userId) ?? []), p]);
      for (const [userId, list] of byUser) {
        try {
          await store.inboxAdd(userId, channelId, list);
        } catch (err) {
          logger.error(
            { userId, channelId, posts: list.length, err: (err as Error).message },
            'discord: private posts could not be held',
          );
        }
      }
    },
    async take(userId, channelId) {
      let raw: unknown[];
      try {
        raw = await store.inboxTake(userId, channelId);
      } catch (err) {
        logger.error({ userId, channelId, err: (err as Error).message }, 'discord: private inbox could not be read');
        return [];
      }
      const out: PrivatePost[] = [];
      for (const r of raw) {
        const parsed = StoredPostSchema.safeParse(r);
        if (parsed.success) out.push(parsed.data as PrivatePost);
        else logger.warn({ userId }, 'discord: a held private post has an unexpected shape and was dropped');
      }
      return out;
    },
  };
}
