/**
 * Delivering a {@link Reply} to Slack.
 *
 * - Public posts → `chat.postMessage`, one message per post, through a per-channel queue that keeps
 *   posts one second apart per channel (Slack's chat.postMessage limit: "1 message per second per
 *   channel", api.slack.com/methods/chat.postMessage#rate_limiting), across commands and timer closes.
 *   A post starts the interval after the previous one in its channel was *answered*, not started: so
 *   posts reach Slack at least the interval apart whatever each one's delivery delay, and after a post
 *   that @slack/web-api retried on a 429 (Retry-After) the next one does not follow at once.
 * - The caller's private posts → `respond({response_type:'ephemeral'})` on the request's response_url
 *   when there is one (slash commands, buttons), else `chat.postEphemeral`.
 * - Other people's private posts → `chat.postEphemeral` to that user in the channel.
 *
 * Private posts of one user in one reply are merged into one message (a response_url takes at most
 * 5 messages), split only at Slack's 50-block limit.
 *
 * A match that plays in a thread (threads.ts) has the channel id `<channel>/<card ts>`: its posts and
 * ephemerals go to that thread (`thread_ts`), paced by the channel's queue, and a reply's card update edits
 * the card in the channel (`chat.update`).
 */
import PQueue from 'p-queue';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { types } from '@slack/bolt';
import { renderPostCharts } from '../../analytics/charts/attach.js';
import type { Post, PrivatePost, Reply } from '../../commands/types.js';
import type { CardUpdate } from '../../chat/types.js';
import { LIMITS, notice, renderPost, type SlackMessage } from './render.js';
import { placeOf, threadArg, updateSlackCard, type CardApi } from './threads.js';

/** The Web API methods used for posting (a subset of WebClient.chat); `thread_ts` posts in a thread. */
export interface ChatApi {
  postMessage(args: {
    channel: string;
    text: string;
    blocks: types.KnownBlock[];
    unfurl_links: boolean;
    unfurl_media: boolean;
    thread_ts?: string;
  }): Promise<{ ts?: string }>;
  postEphemeral(args: {
    channel: string;
    user: string;
    text: string;
    blocks: types.KnownBlock[];
    thread_ts?: string;
  }): Promise<unknown>;
  /** Edit one of the bot's messages (a match's card). */
  update(args: { channel: string; ts: string; text: string; blocks: types.KnownBlock[] }): Promise<unknown>;
}

/**
 * File uploads (WebClient `files.uploadV2`: files.getUploadURLExternal, a POST of the bytes to the
 * returned upload URL, files.completeUploadExternal; needs the `files:write` scope).
 */
export interface FilesApi {
  uploadV2(args: {
    channel_id: string;
    file: Buffer;
    filename: string;
    title: string;
    alt_text: string;
    thread_ts?: string;
  }): Promise<unknown>;
}

/** Posts to a response_url (Bolt's `respond`). */
export type RespondFn = (message: {
  response_type: 'ephemeral';
  replace_original: false;
  text: string;
  blocks: types.KnownBlock[];
}) => Promise<unknown>;

/** Platform prefix of user ids in Caller.userId. */
export const USER_PREFIX = 'slack:';

/** `slack:U123` → `U123`; null for ids of other platforms. */
export function slackUserId(userId: string): string | null {
  return userId.startsWith(USER_PREFIX) ? userId.slice(USER_PREFIX.length) : null;
}

/** Default spacing of posts in one channel, in ms (Slack: 1 message/s per channel). */
export const POST_INTERVAL_MS = 1000;

/** One rate-limited queue per channel; idle queues are dropped once their interval has passed. */
export class ChannelQueues {
  private readonly queues = new Map<string, { queue: PQueue; lastEnd: number }>();
  constructor(readonly intervalMs: number = POST_INTERVAL_MS) {}

  /**
   * Runs `task` in the channel's queue: in order, one at a time, each starting at least `intervalMs` after
   * the previous task of the channel finished (so also at least that long after it started).
   */
  run<T>(channelId: string, task: () => Promise<T>): Promise<T> {
    this.prune();
    let entry = this.queues.get(channelId);
    if (!entry) {
      entry = { queue: new PQueue({ concurrency: 1 }), lastEnd: 0 };
      this.queues.set(channelId, entry);
    }
    const e = entry;
    return e.queue.add(async () => {
      const wait = e.lastEnd + this.intervalMs - Date.now();
      if (wait > 0) await delay(wait);
      try {
        return await task();
      } finally {
        e.lastEnd = Date.now();
      }
    }) as Promise<T>;
  }

  /** Resolves when every queue is empty and nothing is running. */
  async idle(): Promise<void> {
    await Promise.all([...this.queues.values()].map((e) => e.queue.onIdle()));
  }

  /** Number of channels with a queue (for tests). */
  get size(): number {
    return this.queues.size;
  }

  private prune(): void {
    const now = Date.now();
    for (const [id, e] of this.queues) {
      if (e.queue.size === 0 && e.queue.pending === 0 && now - e.lastEnd > this.intervalMs) this.queues.delete(id);
    }
  }
}

/** Merge posts into as few messages as Slack allows (≤ 50 blocks each), a divider between posts. */
export function mergePosts(posts: readonly Post[]): SlackMessage[] {
  const out: SlackMessage[] = [];
  let cur: SlackMessage | null = null;
  for (const p of posts) {
    const m = renderPost(p);
    if (cur && cur.blocks.length + 1 + m.blocks.length <= LIMITS.blocks) {
      cur.blocks.push({ type: 'divider' }, ...m.blocks);
      cur.text = `${cur.text}\n${m.text}`.slice(0, LIMITS.fallback);
    } else {
      cur = { text: m.text, blocks: [...m.blocks] };
      out.push(cur);
    }
  }
  return out;
}

function byUser(posts: readonly PrivatePost[]): Map<string, PrivatePost[]> {
  const m = new Map<string, PrivatePost[]>();
  for (const p of posts) m.set(p.userId, [...(m.get(p.userId) ?? []), p]);
  return m;
}

/** Posts replies: public through the channel queues, private as ephemeral messages. */
export class SlackPoster {
  constructor(
    private readonly chat: ChatApi,
    private readonly queues: ChannelQueues,
    private readonly logger: Logger,
    private readonly files?: FilesApi,
  ) {}

  /**
   * Queue the public posts of a reply in order; resolves when all are posted (failures are logged). A post's
   * charts are rendered meanwhile and uploaded to the channel right after it; a chart that fails to render
   * or upload is logged and skipped.
   */
  async publicPosts(channelId: string, posts: readonly Post[]): Promise<void> {
    const tasks: Promise<unknown>[] = [];
    const place = placeOf(channelId);
    const channel = place.channel;
    for (const p of posts) {
      tasks.push(
        this.queues
          .run(channel, () =>
            this.chat.postMessage({
              channel,
              ...renderPost(p),
              unfurl_links: false,
              unfurl_media: false,
              ...threadArg(place),
            }),
          )
          .catch((err: unknown) =>
            this.logger.error({ channelId, err: errText(err) }, 'slack: chat.postMessage failed'),
          ),
      );
      const files = this.files;
      if (!files || !p.charts?.length) continue;
      const rendered = renderPostCharts(p, this.logger);
      tasks.push(
        this.queues
          .run(channel, async () => {
            for (const f of await rendered)
              await files.uploadV2({
                channel_id: channel,
                file: f.png,
                filename: f.name,
                title: f.title,
                alt_text: f.title,
                ...threadArg(place),
              });
          })
          .catch((err: unknown) => this.logger.error({ channelId, err: errText(err) }, 'slack: chart upload failed')),
      );
    }
    await Promise.all(tasks);
  }

  /** Ephemeral messages for one user (chat.postEphemeral). Users of other platforms are skipped. */
  async ephemeral(channelId: string, userId: string, posts: readonly Post[]): Promise<void> {
    const user = slackUserId(userId);
    if (!user) return;
    for (const m of mergePosts(posts)) await this.postEphemeral(channelId, userId, m);
  }

  private async postEphemeral(channelId: string, userId: string, m: SlackMessage): Promise<void> {
    const user = slackUserId(userId);
    if (!user) return;
    const place = placeOf(channelId);
    try {
      await this.chat.postEphemeral({ channel: place.channel, user, ...m, ...threadArg(place) });
    } catch (err) {
      this.logger.error({ channelId, user, err: errText(err) }, 'slack: chat.postEphemeral failed');
    }
  }

  /** A reply that answers nobody (timer round closes, agent turns): public posts and everyone's ephemerals. */
  async publish(channelId: string, reply: Reply): Promise<void> {
    const dest = reply.channelId ?? channelId;
    const pub = this.publicPosts(dest, reply.public);
    for (const [user, posts] of byUser(reply.private)) await this.ephemeral(dest, user, posts);
    await pub;
    if (reply.card) await this.card(reply.card);
  }

  /** Edit a match's card (after the posts it summarises, in its channel's queue order). */
  private async card(card: CardUpdate): Promise<void> {
    const api: CardApi = { post: async () => '', update: (a) => this.chat.update(a) };
    await this.queues.run(card.channelId, () => updateSlackCard(api, card, this.logger));
  }

  /**
   * The answer to a caller's request: the caller's private posts first (via `respond` when given),
   * then the public posts (queued) and other people's private posts. An empty reply gets a "Done." notice.
   * A reply for a match in a thread (`reply.channelId`) posts there and tells the caller so.
   */
  async answer(channelId: string, callerUserId: string, reply: Reply, respond: RespondFn | null): Promise<void> {
    const dest = reply.channelId ?? channelId;
    const groups = byUser(reply.private);
    const mine = groups.get(callerUserId) ?? [];
    groups.delete(callerUserId);
    const elsewhere = dest !== channelId && (reply.public.length > 0 || groups.size > 0);
    const own =
      mine.length > 0 ? mergePosts(mine) : reply.public.length === 0 && groups.size === 0 ? [notice('Done.')] : [];
    if (elsewhere) own.push(notice("Posted in the match's thread, under its card in this channel."));
    for (const m of own) {
      if (respond) {
        try {
          await respond({ response_type: 'ephemeral', replace_original: false, ...m });
          continue;
        } catch (err) {
          this.logger.warn({ channelId, err: errText(err) }, 'slack: response_url failed; using chat.postEphemeral');
        }
      }
      await this.postEphemeral(channelId, callerUserId, m);
    }
    const pub = this.publicPosts(dest, reply.public);
    for (const [user, posts] of groups) await this.ephemeral(dest, user, posts);
    await pub;
    if (reply.card) await this.card(reply.card);
  }
}

/** An error's message (Web API errors carry a code like `channel_not_found`, never the token). */
export function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
