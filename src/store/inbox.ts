/**
 * The private inbox (migrations 0005, 0007): posts held for one person in one channel until their next
 * interaction there, kept in the store so that any bot process serves any person and a restart loses nothing
 * (Discord's "My private update": a post for someone other than the caller cannot be ephemeral in the
 * caller's interaction). Keyed by person AND channel: a person in matches in two channels sees each
 * channel's private posts (and their buttons) only in that channel. The store keeps each post as opaque
 * JSON; the adapter that reads it back parses it with its own schema.
 *
 * Concurrency: taking is ONE `DELETE … WHERE user_id = ? AND channel_id = ? RETURNING …`, so of two
 * processes taking one person's inbox at once each held post goes to exactly one of them (PostgreSQL
 * re-checks a row a concurrent delete removed and skips it; SQLite has one writer). A post added while
 * another process takes is either in that take or waits for the next one. Adding is one multi-row INSERT,
 * then a bounded trim.
 *
 * Bounds: at most `keep` posts per person and channel (default {@link INBOX_KEEP_PER_USER}; the oldest go
 * first) and none older than `ttlMs` (default {@link INBOX_TTL_MS}): every add deletes expired posts of
 * everyone, and a take never returns one.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Posts kept per person and channel (the newest); as many as the in-memory inbox keeps. */
export const INBOX_KEEP_PER_USER = 10;
/** A held post older than this (ms) is dropped: 24 h (the seat's current state is always `/arena me`). */
export const INBOX_TTL_MS = 24 * 3600 * 1000;

/** Options of {@link inboxAdd} / {@link inboxTake}; `now` is for tests. */
export interface InboxOptions {
  keep?: number;
  ttlMs?: number;
  now?: Date;
}

/** Process-local counter: posts added by one call (and by one process within a millisecond) keep their order. */
let counter = 0;

/** A key that sorts by time, then by the order of adds in this process: `<ISO time>/<counter>`. */
function sortKey(now: Date): string {
  counter = (counter + 1) % 1_000_000;
  return `${now.toISOString()}/${String(counter).padStart(6, '0')}`;
}

function checkKey(userId: string, channelId: string): void {
  if (typeof userId !== 'string' || userId.length === 0 || userId.length > 200)
    throw new TypeError(`inbox: bad user id ${JSON.stringify(userId)}`);
  if (typeof channelId !== 'string' || channelId.length === 0 || channelId.length > 200)
    throw new TypeError(`inbox: bad channel id ${JSON.stringify(channelId)}`);
}

/**
 * Hold `bodies` (JSON-serialisable values, in order) for `userId` in `channelId`; then trim that inbox to the
 * newest `keep` and drop everyone's posts older than `ttlMs`.
 * @throws {TypeError} when `userId` or `channelId` is empty or longer than 200 characters, or a body is not
 *   JSON-serialisable.
 */
export async function inboxAdd(
  db: Kysely<Database>,
  userId: string,
  channelId: string,
  bodies: readonly unknown[],
  opts: InboxOptions = {},
): Promise<void> {
  checkKey(userId, channelId);
  if (bodies.length === 0) return;
  const now = opts.now ?? new Date();
  const keep = Math.max(1, opts.keep ?? INBOX_KEEP_PER_USER);
  const rows = bodies.slice(-keep).map((b) => {
    const body = JSON.stringify(b);
    if (typeof body !== 'string') throw new TypeError('inbox: a post is not JSON-serialisable');
    return {
      id: randomUUID(),
      user_id: userId,
      channel_id: channelId,
      sort_key: sortKey(now),
      created_at: now.toISOString(),
      body,
    };
  });
  await db.insertInto('private_inbox').values(rows).execute();
  // Newest `keep` of this person in this channel stay; a concurrent add may trim too, which keeps the same newest rows.
  await db
    .deleteFrom('private_inbox')
    .where('user_id', '=', userId)
    .where('channel_id', '=', channelId)
    .where('id', 'not in', (eb) =>
      eb
        .selectFrom('private_inbox')
        .select('id')
        .where('user_id', '=', userId)
        .where('channel_id', '=', channelId)
        .orderBy('sort_key', 'desc')
        .orderBy('id', 'desc')
        .limit(keep),
    )
    .execute();
  const cutoff = new Date(now.getTime() - (opts.ttlMs ?? INBOX_TTL_MS)).toISOString();
  await db.deleteFrom('private_inbox').where('created_at', '<', cutoff).execute();
}

/**
 * Remove and return every post held for `userId` in `channelId`, oldest first (parsed from JSON; not
 * validated: the caller parses them with its schema). Posts older than `ttlMs` are removed but not returned;
 * posts of other channels stay.
 * @throws {TypeError} when `userId` or `channelId` is empty or longer than 200 characters.
 */
export async function inboxTake(
  db: Kysely<Database>,
  userId: string,
  channelId: string,
  opts: InboxOptions = {},
): Promise<unknown[]> {
  checkKey(userId, channelId);
  const rows = await db
    .deleteFrom('private_inbox')
    .where('user_id', '=', userId)
    .where('channel_id', '=', channelId)
    .returning(['id', 'sort_key', 'created_at', 'body'])
    .execute();
  const cutoff = new Date((opts.now ?? new Date()).getTime() - (opts.ttlMs ?? INBOX_TTL_MS)).toISOString();
  // RETURNING gives no order (SQLite says so): sort as added.
  rows.sort((a, b) => (a.sort_key < b.sort_key ? -1 : a.sort_key > b.sort_key ? 1 : a.id < b.id ? -1 : 1));
  const out: unknown[] = [];
  for (const r of rows) {
    if (r.created_at < cutoff) continue;
    try {
      out.push(JSON.parse(r.body) as unknown);
    } catch {
      // A row that is not JSON cannot be shown; it is gone with the take (the adapter's schema would drop it too).
    }
  }
  return out;
}
