/**
 * Shapes and small helpers of the Discord emulator (discord.ts): recorded requests and files, users,
 * options, places and shards, multipart parsing and snowflake ids.
 */
/** One REST request as the bot sent it. `path` is percent-decoded (`@original`, not `%40original`). */
export interface RecordedRequest {
  seq: number;
  method: string;
  path: string;
  query: Record<string, string>;
  authorization: string | undefined;
  /** JSON body; for multipart/form-data messages (with attachments) the parsed `payload_json`. */
  body: unknown;
  /** Files of a multipart/form-data message (`files[n]` parts), in order. */
  files?: RecordedFile[];
}

/** One file part of a multipart message. */
export interface RecordedFile {
  field: string;
  name: string;
  contentType: string;
  data: Buffer;
}

export interface EmulatorUser {
  id: string;
  username: string;
  /** Guild roles of the member (ids). */
  roles?: string[];
  /** Permission bit field of the member in the channel, as a decimal string (default: none). */
  permissions?: string;
}

export interface EmulatorOptions {
  applicationId?: string;
  guildId?: string;
  channelId?: string;
  botUserId?: string;
  heartbeatMs?: number;
  /** Extra guild roles (ids) sent in GUILD_CREATE, e.g. an admin role. */
  roleIds?: string[];
  /**
   * Shard count `GET /gateway/bot` recommends (default 1). With more than 1, a client identifying with
   * `shard: [i, n]` gets READY/GUILD_CREATE for the guilds on shard i only, and each dispatch with a
   * `guild_id` goes only to the connections of the guild's shard, `(guild_id >> 22) % n` (Discord's rule).
   */
  shards?: number;
  /** `session_start_limit.max_concurrency` of `GET /gateway/bot` (default 1). */
  maxConcurrency?: number;
  /**
   * Enforce a per-channel bucket on `POST /channels/:id/messages` (off by default), e.g. Discord's
   * 5 messages per 5 s: X-RateLimit-* headers on every response of the route, 429 + `retry_after` beyond it
   * (the request is then not processed nor kept in `requests`). Every decision goes to `rateLog`.
   */
  messageRateLimit?: { limit: number; windowMs: number };
}

/** A guild and its one text channel (the emulator's own, or one added with {@link DiscordEmulator.addGuild}). */
export interface Place {
  guildId: string;
  channelId: string;
  /** Set for a thread: the text channel it belongs to (the interaction's channel is then a public thread, type 11). */
  parentId?: string;
}

/** The shard of a guild with `shards` shards: `(guild_id >> 22) % shards`, as Discord routes it. */
export function shardOfGuild(guildId: string, shards: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(shards));
}

/** What a dispatch returns: ids to find the bot's answers with {@link DiscordEmulator.forInteraction}. */
export interface Dispatched {
  id: string;
  token: string;
}

export type Json = Record<string, unknown>;

/**
 * A multipart/form-data message as discord.js sends messages with attachments: the JSON payload in
 * `payload_json` (or, for interaction callbacks, the same) and each file as a `files[n]` part. Parsed with
 * the platform's own multipart parser (undici's Response.formData).
 */
export async function parseMultipart(
  bytes: Buffer,
  contentType: string,
): Promise<{ body: unknown; files: RecordedFile[] }> {
  const form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
  let body: unknown = {};
  const files: RecordedFile[] = [];
  for (const [field, value] of form.entries()) {
    if (typeof value === 'string') {
      if (field === 'payload_json') body = JSON.parse(value) as unknown;
    } else {
      files.push({ field, name: value.name, contentType: value.type, data: Buffer.from(await value.arrayBuffer()) });
    }
  }
  return { body, files };
}

let snowflake = 1_200_000_000_000_000_000n;
/** Unique, increasing snowflake-like ids. */
export function nextId(): string {
  snowflake += 1n;
  return snowflake.toString();
}
