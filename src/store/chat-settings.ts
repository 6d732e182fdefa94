/**
 * Chat settings that outlive a match (migration 0011): one text value per (scope, subject, key), e.g.
 * ('person', 'discord:123', 'reminders') = 'off' — a person who wants no reminder pings in any match — or
 * ('channel', 'C0123', 'threads') = 'off' — a channel whose matches post flat. A match's own settings are
 * events of its log (replay-safe); these are the defaults around it, read when they apply.
 *
 * Concurrency: setting is ONE upsert (`INSERT … ON CONFLICT (scope, subject, key) DO UPDATE`), clearing one
 * DELETE, reading one SELECT by primary key: the last writer wins, across processes.
 */
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { ChatSettingScope } from './types.js';

const MAX = 200;

/** The keys in use: `reminders` (person, channel: 'on' | 'off'), `threads` (channel: 'on' | 'off'). */
export const CHAT_SETTING = { reminders: 'reminders', threads: 'threads' } as const;

function check(scope: ChatSettingScope, subject: string, key: string): void {
  if (scope !== 'person' && scope !== 'channel')
    throw new TypeError(`chat setting: unknown scope ${JSON.stringify(scope)}`);
  for (const [name, v] of [
    ['subject', subject],
    ['key', key],
  ] as const) {
    if (typeof v !== 'string' || v.length === 0 || v.length > MAX)
      throw new TypeError(`chat setting: ${name} must be 1–${MAX} characters`);
  }
}

/** The stored value, or null. */
export async function chatSetting(
  db: Kysely<Database>,
  scope: ChatSettingScope,
  subject: string,
  key: string,
): Promise<string | null> {
  check(scope, subject, key);
  const row = await db
    .selectFrom('chat_settings')
    .select('value')
    .where('scope', '=', scope)
    .where('subject', '=', subject)
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.value ?? null;
}

/** Store `value` (null: forget the setting). */
export async function setChatSetting(
  db: Kysely<Database>,
  scope: ChatSettingScope,
  subject: string,
  key: string,
  value: string | null,
  now = new Date(),
): Promise<void> {
  check(scope, subject, key);
  if (value === null) {
    await db
      .deleteFrom('chat_settings')
      .where('scope', '=', scope)
      .where('subject', '=', subject)
      .where('key', '=', key)
      .execute();
    return;
  }
  if (value.length > MAX) throw new TypeError(`chat setting: value must be at most ${MAX} characters`);
  await db
    .insertInto('chat_settings')
    .values({ scope, subject, key, value, updated_at: now.toISOString() })
    .onConflict((oc) => oc.columns(['scope', 'subject', 'key']).doUpdateSet({ value, updated_at: now.toISOString() }))
    .execute();
}
