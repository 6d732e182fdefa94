/**
 * Small builders for {@link Reply} values: public posts, private posts, errors and buttons.
 */
import type { Button, CommandError, Post, PrivatePost, Reply } from './types.js';

/** A reply with nothing in it. */
export const emptyReply = (): Reply => ({ public: [], private: [] });

/** A reply with one public post. */
export const publicReply = (post: Post): Reply => ({ public: [post], private: [] });

/** A reply with one private post for `userId`. */
export const privateReply = (userId: string, post: Post): Reply => ({ public: [], private: [{ ...post, userId }] });

/** A private post for `userId`. */
export const privatePost = (userId: string, post: Post): PrivatePost => ({ ...post, userId });

/**
 * The reply to bad input: always one private post for the caller, never anything public. The error itself
 * rides along in `reply.error` for adapters and tests.
 */
export function errorReply(userId: string, error: CommandError): Reply {
  const lines = [error.message];
  if (error.expected && !error.message.includes(error.expected)) lines.push(`Expected: ${error.expected}.`);
  if (error.validValues && error.validValues.length > 0 && !error.message.includes(error.validValues.join(', '))) {
    lines.push(`Valid: ${error.validValues.join(', ')}.`);
  } else if (error.validValues && error.validValues.length === 0 && error.option) {
    lines.push(`You have no valid value for \`${error.option}\` right now.`);
  }
  return { public: [], private: [{ userId, title: `✗ ${error.code}`, text: lines.join('\n') }], error };
}

/**
 * Concatenate replies in order (public posts, then private posts, of each). Each private post records how
 * many public posts precede it (`afterPublic`): those of the replies before its own, and its own reply's
 * (or the position it already had there), so the order in which things happened survives the merge.
 */
export function mergeReplies(...replies: (Reply | null | undefined)[]): Reply {
  const out = emptyReply();
  for (const r of replies) {
    if (!r) continue;
    const before = out.public.length;
    out.public.push(...r.public);
    for (const p of r.private) out.private.push({ ...p, afterPublic: before + (p.afterPublic ?? r.public.length) });
    if (r.modal && !out.modal) out.modal = r.modal;
    if (r.form && !out.form) out.form = r.form;
    if (r.channelId && !out.channelId) out.channelId = r.channelId;
    // The card shows the match as it is now: the last update wins.
    if (r.card) out.card = r.card;
    if (r.error && !out.error) out.error = r.error;
  }
  return out;
}

/** A button that runs `command` (catalogue text grammar) in match `matchId` when clicked. */
export function button(matchId: string, label: string, command: string, style: Button['style'] = 'secondary'): Button {
  return { id: `arena:${boundCommand({ matchId, command })}`, label, command, style, matchId };
}

/** Match ids as the host makes them (`m_` + 12 hex digits); letters, digits, `_` and `-`, at most 64. */
const BOUND = /^@([A-Za-z0-9_-]{1,64}) ([\s\S]+)$/;

/**
 * A button's command with its match, as platforms carry it (Discord custom_id, Slack button value):
 * `@<match id> <command>`, e.g. `@m_0123456789ab accept offer:o_3`.
 */
export function boundCommand(b: Pick<Button, 'matchId' | 'command'>): string {
  return `@${b.matchId} ${b.command}`;
}

/**
 * The match and command of a {@link boundCommand} text, or null for a text without a match (a button made
 * before buttons were bound to their match, or not one of ours): such a press must be refused.
 */
export function unboundCommand(text: string): { matchId: string; command: string } | null {
  const m = BOUND.exec(text.trim());
  return m ? { matchId: m[1]!, command: m[2]!.trim() } : null;
}
