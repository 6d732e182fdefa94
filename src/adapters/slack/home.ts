/**
 * The Slack App Home tab (api.slack.com/surfaces/app-home): on `app_home_opened`, the bot publishes
 * (`views.publish`) a `home` view for that person alone: each of their open matches with a link to its
 * channel (and a word on the thread under its card) and their private view of it. A home view holds at most
 * 100 blocks; matches that do not fit are counted, not cut in half. Then the person's record: rating,
 * latest counted results and their answer to the data notice (their consent state).
 */
import type { types } from '@slack/bolt';
import type { HomeEntry } from '../../commands/home.js';
import type { Post } from '../../chat/types.js';
import { renderPost } from './render.js';
import { placeOf } from './threads.js';

type KnownBlock = types.KnownBlock;
const MAX_BLOCKS = 100;

const mrkdwn = (text: string) => ({ type: 'mrkdwn' as const, text, verbatim: true });

/** The home view of a person with `entries` and their `record` (src/commands/home.ts). */
export function homeView(entries: readonly HomeEntry[], record?: Post): types.HomeView {
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: 'Your GPU Arena matches', emoji: true } },
    {
      type: 'section',
      text: mrkdwn(
        entries.length === 0
          ? 'You are in no open match. Open one with `/arena new` in a channel, or `/arena join` one there.'
          : `${entries.length} open match${entries.length === 1 ? '' : 'es'}. Only you see this page: it shows your private view of each. Act in the match's channel with \`/arena\`.`,
      ),
    },
  ];
  // The record (rating, latest results, consent state) comes last, and always fits: its blocks are reserved.
  const tail = record ? [{ type: 'divider' } as KnownBlock, ...renderPost(record).blocks] : [];
  let left = 0;
  for (const e of entries) {
    const place = placeOf(e.channelId);
    const where = place.threadTs ? `in the thread under its card in <#${place.channel}>` : `in <#${place.channel}>`;
    const part: KnownBlock[] = [
      { type: 'divider' },
      { type: 'context', elements: [mrkdwn(`Match \`${e.matchId}\` ${where}`)] },
      ...renderPost(e.post).blocks,
    ];
    if (blocks.length + part.length + tail.length > MAX_BLOCKS - 1) {
      left++;
      continue;
    }
    blocks.push(...part);
  }
  if (left > 0)
    blocks.push({
      type: 'context',
      elements: [
        mrkdwn(`${left} more match${left === 1 ? '' : 'es'} did not fit here; \`/arena me\` in its channel shows it.`),
      ],
    });
  blocks.push(...tail);
  return { type: 'home', blocks };
}
