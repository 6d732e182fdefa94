/**
 * Buttons belong to one match (src/chat/reply.ts `boundCommand`): a press runs its command only in the
 * channel's current match when that is the match the button was made for. A button shown under another
 * channel's command, or kept from a match that has ended, would otherwise act on whatever match the channel
 * holds now (its `accept offer:o_1` accepting another match's o_1), so such a press is refused with a
 * private error and changes nothing.
 */
import type { CommandContext } from './context.js';
import type { CommandError } from './types.js';

/** Commands a button may still run after its match ended: votes on its last ballot, which stays open a while, and `privacy` (about the person, not the match). */
const AFTER_THE_MATCH: ReadonlySet<string> = new Set(['vote', 'privacy']);

/**
 * Why a button made for match `matchId` may not run `command` here, or null when it may. Errors:
 * `button_other_channel` (the match is not this channel's, or unknown), `button_match_over` (this channel's
 * match it was made for has ended; `vote` excepted).
 */
export async function boundButtonError(
  ctx: CommandContext,
  command: string,
  matchId: string,
): Promise<CommandError | null> {
  if (ctx.match?.id === matchId) return null;
  const rec = await ctx.host.eventStore.getMatch(matchId);
  // A thread match's card sits in the parent channel: its buttons act there too.
  const here =
    rec !== null &&
    (rec.channelId === ctx.channelId || rec.channelId === ctx.calledFrom || rec.parentChannelId === ctx.calledFrom);
  if (rec === null || !here) {
    return {
      code: 'button_other_channel',
      message: 'That button belongs to a match in another channel, so it does nothing here. Nothing was changed.',
    };
  }
  if (AFTER_THE_MATCH.has(command)) return null;
  const now = ctx.match ? ' `me` shows your seat in the match running here now.' : '';
  return {
    code: 'button_match_over',
    message: `That button was for an earlier match in this channel (${matchId}), which has ended. Nothing was changed.${now}`,
  };
}
