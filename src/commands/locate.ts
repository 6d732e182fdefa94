/**
 * Which match a command is for. A match lives in one channel: the channel it was opened in, or its own
 * thread (src/present/card.ts), whose parent channel may hold several such matches at once. A command finds
 * its match from the match's channel (the thread) and from the parent channel alike:
 *
 * 1. a pressed button names its match: that one, when it plays here or in a thread of this channel;
 * 2. the match of this very channel (a flat match, or the thread the command was typed in);
 * 3. in a parent channel, among the matches of its threads: the caller's own (a seat, or hosting) if there
 *    is exactly one, else the only match there is; several and none of them clearly the caller's is
 *    ambiguous (the command is refused with the candidates named, and runs in the match's thread).
 */
import type { HostedMatch } from '../match/types.js';
import type { CommandError } from './types.js';

/** What the lookup needs of the round host (src/host `RoundHost`). */
export interface LocateHost {
  current(channelId: string): Promise<HostedMatch | null>;
  matchById(id: string): Promise<HostedMatch | null>;
  matchesUnder(parentChannelId: string): Promise<HostedMatch[]>;
  seatOf(m: HostedMatch, userId: string): string | null;
}

/** Where a command's match was found. */
export interface Located {
  /** The match, or null (none here, or several: see `ambiguous`). */
  match: HostedMatch | null;
  /** The channel the match plays in (its thread when found from the parent); the called channel otherwise. */
  channelId: string;
  /** Several matches of this channel's threads could be meant (none when `match` is set). */
  ambiguous: HostedMatch[];
}

const involves = (host: LocateHost, m: HostedMatch, userId: string) =>
  m.hostUserId === userId || host.seatOf(m, userId) !== null;

/** The match a command of `userId` in `channelId` is for (see the file comment). */
export async function locateMatch(
  host: LocateHost,
  channelId: string,
  userId: string,
  boundTo: string | null = null,
): Promise<Located> {
  if (boundTo !== null) {
    const bound = await host.matchById(boundTo);
    if (bound && bound.phase !== 'over' && bound.parentChannelId === channelId)
      return { match: bound, channelId: bound.channelId, ambiguous: [] };
  }
  const here = await host.current(channelId);
  if (here) return { match: here, channelId, ambiguous: [] };
  const under = await host.matchesUnder(channelId);
  const mine = under.filter((m) => involves(host, m, userId));
  const pick = mine.length === 1 ? mine[0]! : mine.length === 0 && under.length === 1 ? under[0]! : null;
  if (pick) return { match: pick, channelId: pick.channelId, ambiguous: [] };
  return { match: null, channelId, ambiguous: mine.length > 1 ? mine : under.length > 1 ? under : [] };
}

/** The error of a command that needs a match when several of this channel's threads hold one. */
export function ambiguousError(ms: readonly HostedMatch[]): CommandError {
  const list = ms
    .map(
      (m) =>
        `\`${m.id}\` (${m.settings.task}, ${m.phase === 'lobby' ? 'lobby' : `round ${(m.state?.round ?? 0) + 1}`})`,
    )
    .join(', ');
  return {
    code: 'ambiguous_match',
    message: `This channel has ${ms.length} matches, each in its own thread: ${list}. Run the command in the match's thread (under its card here), or use the buttons of its card.`,
    validValues: ms.map((m) => m.id),
  };
}
