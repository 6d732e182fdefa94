/**
 * Reply → Discord message payloads. A {@link Post} becomes one message with one embed (title, text,
 * fields) and its buttons in action rows; a private post is the same with `flags: 64` (ephemeral;
 * never the deprecated `ephemeral: true`). Mentions are never parsed (only a post's own `mentions`, a
 * reminder's one person, are allowed, by id), so text written by players
 * (pitches, messages) cannot ping anyone; and player text (src/chat/player-text.ts) is escaped
 * ({@link escapeDiscord}) and its blocks quoted, so it cannot forge a heading, a bold bot line, a masked
 * link or a mention pill either.
 */
import { createHash } from 'node:crypto';
import {
  ButtonStyle,
  ComponentType,
  MessageFlags,
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIEmbed,
  type AttachmentBuilder,
} from 'discord.js';
import { plainOf, renderSpans } from '../../chat/player-text.js';
import { boundCommand } from '../../chat/reply.js';
import type { ChartRequest } from '../../chat/types.js';
import type { Button, Post } from '../../commands/types.js';
import { DEADLINE_FIELD } from '../../present/common.js';

/** Discord limits for embeds and components. */
const LIMITS = {
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  buttonsPerRow: 5,
  rows: 5,
  label: 80,
  customId: 100,
} as const;

/**
 * Prefix of every button custom_id: `arena:<bound command>` (`arena:@m_0123456789ab accept offer:o_3`: the
 * match the button was made for, then its command; src/chat/reply.ts `boundCommand`), or `arena#<hash>` for
 * long texts.
 */
export const BUTTON_PREFIX = 'arena:';
const HASH_PREFIX = 'arena#';

const COLOR = { public: 0x5865f2, private: 0x57f287 } as const;

/** What `reply`, `editReply`, `followUp` and `channel.send` accept (API-shaped JSON). */
export interface DiscordPayload {
  content?: string;
  embeds: APIEmbed[];
  components: APIActionRowComponent<APIButtonComponent>[];
  /** 64 (MessageFlags.Ephemeral) for private posts. */
  flags?: number;
  /** Nothing is parsed for mentions; a reminder names the users it pings (`users`), and only they are notified. */
  allowedMentions: { parse: []; users?: string[] };
  /** PNG attachments (charts), added at delivery by deliver.ts {@link withCharts}. */
  files?: AttachmentBuilder[];
  /** Charts of a public post, still to render (plain data; removed when delivered). */
  charts?: ChartRequest[];
}

/**
 * Maps buttons (their match and command) to custom_ids. Short texts are carried in the id itself
 * (`arena:@m_0123456789ab accept offer:o_3`), so they survive restarts; texts over 100 characters are stored
 * here under a short hash (bounded, oldest dropped first), so those buttons only work while this process lives.
 */
export class ButtonIds {
  private readonly long = new Map<string, string>();
  constructor(private readonly capacity = 5000) {}

  /** The button custom_id of `b`: `arena:<bound command>` if it fits Discord's limit, else a remembered hash key. */
  customId(b: Pick<Button, 'matchId' | 'command'>): string {
    const command = boundCommand(b);
    const direct = `${BUTTON_PREFIX}${command}`;
    if (direct.length <= LIMITS.customId) return direct;
    const key = `${HASH_PREFIX}${createHash('sha256').update(command).digest('base64url').slice(0, 22)}`;
    this.long.delete(key);
    this.long.set(key, command);
    if (this.long.size > this.capacity) this.long.delete(this.long.keys().next().value as string);
    return key;
  }

  /** The bound command text of a custom_id (src/chat/reply.ts `unboundCommand` reads it), or null if it is not ours or has been forgotten. */
  command(customId: string): string | null {
    if (customId.startsWith(BUTTON_PREFIX)) return customId.slice(BUTTON_PREFIX.length);
    if (customId.startsWith(HASH_PREFIX)) return this.long.get(customId) ?? null;
    return null;
  }
}

const STYLE: Record<
  Button['style'],
  ButtonStyle.Primary | ButtonStyle.Secondary | ButtonStyle.Success | ButtonStyle.Danger
> = {
  primary: ButtonStyle.Primary,
  secondary: ButtonStyle.Secondary,
  success: ButtonStyle.Success,
  danger: ButtonStyle.Danger,
};

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Buttons in rows of 5 (at most 25; Discord rejects more). Duplicate custom_ids are dropped. */
export function buttonRows(buttons: readonly Button[], ids: ButtonIds): APIActionRowComponent<APIButtonComponent>[] {
  const seen = new Set<string>();
  const comps: APIButtonComponent[] = [];
  for (const b of buttons) {
    const custom_id = ids.customId(b);
    if (seen.has(custom_id)) continue;
    seen.add(custom_id);
    // Button labels are plain text on Discord: player text in one loses its markers only.
    comps.push({
      type: ComponentType.Button,
      style: STYLE[b.style],
      label: cut(plainOf(b.label).replace(/\n/g, ' ') || '—', LIMITS.label),
      custom_id,
    });
  }
  const rows: APIActionRowComponent<APIButtonComponent>[] = [];
  for (let i = 0; i < comps.length && rows.length < LIMITS.rows; i += LIMITS.buttonsPerRow) {
    rows.push({ type: ComponentType.ActionRow, components: comps.slice(i, i + LIMITS.buttonsPerRow) });
  }
  return rows;
}

/** The relative-time markup Discord shows as "in 45 seconds" (`<t:unix:R>`); `ms` since epoch. */
export function relativeTime(ms: number): string {
  return `<t:${Math.floor(ms / 1000)}:R>`;
}

/**
 * Field values Discord should show as a live clock: the round host's deadline field (an ISO time,
 * src/present/common.ts DEADLINE_FIELD) becomes "in 45 seconds (12:03:45)" in each reader's time zone.
 */
export function discordFieldValue(name: string, value: string): string {
  if (name !== DEADLINE_FIELD) return value;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? `${relativeTime(ms)} (<t:${Math.floor(ms / 1000)}:T>)` : value;
}

/**
 * A player's text as Discord shows it literally: every markdown-significant character backslash-escaped
 * (emphasis, code, spoilers, quotes, headings, lists, masked links `[..](..)`, mentions `<@..>` / `<#..>` /
 * `<t:..>`, `@everyone` / `@here`, and `:` so `https://…` is shown, not linked).
 */
export function escapeDiscord(text: string): string {
  return text.replace(/[\\`*_~|>#\-[\]()<@:.!+=]/g, '\\$&');
}

/** A post string (title, text, field) for Discord: the bot's markdown as is, player spans escaped, player blocks as `> ` quotes. */
export function discordText(s: string): string {
  return renderSpans(s, {
    bot: (t) => t,
    inline: escapeDiscord,
    block: (lines) => lines.map((l) => `> ${escapeDiscord(l)}`),
  });
}

/** One post as a Discord message; `ephemeral` adds flag 64. */
export function renderPost(post: Post, ids: ButtonIds, opts: { ephemeral?: boolean } = {}): DiscordPayload {
  const fields = (post.fields ?? []).slice(0, LIMITS.fields).map((f) => ({
    name: cut(discordText(f.name) || '—', LIMITS.fieldName),
    value: cut(discordText(discordFieldValue(f.name, f.value)) || '—', LIMITS.fieldValue),
  }));
  const title = post.title ? discordText(post.title) : '';
  const text = post.text ? discordText(post.text) : '';
  const embed: APIEmbed = {
    color: opts.ephemeral ? COLOR.private : COLOR.public,
    ...(title ? { title: cut(title.replace(/\n/g, ' '), LIMITS.title) } : {}),
    ...(text ? { description: cut(text, LIMITS.description) } : {}),
    ...(fields.length > 0 ? { fields } : {}),
  };
  // Mentions go in `content` (Discord does not notify for mentions inside embeds), each allowed by id.
  const users = opts.ephemeral ? [] : discordUserIds(post.mentions ?? []);
  return {
    ...(users.length > 0 ? { content: users.map((u) => `<@${u}>`).join(' ') } : {}),
    embeds: [embed],
    components: buttonRows(post.buttons ?? [], ids),
    ...(opts.ephemeral ? { flags: MessageFlags.Ephemeral } : {}),
    allowedMentions: users.length > 0 ? { parse: [], users } : { parse: [] },
    // Charts are public only (a private post never carries one).
    ...(!opts.ephemeral && post.charts?.length ? { charts: post.charts } : {}),
  };
}

/** The Discord user ids of platform user ids (`discord:123` → `123`); other platforms' ids are dropped. At most 100 (Discord's cap). */
export function discordUserIds(userIds: readonly string[]): string[] {
  const out = userIds.filter((u) => /^discord:\d{5,25}$/.test(u)).map((u) => u.slice('discord:'.length));
  return [...new Set(out)].slice(0, 100);
}

/** A short ephemeral notice (errors of the adapter itself, not of commands). */
export function notice(text: string): DiscordPayload {
  return {
    content: cut(text, 2000),
    embeds: [],
    components: [],
    flags: MessageFlags.Ephemeral,
    allowedMentions: { parse: [] },
  };
}
