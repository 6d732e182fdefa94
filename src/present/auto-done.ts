/**
 * The private notice to a person the host marked done because nothing was left to decide (src/match/idle.ts,
 * src/host/rounds.ts). Every sentence is true of the moment it is sent, on every platform: what was decided
 * for them, whether the round closes at once (no timer, every other seat done) or when, and how to take it
 * back or turn it off.
 */
import type { PrivatePost } from '../chat/types.js';
import { button } from '../chat/reply.js';
import type { LabId } from '../engine/types.js';
import type { HostedMatch } from '../match/types.js';
import { labName } from '../match/names.js';

/**
 * The notice for `lab`, marked done in `round` (0-based). `closesNow`: the round closes right after this
 * (every seat is done and no timer needs to run out).
 */
export function autoDoneNotice(m: HostedMatch, lab: LabId, round: number, closesNow: boolean): PrivatePost {
  const d = m.drivers[lab];
  const userId = d?.kind === 'human' ? d.userId : lab;
  const n = round + 1;
  const lines = [
    `Nothing is left for you to decide in round ${n}: no job of yours can still earn from more GPU-hours, you hold no block another lab could buy, and no offer, coalition or auction waits on you. So you are marked done for round ${n}.`,
  ];
  if (closesNow) lines.push(`Every other seat is done too, so round ${n} closes now.`);
  else {
    // No "in N s": on Discord the notice may be read later, from the private inbox.
    const when = m.roundDeadline !== null ? 'when its timer runs out or every seat is done' : 'when every seat is done';
    lines.push(
      `Round ${n} closes ${when}. Until then you can still act (offers, pitches, messages), and \`done undo:true\` takes the done back.`,
    );
  }
  lines.push('To never be marked done automatically in this match: `done auto:off`.');
  const buttons = closesNow ? [] : [button(m.id, 'Not done after all', 'done undo:true')];
  return {
    userId,
    title: `${labName(m, lab)}: nothing left to decide in round ${n}`,
    text: lines.join(' '),
    ...(buttons.length ? { buttons } : {}),
  };
}
