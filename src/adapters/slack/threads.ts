/**
 * Matches in their own thread, on Slack: `new` posts the match's card in the channel (`chat.postMessage`)
 * and the match plays in that message's thread (`thread_ts` = the card's `ts`). The match's channel id
 * is then `<channel>/<card ts>` (Slack ids never hold a `/`), which the poster splits back into `channel`
 * and `thread_ts` for every post and ephemeral. The card is edited in place as rounds close (`chat.update`,
 * api.slack.com/methods/chat.update); Slack threads have no archived state, so the final edit closes it.
 * Slash commands carry no thread (api.slack.com/interactivity/slash-commands): people type them in the
 * channel, and the catalogue finds their match among the channel's threads (src/commands/locate.ts).
 */
import type { Logger } from 'pino';
import type { CardUpdate, Post, ThreadSurface } from '../../chat/types.js';
import { renderPost, type SlackMessage } from './render.js';

/** Where a match's posts go: a channel, or a thread of it. */
export interface SlackPlace {
  channel: string;
  /** The thread's parent message (`ts` of the card), absent for the channel itself. */
  threadTs?: string;
}

/** The match channel id of the thread of `ts` in `channel`. */
export function threadChannelId(channel: string, ts: string): string {
  return `${channel}/${ts}`;
}

/** `C123/1700000000.000100` → `{channel: 'C123', threadTs: '1700000000.000100'}`; a plain id → `{channel}`. */
export function placeOf(channelId: string): SlackPlace {
  const slash = channelId.indexOf('/');
  return slash < 0
    ? { channel: channelId }
    : { channel: channelId.slice(0, slash), threadTs: channelId.slice(slash + 1) };
}

/** `thread_ts` for a Web API call to `place` (nothing for the channel itself). */
export function threadArg(place: SlackPlace): { thread_ts?: string } {
  return place.threadTs ? { thread_ts: place.threadTs } : {};
}

/** The two calls a card needs: post it (resolving to its `ts`) and edit it. */
export interface CardApi {
  post(channel: string, message: SlackMessage): Promise<string>;
  update(args: { channel: string; ts: string; text: string; blocks: SlackMessage['blocks'] }): Promise<unknown>;
}

/** What `new` can do on Slack: post the card and play in its thread. A refused post is logged; the match then plays in the channel. */
export function slackSurface(api: CardApi, logger: Logger, threadsByDefault: boolean): ThreadSurface {
  return {
    threadsByDefault,
    inThread: false,
    async openThread(channelId: string, card: Post) {
      try {
        const ts = await api.post(channelId, renderPost(card));
        return { threadId: threadChannelId(channelId, ts), cardMessageId: ts };
      } catch (err) {
        logger.warn(
          { channelId, err: (err as Error).message },
          'slack: could not post a match card; the match plays in the channel',
        );
        return null;
      }
    },
  };
}

/** Edit a match's card in place (chat.update). Failures are logged, never thrown. */
export async function updateSlackCard(api: CardApi, card: CardUpdate, logger: Logger): Promise<void> {
  try {
    await api.update({ channel: card.channelId, ts: card.messageId, ...renderPost(card.post) });
  } catch (err) {
    logger.warn(
      { matchId: card.matchId, channelId: card.channelId, err: (err as Error).message },
      'slack: match card not edited',
    );
  }
}
