/**
 * The card of a match that plays in its own thread: one short post in the parent channel, edited in place
 * as the match goes on (lobby seats, each round close, the result), never re-posted. Everything in it is
 * public already (round posts, leaderboards); the judge's verdict is left out, because with a ballot open it
 * is hidden until people have voted (src/voting/render.ts).
 */
import type { CardUpdate, Post } from '../chat/types.js';
import { button } from '../chat/reply.js';
import { labIdsFor } from '../engine/index.js';
import type { HostedMatch } from '../match/types.js';
import { personName } from '../chat/player-text.js';
import { currentStandings, fmtReward, leaderboardText, roundLabel, seatLabel } from './common.js';

/** "2 trades, 1 coalition committed" for the last closed round's public steps (what its post told). */
function roundSummary(m: HostedMatch): string {
  const acts = m.lastRound?.actions ?? [];
  const count = (type: string) =>
    acts.filter((a) => a.ok && (a.action as { action_type?: unknown } | null)?.action_type === type).length;
  const trades = count('accept_offer');
  const offers = count('send_offer') + count('counter_offer');
  const pitches = count('make_pitch') + count('counter_pitch');
  const parts = [
    `${trades} trade${trades === 1 ? '' : 's'}`,
    `${offers} offer${offers === 1 ? '' : 's'}`,
    `${pitches} pitch${pitches === 1 ? '' : 'es'}`,
  ];
  return parts.join(', ');
}

/** ", hosted by 👤 name" when the host holds a seat (the log keeps no name of a host without one), else "". */
function hostedBy(m: HostedMatch): string {
  const held = Object.values(m.drivers).find((d) => d.kind === 'human' && d.userId === m.hostUserId);
  return held?.kind === 'human' ? `, hosted by ${personName(held.displayName)}` : '';
}

/** The card's post for `m` as it is now (lobby, running or over). */
export function renderCard(m: HostedMatch): Post {
  const timer = m.settings.roundSeconds > 0 ? `${m.settings.roundSeconds} s rounds` : 'no round timer';
  const where =
    'Everything of this match is posted in the thread of this card; commands typed in this channel find it too.';
  const id = `Match \`${m.id}\``;
  if (m.phase === 'lobby' || !m.state) {
    const labs = labIdsFor(m.settings.task, m.settings.seed);
    const taken = labs.filter((l) => m.drivers[l]).length;
    return {
      title: `${m.settings.task}: lobby (${taken}/${labs.length} seats taken)`,
      text: `${id}${hostedBy(m)}, ${timer}. Press Join (or \`join\`) to take a seat. ${where}`,
      fields: [{ name: 'Seats', value: labs.map((l) => `${l}: ${seatLabel(m, l)}`).join('\n') }],
      buttons: m.phase === 'lobby' ? [button(m.id, 'Join', 'join', 'primary')] : [],
    };
  }
  const s = m.state;
  const rows = currentStandings(m);
  const fields = [{ name: 'Standings', value: leaderboardText(m, rows) }];
  if (m.phase === 'over') {
    const [best, second] = [...rows].sort((a, b) => b.cumulativeReward - a.cumulativeReward);
    // A shared top score names no winner (the card would say something untrue).
    const winner =
      best && s.over && (!second || second.cumulativeReward < best.cumulativeReward)
        ? `Winner: ${seatLabel(m, best.lab)} with ${fmtReward(best.cumulativeReward)}. `
        : '';
    const closed = m.standings?.length ?? 0;
    const how = s.over
      ? `over after ${s.params.maxRounds} rounds`
      : `ended after ${closed} closed round${closed === 1 ? '' : 's'}`;
    return {
      title: `${m.settings.task}: ${how}`,
      text: `${id}. ${winner}The thread holds every round, the final post and the seed.`,
      fields,
    };
  }
  const last = m.lastRound;
  if (last)
    fields.unshift({ name: `Round ${roundLabel(last.round, s.params.maxRounds)} closed`, value: roundSummary(m) });
  return {
    title: `${m.settings.task}: round ${roundLabel(s.round, s.params.maxRounds)}`,
    text: `${id}${hostedBy(m)}, ${timer}. ${where}`,
    fields,
    buttons: [button(m.id, 'My view', 'me')],
  };
}

/** The card update of a thread match (null for a match without a card: flat, or opened inside a thread). */
export function cardUpdate(m: HostedMatch): CardUpdate | null {
  if (!m.cardMessageId || !m.parentChannelId) return null;
  return {
    matchId: m.id,
    channelId: m.parentChannelId,
    messageId: m.cardMessageId,
    threadId: m.channelId,
    post: renderCard(m),
    final: m.phase === 'over',
  };
}

/** The placeholder card a thread opens on, before its match exists (edited into {@link renderCard} at once). */
export function placeholderCard(task: string, hostDisplayName: string): Post {
  return {
    title: `${task}: opening a match…`,
    text: `${personName(hostDisplayName)} is opening a match; its lobby is in the thread of this card.`,
  };
}

/** `reply` with `m`'s card update (unchanged for a match without a card). */
export function withCard<R extends { card?: CardUpdate }>(reply: R, m: HostedMatch | null): R {
  const card = m ? cardUpdate(m) : null;
  return card ? { ...reply, card } : reply;
}
