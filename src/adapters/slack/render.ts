/**
 * Reply → Slack Block Kit. A {@link Post} becomes one message: a header block (title), a mrkdwn
 * section (text), sections of fields (≤ 10 per section) and action blocks of buttons. A button's
 * `value` carries its match and catalogue command text (`@m_0123456789ab accept offer:o_3`, src/chat/reply.ts
 * `boundCommand`: a press runs only in that match) and its `action_id` is `arena:<that text>` (or
 * `arena#<hash>` when that is too long), so a click runs without any state in this process and survives
 * restarts.
 *
 * Everything a player wrote is escaped (`&`, `<`, `>`), so pitches and messages cannot ping
 * `<!channel>` or fake links; every mrkdwn text object is `verbatim` (Slack links no bare `@channel`,
 * `#channel` or URL); player text (src/chat/player-text.ts) also loses its mrkdwn emphasis characters
 * ({@link escapePlayerMrkdwn}) and its blocks are `>` quotes, so a pitch cannot post a bold "Lab B:" line.
 * Limits are Slack's Block Kit limits (api.slack.com/reference/block-kit).
 */
import { createHash } from 'node:crypto';
import type { types } from '@slack/bolt';
import { plainOf, renderSpans } from '../../chat/player-text.js';
import { boundCommand } from '../../chat/reply.js';
import { DEADLINE_FIELD } from '../../present/common.js';
import type { Button, Post } from '../../commands/types.js';

type KnownBlock = types.KnownBlock;

/** Slack Block Kit limits used here. */
export const LIMITS = {
  header: 150,
  section: 3000,
  fieldsPerSection: 10,
  field: 2000,
  buttonsPerActions: 25,
  buttonText: 75,
  buttonValue: 2000,
  actionId: 255,
  blocks: 50,
  fallback: 3000,
} as const;

/** Prefix of button action_ids: `arena:<command text>`, or `arena#<hash>` for long texts (the value is authoritative). */
export const ACTION_PREFIX = 'arena:';
const HASH_PREFIX = 'arena#';
/** Matches every action_id this adapter renders (for `app.action`). */
export const ACTION_ID_PATTERN = /^arena[:#]/;

/** A message body for chat.postMessage / chat.postEphemeral / respond(). `text` is the notification fallback. */
export interface SlackMessage {
  text: string;
  blocks: KnownBlock[];
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Escape Slack's control characters so user text is shown, never interpreted (mentions, links). */
export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Slack mrkdwn has no escape for emphasis: a player's `*`, `_`, `~` and backtick are shown as look-alikes
 * (∗ ˍ ∼ ˋ), so they can never open bold, italics, strike-through or code.
 */
const LOOKALIKE: Record<string, string> = { '*': '\u2217', _: '\u02cd', '~': '\u223c', '`': '\u02cb' };

const WORD = /[A-Za-z0-9]/;

/**
 * A player's text as Slack mrkdwn shows it literally: `&<>` escaped, emphasis characters as look-alikes. An
 * underscore between two letters or digits stays itself (Slack opens and closes italics only at a word's
 * edge), so ids quoted in a note (`b_2_2`, `lab_1`) read and copy as the ids they are.
 */
export function escapePlayerMrkdwn(text: string): string {
  return escapeText(text).replace(/[*_~`]/g, (c, i: number, s: string) =>
    c === '_' && WORD.test(s[i - 1] ?? '') && WORD.test(s[i + 1] ?? '') ? c : (LOOKALIKE[c] ?? c),
  );
}

/** The catalogue's markdown-ish text (bold with **, code with backticks) as Slack mrkdwn, escaped; player spans literal, player blocks as `>` quotes. */
export function toMrkdwn(text: string): string {
  return renderSpans(text, {
    bot: (t) => escapeText(t).replace(/\*\*(.+?)\*\*/gs, '*$1*'),
    inline: escapePlayerMrkdwn,
    block: (lines) => lines.map((l) => `>${escapePlayerMrkdwn(l)}`),
  });
}

/** A mrkdwn text object; always `verbatim`, so Slack never turns bare names, channels or URLs into links. */
const mrkdwn = (text: string) => ({ type: 'mrkdwn' as const, text, verbatim: true });

/** action_id of a button: the command text itself when it fits in 255 characters, else a stable hash. */
export function actionIdFor(command: string): string {
  const direct = `${ACTION_PREFIX}${command}`;
  if (direct.length <= LIMITS.actionId) return direct;
  return `${HASH_PREFIX}${createHash('sha256').update(command).digest('base64url').slice(0, 22)}`;
}

/** The bound command text of a clicked button (its `value`; src/chat/reply.ts `unboundCommand` reads it), or null if the action is not one of ours. */
export function commandOfAction(action: { action_id?: string; value?: string }): string | null {
  if (!action.action_id || !ACTION_ID_PATTERN.test(action.action_id)) return null;
  const v = action.value?.trim();
  return v ? v : null;
}

function buttonElement(b: Button): types.Button {
  const bound = boundCommand(b);
  const el: types.Button = {
    type: 'button',
    text: {
      type: 'plain_text',
      text: cut(plainOf(b.label).replace(/\n/g, ' ') || '—', LIMITS.buttonText),
      emoji: true,
    },
    action_id: actionIdFor(bound),
    value: bound,
  };
  // Slack has two styles; secondary is the default look.
  if (b.style === 'primary' || b.style === 'success') el.style = 'primary';
  if (b.style === 'danger') el.style = 'danger';
  return el;
}

/** Buttons as action blocks (25 per block). Duplicate commands and commands over 2000 characters are dropped. */
export function actionBlocks(buttons: readonly Button[]): KnownBlock[] {
  const seen = new Set<string>();
  const elements: types.Button[] = [];
  for (const b of buttons) {
    const bound = boundCommand(b);
    if (seen.has(bound) || bound.length > LIMITS.buttonValue) continue;
    seen.add(bound);
    elements.push(buttonElement(b));
  }
  const out: KnownBlock[] = [];
  for (let i = 0; i < elements.length; i += LIMITS.buttonsPerActions) {
    out.push({ type: 'actions', elements: elements.slice(i, i + LIMITS.buttonsPerActions) });
  }
  return out;
}

/** The plain fallback text of a post (notifications, screen readers). */
export function fallbackText(post: Post): string {
  const parts = [post.title ? `*${toMrkdwn(post.title).replace(/\n/g, ' ')}*` : '', toMrkdwn(post.text)].filter(
    (s) => s !== '',
  );
  return cut(parts.join('\n') || ' ', LIMITS.fallback);
}

/**
 * A field value as mrkdwn. The round host's deadline field (an ISO time, src/present/common.ts
 * DEADLINE_FIELD) becomes Slack's date token, shown in each reader's own time zone
 * (api.slack.com/reference/surfaces/formatting#date-formatting), with the UTC time as its fallback.
 */
export function slackFieldValue(name: string, value: string): string {
  const ms = name === DEADLINE_FIELD ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) return toMrkdwn(value || '—');
  return `closes at <!date^${Math.floor(ms / 1000)}^{time_secs}|${new Date(ms).toISOString().slice(11, 19)} UTC>`;
}

/** One post as a Slack message. `extraFields` are appended after the post's own fields. */
export function renderPost(post: Post, extraFields: readonly { name: string; value: string }[] = []): SlackMessage {
  const blocks: KnownBlock[] = [];
  // A header is plain_text (never parsed): player text in it only loses its markers.
  if (post.title)
    blocks.push({
      type: 'header',
      text: { type: 'plain_text', text: cut(plainOf(post.title).replace(/\n/g, ' '), LIMITS.header), emoji: true },
    });
  if (post.text.trim() !== '') blocks.push({ type: 'section', text: mrkdwn(cut(toMrkdwn(post.text), LIMITS.section)) });
  const fields = [...(post.fields ?? []), ...extraFields].map((f) =>
    mrkdwn(cut(`*${toMrkdwn(f.name || '—').replace(/\n/g, ' ')}*\n${slackFieldValue(f.name, f.value)}`, LIMITS.field)),
  );
  for (let i = 0; i < fields.length; i += LIMITS.fieldsPerSection) {
    blocks.push({ type: 'section', fields: fields.slice(i, i + LIMITS.fieldsPerSection) });
  }
  blocks.push(...actionBlocks(post.buttons ?? []));
  // A post's own mentions (a reminder's one person) by Slack user id, first, and in the notification text.
  const pings = (post.mentions ?? [])
    .filter((u) => /^slack:[A-Z0-9]{2,30}$/.test(u))
    .map((u) => `<@${u.slice('slack:'.length)}>`);
  if (pings.length > 0) blocks.unshift({ type: 'section', text: mrkdwn(pings.join(' ')) });
  const text = fallbackText(post);
  return {
    text: pings.length > 0 ? `${pings.join(' ')} ${text}`.slice(0, LIMITS.fallback) : text,
    blocks: blocks.slice(0, LIMITS.blocks),
  };
}

/** A short plain notice (errors of the adapter itself, not of commands). */
export function notice(text: string): SlackMessage {
  return { text: escapeText(text), blocks: [{ type: 'section', text: mrkdwn(escapeText(text)) }] };
}
