/**
 * A person's own matches, for a home surface (the Slack App Home tab): every lobby or running match of the
 * platform in which they hold a seat or are the host, with their private view of each (only they see a
 * home surface, like an ephemeral), and their record: their rating among everyone rated (the leaderboard's
 * Bradley–Terry with its 95% interval, src/analytics/ratings) and their latest counted results, with their
 * answer to the data notice (handlers-privacy.ts). Platform-neutral; the adapter lays it out and links the channels.
 */
import type { Post } from '../chat/types.js';
import { loaderFor } from '../analytics/ratings/load.js';
import { RATING_METHOD, ratingLine } from '../analytics/ratings/text.js';
import { playerText } from '../chat/player-text.js';
import { fmtReward } from '../present/common.js';
import { dataPolicyOf, type ArenaHost } from './context.js';
import { STATE_TEXT } from './handlers-privacy.js';
import { renderLobby, renderMe } from './views.js';

/** One match of a person's home. */
export interface HomeEntry {
  matchId: string;
  /** Where the match plays: its channel, or its thread (`parentChannelId` is then the channel of its card). */
  channelId: string;
  parentChannelId?: string;
  /** The person's private view of it (a seat), or the lobby / public state (hosting without a seat). */
  post: Post;
}

/** The home of `userId` on `platform`: their open matches, oldest first, each with their own view. */
export async function homeEntries(
  host: Pick<ArenaHost, 'matchesOf' | 'seatOf'>,
  userId: string,
  platform: string,
): Promise<HomeEntry[]> {
  const matches = await host.matchesOf(userId, platform);
  return matches.map((m) => {
    const lab = host.seatOf(m, userId);
    const view = lab ? renderMe(m, lab) : renderLobby(m);
    // Buttons act in the match's channel; a home tab has none, so they are left out here.
    const post: Post = { ...view, buttons: [] };
    return {
      matchId: m.id,
      channelId: m.channelId,
      ...(m.parentChannelId ? { parentChannelId: m.parentChannelId } : {}),
      post,
    };
  });
}

/** How many of a person's latest counted matches the record lists. */
export const HOME_RECENT = 5;

/**
 * `userId`'s record: their rating row of the whole leaderboard (every task, everyone), their latest counted
 * results (task, rank among the seats, final reward), and their consent state. Counted: as the leaderboard counts.
 */
export async function homeRecord(host: Pick<ArenaHost, 'eventStore' | 'dataPolicy'>, userId: string): Promise<Post> {
  const { results } = await loaderFor(host.eventStore).load({}, { includeSeeded: dataPolicyOf(host).includeSeeded });
  const id = `person:${userId}`;
  const consent = await host.eventStore.getConsent(userId);
  const mine = results
    .filter((r) => r.seats.some((s) => s.player.id === id))
    .sort((a, b) => b.endedAt.localeCompare(a.endedAt));
  const { buildLeaderboard } = await import('../analytics/ratings/leaderboard.js'); // openskill loads on first use
  const row =
    mine.length > 0 ? buildLeaderboard(results, { kind: 'all' }).rows.find((r) => r.player.id === id) : undefined;
  const recent = mine.slice(0, HOME_RECENT).map((r) => {
    const seat = r.seats.find((s) => s.player.id === id)!;
    return `${r.task}, ${r.endedAt.slice(0, 10)}: rank ${seat.rank} of ${r.seats.length}, reward ${fmtReward(seat.reward)}`;
  });
  return {
    title: 'Your record',
    text: row
      ? `Leaderboard: ${ratingLine(row, (p) => playerText(p.name))}\n${RATING_METHOD}`
      : 'Not rated yet: finish a counted match to get a rating.',
    fields: [
      {
        name: `Latest counted matches (${mine.length} in all)`,
        value: recent.length > 0 ? recent.join('\n') : 'none yet',
      },
      {
        name: 'Your data',
        value: `${STATE_TEXT[consent?.state ?? 'none']}. \`privacy\` shows what is stored about you and changes it.`,
      },
    ],
  };
}
