/**
 * Reply → Discord message payloads. A {@link Post} becomes one message with one embed (title, text,
 * fields) and its buttons in action rows; a private post is the same with `flags: 64` (ephemeral;
 * never the deprecated `ephemeral: true`). Mentions are never parsed, so text written by players
 * (pitches, messages) cannot ping anyone.
 */
import { createHash } from 'node:crypto';
import { ButtonStyle, ComponentType, MessageFlags, type APIActionRowComponent, type APIButtonComponent, type APIEmbed, type AttachmentBuilder } from 'discord.js';
import type { ChartRequest } from '../../chat/types.js';
import type { Button, Post } from '../../commands/types.js';
import { DEADLINE_FIELD } from '../../present/common.js';

/** Discord limits for embeds and components. */
const LIMITS = { title: 256, description: 4096, fields: 25, fieldName: 256, fieldValue: 1024, buttonsPerRow: 5, rows: 5, label: 80, customId: 100 } as const;

/** Prefix of every button custom_id: `arena:<command text>`, or `arena#<hash>` for long texts. */
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
  allowedMentions: { parse: [] };
  /** PNG attachments (charts), added at delivery by deliver.ts {@link withCharts}. */
  files?: AttachmentBuilder[];
  /** Charts of a public post, still to render (plain data; removed when delivered). */
  charts?: ChartRequest[];
}

/**
 * Maps command texts to button custom_ids. Short texts are carried in the id itself (`arena:accept
 * offer:o_3`), so they survive restarts; texts over 100 characters are stored here under a short hash
 * (bounded, oldest dropped first), so those buttons only work while this process lives.
 */
export class ButtonIds {
  private readonly long = new Map<string, string>();
  constructor(private readonly capacity = 5000) {}

  /** The button custom_id for `command`: `arena:<command>` if it fits Discord's limit, else a remembered hash key. */
  customId(command: string): string {
    const direct = `${BUTTON_PREFIX}${command}`;
    if (direct.length <= LIMITS.customId) return direct;
    const key = `${HASH_PREFIX}${createHash('sha256').update(command).digest('base64url').slice(0, 22)}`;
    this.long.delete(key);
    this.long.set(key, command);
    if (this.long.size > this.capacity) this.long.delete(this.long.keys().next().value as string);
    return key;
  }

  /** The command text of a custom_id, or null if it is not ours or has been forgotten. */
  command(customId: string): string | null {
    if (customId.startsWith(BUTTON_PREFIX)) return customId.slice(BUTTON_PREFIX.length);
    if (customId.startsWith(HASH_PREFIX)) return this.long.get(customId) ?? null;
    return null;
  }
}

const STYLE: Record<Button['style'], ButtonStyle.Primary | ButtonStyle.Secondary | ButtonStyle.Success | ButtonStyle.Danger> = {
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
    const custom_id = ids.customId(b.command);
    if (seen.has(custom_id)) continue;
    seen.add(custom_id);
    comps.push({ type: ComponentType.Button, style: STYLE[b.style], label: cut(b.label, LIMITS.label), custom_id });
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

/** One post as a Discord message; `ephemeral` adds flag 64. */
export function renderPost(post: Post, ids: ButtonIds, opts: { ephemeral?: boolean } = {}): DiscordPayload {
  const fields = (post.fields ?? []).slice(0, LIMITS.fields).map((f) => ({
    name: cut(f.name || '—', LIMITS.fieldName),
    value: cut(discordFieldValue(f.name, f.value) || '—', LIMITS.fieldValue),
  }));
  const embed: APIEmbed = {
    color: opts.ephemeral ? COLOR.private : COLOR.public,
    ...(post.title ? { title: cut(post.title, LIMITS.title) } : {}),
    ...(post.text ? { description: cut(post.text, LIMITS.description) } : {}),
    ...(fields.length > 0 ? { fields } : {}),
  };
  return {
    embeds: [embed],
    components: buttonRows(post.buttons ?? [], ids),
    ...(opts.ephemeral ? { flags: MessageFlags.Ephemeral } : {}),
    allowedMentions: { parse: [] },
    // Charts are public only (a private post never carries one).
    ...(!opts.ephemeral && post.charts?.length ? { charts: post.charts } : {}),
  };
}

/** A short ephemeral notice (errors of the adapter itself, not of commands). */
export function notice(text: string): DiscordPayload {
  return { content: cut(text, 2000), embeds: [], components: [], flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } };
}
