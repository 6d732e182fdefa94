/**
 * Matches in their own thread, on Discord: `new` posts the match's card in the channel and opens a public
 * thread on it (REST `POST /channels/{channel}/messages/{card}/threads`; the thread's id is the card's), the
 * match's posts go to that thread, the card is edited in place as rounds close
 * (`PATCH /channels/{channel}/messages/{card}`), and the thread is archived when the match is over
 * (`PATCH /channels/{thread}` `{archived: true}`). A later post in it (the last ballot's verdict) reopens it,
 * as Discord does for any message in an archived thread that is not locked.
 */
import { ChannelType, type Client } from 'discord.js';
import type { Logger } from 'pino';
import type { CardUpdate, Post, ThreadSurface } from '../../chat/types.js';
import { renderPost, type ButtonIds, type DiscordPayload } from './render.js';

/** Where channel posts go: discord.js resolves the channel from cache or REST. */
export interface ChannelSink {
  /** Post in a channel or thread; resolves to the new message's id. */
  send(channelId: string, payload: DiscordPayload): Promise<string>;
  /** Edit one of the bot's messages. */
  edit(channelId: string, messageId: string, payload: DiscordPayload): Promise<void>;
  /** Open a public thread on a message of `channelId`; resolves to the thread's id. */
  startThread(channelId: string, messageId: string, name: string): Promise<string>;
  /** Archive a thread (it reopens when a message is posted in it). */
  archive(threadId: string): Promise<void>;
}

/** The sink of a logged-in client: channels resolved from its cache or by REST (also a guild on another shard: REST is not sharded). */
export function clientSink(client: Client): ChannelSink {
  const fetchChannel = (id: string) => client.channels.fetch(id, { allowUnknownGuild: true });
  return {
    async send(channelId, payload) {
      const channel = await fetchChannel(channelId);
      if (!channel || !channel.isSendable())
        throw new Error(`channel ${channelId} is not a text channel the bot can post in`);
      return (await channel.send(payload)).id;
    },
    async edit(channelId, messageId, payload) {
      const channel = await fetchChannel(channelId);
      if (!channel || !channel.isTextBased()) throw new Error(`channel ${channelId} is not a text channel`);
      const { flags: _flags, ...editable } = payload;
      await channel.messages.edit(messageId, editable);
    },
    async startThread(channelId, messageId, name) {
      const channel = await fetchChannel(channelId);
      if (!channel || channel.type !== ChannelType.GuildText)
        throw new Error(`channel ${channelId} cannot hold threads`);
      const thread = await channel.threads.create({
        startMessage: messageId,
        name,
        autoArchiveDuration: THREAD_AUTO_ARCHIVE_MINUTES,
      });
      return thread.id;
    },
    async archive(threadId) {
      const thread = await fetchChannel(threadId);
      if (!thread || !thread.isThread()) throw new Error(`channel ${threadId} is not a thread`);
      if (!thread.archived) await thread.setArchived(true, 'match over');
    },
  };
}

/** Threads stay open this long without a message before Discord archives them itself (minutes: one day). */
export const THREAD_AUTO_ARCHIVE_MINUTES = 1440;

/**
 * The {@link ThreadSurface} of one interaction: `new` there opens its match's thread on a card in the
 * channel. `inThread`: the interaction came from a thread (a thread holds no thread). A refusal (missing
 * permission, an archived parent) is logged and answered with null, so the match plays in the channel.
 */
export function discordSurface(
  sink: ChannelSink,
  ids: ButtonIds,
  logger: Logger,
  opts: { threadsByDefault: boolean; inThread: boolean },
): ThreadSurface {
  return {
    threadsByDefault: opts.threadsByDefault,
    inThread: opts.inThread,
    async openThread(channelId: string, card: Post, name: string) {
      try {
        const cardMessageId = await sink.send(channelId, renderPost(card, ids));
        const threadId = await sink.startThread(channelId, cardMessageId, name);
        return { threadId, cardMessageId };
      } catch (err) {
        logger.warn(
          { channelId, err: (err as Error).message },
          'discord: could not open a match thread; the match plays in the channel',
        );
        return null;
      }
    },
  };
}

/** Edit a match's card in place; when the match is over, archive its thread. Failures are logged, never thrown. */
export async function updateCard(
  sink: ChannelSink,
  card: CardUpdate,
  ids: ButtonIds,
  logger?: Pick<Logger, 'warn'>,
): Promise<void> {
  try {
    await sink.edit(card.channelId, card.messageId, renderPost(card.post, ids));
  } catch (err) {
    logger?.warn(
      { matchId: card.matchId, channelId: card.channelId, err: (err as Error).message },
      'discord: match card not edited',
    );
  }
  if (!card.final) return;
  try {
    await sink.archive(card.threadId);
  } catch (err) {
    logger?.warn(
      { matchId: card.matchId, threadId: card.threadId, err: (err as Error).message },
      'discord: match thread not archived',
    );
  }
}
