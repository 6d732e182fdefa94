/**
 * A person's own matches, for a home surface (the Slack App Home tab): every lobby or running match of the
 * platform in which they hold a seat or are the host, with their private view of each (only they see a
 * home surface, like an ephemeral). Platform-neutral; the adapter lays it out and links the channels.
 */
import type { Post } from '../chat/types.js';
import type { ArenaHost } from './context.js';
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
export async function homeEntries(host: Pick<ArenaHost, 'matchesOf' | 'seatOf'>, userId: string, platform: string): Promise<HomeEntry[]> {
  const matches = await host.matchesOf(userId, platform);
  return matches.map((m) => {
    const lab = host.seatOf(m, userId);
    const view = lab ? renderMe(m, lab) : renderLobby(m);
    // Buttons act in the match's channel; a home tab has none, so they are left out here.
    const post: Post = { ...view, buttons: [] };
    return { matchId: m.id, channelId: m.channelId, ...(m.parentChannelId ? { parentChannelId: m.parentChannelId } : {}), post };
  });
}
