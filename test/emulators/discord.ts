/**
 * A local Discord emulator for end-to-end tests: one `http` server (REST under `/api/v10`) and a `ws`
 * gateway in `noServer` mode on the same port, so a real discord.js Client can log in with
 * `rest: { api: emulator.restApi }`. Routes and payloads follow
 * ../shared/notes/testing-without-the-internet.md. Every REST request is recorded for assertions (messages
 * with attachments arrive as multipart/form-data: their `payload_json` and files are recorded), and
 * helpers dispatch INTERACTION_CREATE for slash commands, buttons, modal submits and autocomplete.
 * With `messageRateLimit` it enforces Discord's per-channel message bucket (rate-limits.ts) and logs each decision.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { FixedWindowLimiter, discordMessageLimit, type RateRecord } from './rate-limits.js';
import { invalidFormBody, messageErrors, modalErrors, threadErrors } from './discord-limits.js';

export * from './discord-parts.js';
export { messageErrors, modalErrors } from './discord-limits.js';

const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
import {
  nextId,
  parseMultipart,
  shardOfGuild,
  type Dispatched,
  type EmulatorOptions,
  type EmulatorUser,
  type Json,
  type Place,
  type RecordedFile,
  type RecordedRequest,
} from './discord-parts.js';

/** The emulator: REST routes, the gateway, and dispatch helpers (see the file comment). */

export class DiscordEmulator {
  readonly applicationId: string;
  readonly guildId: string;
  readonly channelId: string;
  readonly botUserId: string;
  readonly roleIds: string[];
  readonly requests: RecordedRequest[] = [];
  /** Gateway IDENTIFY payloads received (to check intents). */
  readonly identifies: Json[] = [];
  /** Messages by id, as last created or edited (channel posts and interaction webhooks). */
  readonly messages = new Map<string, Json>();
  /** Registered application commands: key `guild:<id>` or `global`. */
  readonly commands = new Map<string, Json[]>();
  /** With `messageRateLimit`: every channel message POST, accepted (200) or answered 429, in arrival order. */
  readonly rateLog: RateRecord[] = [];
  private readonly messageLimiter: FixedWindowLimiter | null;
  private server: Server | null = null;
  private wss = new WebSocketServer({ noServer: true });
  private sockets = new Set<WebSocket>();
  /** Shard count reported by `/gateway/bot` (see EmulatorOptions.shards). */
  readonly shardCount: number;
  private readonly maxConcurrency: number;
  /** Guilds besides the primary one (addGuild), by id → their channel. */
  private readonly extraGuilds = new Map<string, string>();
  /** Shard `[id, count]` each gateway connection identified with. */
  private readonly socketShard = new Map<WebSocket, [number, number]>();
  /** Channel of each interaction token (webhook messages of an interaction belong to its channel). */
  private readonly tokenChannel = new Map<string, string>();
  /** Message a component interaction came from, by its token (an UPDATE_MESSAGE callback edits it). */
  private readonly tokenMessage = new Map<string, string>();
  /** Threads the bot opened (or addThread announced), by id: Discord channel objects of type 11. */
  readonly threads = new Map<string, Json>();
  /** Requests refused with 400 Invalid Form Body because they broke a documented limit (discord-limits.ts). */
  readonly refused: { request: RecordedRequest; errors: string[] }[] = [];
  private identifyWaiters: { pred: (d: Json) => boolean; resolve: () => void }[] = [];
  private seq = 0;
  private reqSeq = 0;
  private waiters: { pred: (r: RecordedRequest) => boolean; resolve: (r: RecordedRequest) => void }[] = [];
  private readonly heartbeatMs: number;
  private identified: Promise<void>;
  private markIdentified!: () => void;
  port = 0;

  constructor(opts: EmulatorOptions = {}) {
    this.applicationId = opts.applicationId ?? nextId();
    this.guildId = opts.guildId ?? nextId();
    this.channelId = opts.channelId ?? nextId();
    this.botUserId = opts.botUserId ?? this.applicationId;
    this.heartbeatMs = opts.heartbeatMs ?? 30_000;
    this.roleIds = opts.roleIds ?? [];
    this.shardCount = opts.shards ?? 1;
    this.maxConcurrency = opts.maxConcurrency ?? 1;
    this.messageLimiter = opts.messageRateLimit
      ? new FixedWindowLimiter(opts.messageRateLimit.limit, opts.messageRateLimit.windowMs)
      : null;
    this.identified = new Promise((r) => (this.markIdentified = r));
  }

  /** Base URL for discord.js `rest.api`. */
  get restApi(): string {
    return `http://127.0.0.1:${this.port}/api`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.onHttp(req, res));
    this.server.on('upgrade', (req, socket, head) => {
      this.wss.handleUpgrade(req, socket, head, (ws) => this.onSocket(ws));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    for (const ws of this.sockets) ws.terminate();
    this.wss.close();
    if (this.server) {
      this.server.closeAllConnections();
      await new Promise<void>((r) => this.server!.close(() => r()));
    }
  }

  /** Resolves once a client has identified on the gateway. */
  whenIdentified(): Promise<void> {
    return this.identified;
  }

  /** Resolves with the first recorded request (past or future) matching `pred`. */
  waitFor(pred: (r: RecordedRequest) => boolean, timeoutMs = 10_000): Promise<RecordedRequest> {
    const found = this.requests.find(pred);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('emulator: timed out waiting for a request')), timeoutMs);
      this.waiters.push({ pred, resolve: (r) => (clearTimeout(timer), resolve(r)) });
    });
  }

  /** Requests the bot made for one interaction: the callback and its webhook routes, in order. */
  forInteraction(d: Dispatched): RecordedRequest[] {
    return this.requests.filter(
      (r) =>
        r.path.startsWith(`/api/v10/interactions/${d.id}/${d.token}/`) ||
        r.path.startsWith(`/api/v10/webhooks/${this.applicationId}/${d.token}`),
    );
  }

  // ---- dispatch helpers -------------------------------------------------------------------------

  /** `/arena <sub> opt:value…` as a CHAT_INPUT command interaction. Option types follow Discord's numbers. */
  dispatchSlash(
    user: EmulatorUser,
    command: string,
    sub: string,
    options: { name: string; type: number; value: unknown }[] = [],
    at?: Place,
  ): Dispatched {
    return this.dispatchInteraction(
      user,
      2,
      { id: nextId(), name: command, type: 1, options: [{ name: sub, type: 1, options }] },
      {},
      at,
    );
  }

  /** A click on a button with `customId`, on `message` (a recorded message object, or a minimal one). */
  dispatchButton(user: EmulatorUser, customId: string, message?: Json, at?: Place): Dispatched {
    const msg = message ?? this.messageObject({ content: '', components: [] }, at?.channelId ?? this.channelId);
    return this.dispatchInteraction(user, 3, { custom_id: customId, component_type: 2 }, { message: msg }, at);
  }

  /**
   * A choice in a string select (component type 3) of `message`: `values` are the picked options' values, in the
   * order the person picked them. Refuses (throws) a custom_id the message has no select for, or a value the
   * select does not offer or more values than its max_values, as Discord's client cannot send those.
   */
  dispatchSelect(user: EmulatorUser, customId: string, values: string[], message: Json, at?: Place): Dispatched {
    const select = (arr(message.components) as Json[])
      .flatMap((r) => arr(r.components) as Json[])
      .find((c) => c.type === 3 && c.custom_id === customId);
    if (!select) throw new Error(`emulator: no select ${customId} on the message`);
    const offered = (arr(select.options) as Json[]).map((o) => o.value);
    if (values.some((v) => !offered.includes(v)))
      throw new Error(`emulator: select ${customId} does not offer ${values.join(',')}`);
    const max = (select.max_values as number | undefined) ?? 1;
    if (values.length > max || values.length < ((select.min_values as number | undefined) ?? 1))
      throw new Error(`emulator: ${values.length} values outside the select's bounds`);
    return this.dispatchInteraction(user, 3, { custom_id: customId, component_type: 3, values }, { message }, at);
  }

  /**
   * A modal submit (label-wrapped components, as current Discord clients send): a string is a text input's
   * value, an array a string select's picked values. `message`: the message whose component opened the modal
   * (Discord sends it with the submit).
   */
  dispatchModal(
    user: EmulatorUser,
    customId: string,
    fields: Record<string, string | string[]>,
    at?: Place,
    message?: Json,
  ): Dispatched {
    const components = Object.entries(fields).map(([id, value]) => ({
      type: 18,
      id: Number(nextId().slice(-6)),
      component: Array.isArray(value) ? { type: 3, custom_id: id, values: value } : { type: 4, custom_id: id, value },
    }));
    return this.dispatchInteraction(user, 5, { custom_id: customId, components }, message ? { message } : {}, at);
  }

  /** Messages in `channelId` as they are now (after edits), oldest first: what a reader of the channel sees. */
  channelMessages(channelId: string): Json[] {
    const seen = new Set<unknown>();
    const out: Json[] = [];
    for (const m of this.messages.values()) {
      if (m.channel_id !== channelId || seen.has(m.id) || ((m.flags as number | undefined) ?? 0) & 64) continue;
      seen.add(m.id);
      out.push(m);
    }
    return out.sort((a, b) => (BigInt(a.id as string) < BigInt(b.id as string) ? -1 : 1));
  }

  /** Autocomplete for `/arena <sub>` with one option focused (type 4 in the interaction). */
  dispatchAutocomplete(
    user: EmulatorUser,
    command: string,
    sub: string,
    options: { name: string; type: number; value: unknown; focused?: boolean }[],
  ): Dispatched {
    return this.dispatchInteraction(user, 4, {
      id: nextId(),
      name: command,
      type: 1,
      options: [{ name: sub, type: 1, options }],
    });
  }

  /** Send a raw INTERACTION_CREATE to every connected client (of the guild's shard); `at` default: the primary guild. */
  dispatchInteraction(user: EmulatorUser, type: number, data: Json, extra: Json = {}, at?: Place): Dispatched {
    const id = nextId();
    const token = `itok_${id}`;
    const guildId = at?.guildId ?? this.guildId;
    const channelId = at?.channelId ?? this.channelId;
    this.tokenChannel.set(token, channelId);
    const from = (extra.message as Json | undefined)?.id;
    if (typeof from === 'string') this.tokenMessage.set(token, from);
    const thread = at?.parentId ? this.threads.get(channelId) : undefined;
    const member = {
      user: this.userObject(user),
      roles: user.roles ?? [],
      joined_at: '2024-01-01T00:00:00.000Z',
      permissions: user.permissions ?? '0',
      deaf: false,
      mute: false,
      flags: 0,
      nick: null,
      avatar: null,
      premium_since: null,
      pending: false,
      communication_disabled_until: null,
    };
    this.dispatch('INTERACTION_CREATE', {
      id,
      application_id: this.applicationId,
      type,
      token,
      version: 1,
      guild_id: guildId,
      channel_id: channelId,
      channel: at?.parentId
        ? (thread ?? {
            id: channelId,
            type: 11,
            guild_id: guildId,
            name: 'arena-thread',
            parent_id: at.parentId,
            thread_metadata: {
              archived: false,
              auto_archive_duration: 1440,
              archive_timestamp: '2024-01-01T00:00:00.000Z',
              locked: false,
            },
          })
        : { id: channelId, type: 0, guild_id: guildId, name: 'arena' },
      member,
      app_permissions: '2251799813685247',
      locale: 'en-US',
      guild_locale: 'en-US',
      entitlements: [],
      authorizing_integration_owners: { '0': guildId },
      context: 0,
      data,
      ...extra,
    });
    return { id, token };
  }

  /**
   * Send one gateway dispatch (`op 0`) with an incremented sequence number: to every connection, or with
   * shards and a `guild_id`, only to the connections of that guild's shard.
   */
  dispatch(t: string, d: unknown): void {
    const frame = JSON.stringify({ op: 0, t, s: ++this.seq, d });
    const guildId = (d as { guild_id?: unknown } | null)?.guild_id;
    const shard = this.shardCount > 1 && typeof guildId === 'string' ? shardOfGuild(guildId, this.shardCount) : null;
    for (const ws of this.sockets) {
      const own = this.socketShard.get(ws);
      if (shard === null || !own || own[1] <= 1 || own[0] === shard) ws.send(frame);
    }
  }

  /** A new guild with one text channel whose id puts it on `shard` (default 0) of {@link shardCount}; announce it before clients connect. */
  addGuild(shard = 0): Place {
    let guildId = nextId();
    // Snowflakes differ in their low bits; step the timestamp part (bits 22+) until the shard matches.
    while (shardOfGuild(guildId, this.shardCount) !== shard % this.shardCount)
      guildId = (BigInt(guildId) + (1n << 22n)).toString();
    const channelId = nextId();
    this.extraGuilds.set(guildId, channelId);
    return { guildId, channelId };
  }

  /**
   * A new public thread of `parent` (default: the primary channel) in `guildId`, announced to connected
   * clients with THREAD_CREATE as Discord does for bots with the Guilds intent; interactions `at` it carry
   * the thread as their channel (type 11 with its `parent_id`).
   */
  addThread(parent = this.channelId, guildId = this.guildId): Place {
    const id = nextId();
    const metadata = {
      archived: false,
      auto_archive_duration: 1440,
      archive_timestamp: '2024-01-01T00:00:00.000Z',
      locked: false,
    };
    const thread = {
      id,
      type: 11,
      guild_id: guildId,
      parent_id: parent,
      name: 'arena-thread',
      owner_id: nextId(),
      thread_metadata: metadata,
      member_count: 1,
      message_count: 0,
    };
    this.threads.set(id, thread);
    this.dispatch('THREAD_CREATE', { ...thread, newly_created: true });
    return { guildId, channelId: id, parentId: parent };
  }

  /** Resolves once an IDENTIFY (past or future) matches `pred` (e.g. a shard id); rejects after `timeoutMs`. */
  waitForIdentify(pred: (d: Json) => boolean, timeoutMs = 30_000): Promise<void> {
    if (this.identifies.some(pred)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('emulator: timed out waiting for an IDENTIFY')), timeoutMs);
      this.identifyWaiters.push({ pred, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  // ---- REST ---------------------------------------------------------------------------------------

  private async onHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const bytes = Buffer.concat(chunks);
    const raw = bytes.toString('utf8');
    const contentType = req.headers['content-type'] ?? '';
    let body: unknown = raw;
    let files: RecordedFile[] | undefined;
    if (raw && contentType.includes('application/json')) body = JSON.parse(raw) as unknown;
    if (contentType.includes('multipart/form-data')) ({ body, files } = await parseMultipart(bytes, contentType));
    const rec: RecordedRequest = {
      seq: ++this.reqSeq,
      method: req.method ?? 'GET',
      path: decodeURIComponent(url.pathname),
      query: Object.fromEntries(url.searchParams),
      authorization: req.headers.authorization,
      body,
      ...(files ? { files } : {}),
    };
    const limits = this.messageLimiter ? discordMessageLimit(this.messageLimiter, rec, this.rateLog) : null;
    if (limits?.status === 429) return void res.writeHead(429, limits.headers).end(JSON.stringify(limits.body));
    this.requests.push(rec);
    const errors = this.limitErrors(rec);
    const [status, out] = errors.length > 0 ? [400, invalidFormBody(errors)] : this.route(rec);
    if (errors.length > 0) this.refused.push({ request: rec, errors });
    res.writeHead(status, {
      ...(limits?.headers ?? {}),
      ...(out === null ? {} : { 'content-type': 'application/json' }),
    });
    res.end(out === null ? undefined : JSON.stringify(out));
    this.waiters = this.waiters.filter((w) => (w.pred(rec) ? (w.resolve(rec), false) : true));
  }

  private route(r: RecordedRequest): [number, unknown] {
    const p = r.path.replace(/^\/api\/v\d+/, '');
    const m = (re: RegExp) => re.exec(p);
    // A message with files: its attachments as Discord returns them (ids, sizes, CDN-like urls on this emulator).
    const msgBody = (
      r.files
        ? {
            ...(r.body as Json),
            attachments: r.files.map((f) => ({
              id: nextId(),
              filename: f.name,
              size: f.data.length,
              content_type: f.contentType,
              url: `http://127.0.0.1:${this.port}/attachments/${f.name}`,
              proxy_url: `http://127.0.0.1:${this.port}/attachments/${f.name}`,
            })),
          }
        : r.body
    ) as Json;
    let g: RegExpExecArray | null;
    if (r.method === 'GET' && (p === '/gateway/bot' || p === '/gateway')) {
      return [
        200,
        {
          url: `ws://127.0.0.1:${this.port}`,
          shards: this.shardCount,
          session_start_limit: { total: 1000, remaining: 999, reset_after: 0, max_concurrency: this.maxConcurrency },
        },
      ];
    }
    if (r.method === 'PUT' && (g = m(/^\/applications\/(\d+)\/guilds\/(\d+)\/commands$/)))
      return [200, this.putCommands(`guild:${g[2]}`, r.body, g[2])];
    if (r.method === 'PUT' && (g = m(/^\/applications\/(\d+)\/commands$/)))
      return [200, this.putCommands('global', r.body)];
    if (r.method === 'POST' && (g = m(/^\/interactions\/\d+\/([^/]+)\/callback$/))) {
      this.recordOriginal(g[1]!, r.body as { type?: number; data?: Json });
      this.recordUpdate(g[1]!, r.body as { type?: number; data?: Json });
      return r.query.with_response === 'true' ? [200, { interaction: { id: '0', type: 0 } }] : [204, null];
    }
    if ((g = m(/^\/webhooks\/\d+\/([^/]+)\/messages\/([^/]+)$/))) {
      const key = `${g[1]}/${g[2]}`;
      if (r.method === 'GET')
        return this.messages.has(key)
          ? [200, this.messages.get(key)]
          : [404, { message: 'Unknown Message', code: 10008 }];
      if (r.method === 'DELETE') {
        const gone = this.messages.get(key);
        this.messages.delete(key);
        if (gone) this.messages.delete(gone.id as string);
        return [204, null];
      }
      const prev = this.messages.get(key);
      const msg = this.messageObject(
        { ...(prev ?? {}), ...msgBody },
        this.tokenChannel.get(g[1]!) ?? this.channelId,
        (prev?.id as string | undefined) ?? nextId(),
      );
      this.messages.set(key, msg);
      this.messages.set(msg.id as string, msg);
      return [200, msg];
    }
    if (r.method === 'POST' && (g = m(/^\/webhooks\/\d+\/([^/]+)$/))) {
      const msg = this.messageObject(msgBody, this.tokenChannel.get(g[1]!) ?? this.channelId);
      this.messages.set(msg.id as string, msg);
      this.messages.set(`${g[1]}/${msg.id as string}`, msg);
      return [200, msg];
    }
    if (r.method === 'POST' && (g = m(/^\/channels\/(\d+)\/messages$/))) {
      // A message in an archived thread that is not locked reopens it (resources/channel#thread-metadata-object).
      const thread = this.threads.get(g[1]!);
      const meta = thread?.thread_metadata as Json | undefined;
      if (meta?.locked) return [403, { message: 'Thread is locked', code: 50083 }];
      if (thread && meta?.archived) this.setThread(g[1]!, { archived: false });
      const msg = this.messageObject(msgBody, g[1]!);
      this.messages.set(msg.id as string, msg);
      return [200, msg];
    }
    if (r.method === 'PATCH' && (g = m(/^\/channels\/(\d+)\/messages\/(\d+)$/))) {
      const prev = this.messages.get(g[2]!);
      if (!prev || prev.channel_id !== g[1]) return [404, { message: 'Unknown Message', code: 10008 }];
      const msg = {
        ...prev,
        ...(msgBody as Json),
        id: prev.id,
        channel_id: prev.channel_id,
        edited_timestamp: new Date().toISOString(),
      };
      this.messages.set(g[2]!, msg);
      return [200, msg];
    }
    if (r.method === 'POST' && (g = m(/^\/channels\/(\d+)\/messages\/(\d+)\/threads$/)))
      return this.startThread(g[1]!, g[2]!, r.body as Json);
    if (r.method === 'PATCH' && (g = m(/^\/channels\/(\d+)$/))) {
      if (!this.threads.has(g[1]!)) return [403, { message: 'Missing Permissions', code: 50013 }];
      const b = r.body as Json;
      return [
        200,
        this.setThread(g[1]!, {
          ...(typeof b.archived === 'boolean' ? { archived: b.archived } : {}),
          ...(typeof b.locked === 'boolean' ? { locked: b.locked } : {}),
        }),
      ];
    }
    if (r.method === 'GET' && (g = m(/^\/channels\/(\d+)$/)))
      return [200, this.threads.get(g[1]!) ?? this.channelObject(g[1]!)];
    return [404, { message: '404: Not Found', code: 0 }];
  }

  /** Refusals by Discord's documented limits (discord-limits.ts) of the payloads a request carries. */
  private limitErrors(r: RecordedRequest): string[] {
    const p = r.path.replace(/^\/api\/v\d+/, '');
    if (/\/callback$/.test(p)) {
      const cb = (r.body ?? {}) as { type?: number; data?: Json };
      if (cb.type === 9) return modalErrors(cb.data);
      return cb.type === 4 || cb.type === 7 ? messageErrors(cb.data) : [];
    }
    if (/\/threads$/.test(p)) return threadErrors(r.body);
    const message = /^\/channels\/\d+\/messages(\/\d+)?$/.test(p) || /^\/webhooks\//.test(p);
    return message && (r.method === 'POST' || r.method === 'PATCH') ? messageErrors(r.body) : [];
  }

  /** A thread on message `messageId` of `parentId`: its id is the message's, as Discord makes it. */
  private startThread(parentId: string, messageId: string, body: Json): [number, unknown] {
    const starter = this.messages.get(messageId);
    if (!starter || starter.channel_id !== parentId) return [404, { message: 'Unknown Message', code: 10008 }];
    if (this.threads.has(messageId))
      return [400, { message: 'A thread has already been created for this message', code: 160004 }];
    const guildId = [...this.extraGuilds].find(([, c]) => c === parentId)?.[0] ?? this.guildId;
    const metadata = {
      archived: false,
      auto_archive_duration: (body.auto_archive_duration as number | undefined) ?? 4320,
      archive_timestamp: new Date().toISOString(),
      locked: false,
      create_timestamp: new Date().toISOString(),
    };
    const thread = {
      id: messageId,
      type: 11,
      guild_id: guildId,
      parent_id: parentId,
      name: body.name,
      owner_id: this.botUserId,
      thread_metadata: metadata,
      member_count: 1,
      message_count: 0,
      rate_limit_per_user: 0,
      flags: 0,
    };
    this.threads.set(messageId, thread);
    this.messages.set(messageId, { ...starter, thread, flags: ((starter.flags as number | undefined) ?? 0) | 32 });
    this.dispatch('THREAD_CREATE', { ...thread, newly_created: true });
    return [201, thread];
  }

  /** Change a thread's metadata (archived, locked) and tell the clients (THREAD_UPDATE). */
  private setThread(id: string, change: { archived?: boolean; locked?: boolean }): Json {
    const cur = this.threads.get(id)!;
    const meta = {
      ...(cur.thread_metadata as Json),
      ...change,
      ...(change.archived !== undefined ? { archive_timestamp: new Date().toISOString() } : {}),
    };
    const next = { ...cur, thread_metadata: meta };
    this.threads.set(id, next);
    this.dispatch('THREAD_UPDATE', next);
    return next;
  }

  /** An UPDATE_MESSAGE callback (type 7) edits the message its component was on. */
  private recordUpdate(token: string, cb: { type?: number; data?: Json }): void {
    const id = this.tokenMessage.get(token);
    if (cb.type !== 7 || !id) return;
    const prev = this.messages.get(id) ?? this.messageObject({}, this.tokenChannel.get(token) ?? this.channelId, id);
    this.messages.set(id, { ...prev, ...(cb.data ?? {}), id, edited_timestamp: new Date().toISOString() });
  }

  /** A reply (type 4) or defer (type 5) creates the interaction's original message. */
  private recordOriginal(token: string, cb: { type?: number; data?: Json }): void {
    if (cb.type !== 4 && cb.type !== 5) return;
    const msg = this.messageObject(
      cb.type === 4 ? (cb.data ?? {}) : { flags: ((cb.data?.flags as number | undefined) ?? 0) | 128 },
      this.tokenChannel.get(token) ?? this.channelId,
    );
    this.messages.set(`${token}/@original`, msg);
    this.messages.set(msg.id as string, msg);
  }

  private putCommands(key: string, body: unknown, guildId?: string): Json[] {
    const list = (Array.isArray(body) ? body : []) as Json[];
    const out = list.map((c) => ({
      id: nextId(),
      application_id: this.applicationId,
      version: nextId(),
      type: 1,
      ...(guildId ? { guild_id: guildId } : {}),
      ...c,
    }));
    this.commands.set(key, out);
    return out;
  }

  /** A full message object as Discord returns it. */
  messageObject(body: Json, channelId: string, id = nextId()): Json {
    return {
      type: 0,
      content: '',
      embeds: [],
      components: [],
      attachments: [],
      mentions: [],
      mention_roles: [],
      mention_everyone: false,
      pinned: false,
      tts: false,
      flags: 0,
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      ...body,
      id,
      channel_id: channelId,
      author: {
        id: this.botUserId,
        username: 'arena-bot',
        discriminator: '0',
        bot: true,
        avatar: null,
        global_name: null,
      },
    };
  }

  private userObject(u: EmulatorUser): Json {
    return { id: u.id, username: u.username, discriminator: '0', global_name: u.username, avatar: null, bot: false };
  }

  private channelObject(id: string): Json {
    const guildId = [...this.extraGuilds].find(([, c]) => c === id)?.[0] ?? this.guildId;
    return {
      id,
      type: 0,
      guild_id: guildId,
      name: 'arena',
      position: 0,
      permission_overwrites: [],
      nsfw: false,
      parent_id: null,
      topic: null,
      last_message_id: null,
      rate_limit_per_user: 0,
    };
  }

  // ---- gateway ------------------------------------------------------------------------------------

  private onSocket(ws: WebSocket): void {
    this.sockets.add(ws);
    ws.on('close', () => (this.sockets.delete(ws), this.socketShard.delete(ws)));
    ws.send(JSON.stringify({ op: 10, d: { heartbeat_interval: this.heartbeatMs } }));
    ws.on('message', (raw) => {
      const msg = JSON.parse(String(raw)) as { op: number; d: Json };
      if (msg.op === 1) ws.send(JSON.stringify({ op: 11 }));
      if (msg.op === 2) this.onIdentify(ws, msg.d);
    });
  }

  private onIdentify(ws: WebSocket, d: Json): void {
    this.identifies.push(d);
    const send = (t: string, data: unknown) => ws.send(JSON.stringify({ op: 0, t, s: ++this.seq, d: data }));
    const asked =
      Array.isArray(d.shard) && d.shard.length === 2 && d.shard.every((x) => Number.isInteger(x))
        ? (d.shard as [number, number])
        : null;
    const shard: [number, number] = asked ?? [0, 1];
    this.socketShard.set(ws, shard);
    // This connection's guilds: all of them without sharding, else those of its shard.
    const places: Place[] = [
      { guildId: this.guildId, channelId: this.channelId },
      ...[...this.extraGuilds].map(([guildId, channelId]) => ({ guildId, channelId })),
    ];
    const mine = shard[1] <= 1 ? places : places.filter((p) => shardOfGuild(p.guildId, shard[1]) === shard[0]);
    send('READY', {
      v: 10,
      user: {
        id: this.botUserId,
        username: 'arena-bot',
        discriminator: '0',
        bot: true,
        avatar: null,
        global_name: null,
      },
      guilds: mine.map((p) => ({ id: p.guildId, unavailable: true })),
      session_id: `sess_${nextId()}`,
      resume_gateway_url: `ws://127.0.0.1:${this.port}`,
      shard,
      application: { id: this.applicationId, flags: 0 },
    });
    for (const p of mine) send('GUILD_CREATE', this.guildObject(p));
    this.markIdentified();
    this.identifyWaiters = this.identifyWaiters.filter((w) => (w.pred(d) ? (w.resolve(), false) : true));
  }

  private guildObject(place: Place = { guildId: this.guildId, channelId: this.channelId }): Json {
    return {
      id: place.guildId,
      name: 'Arena Test Guild',
      icon: null,
      owner_id: nextId(),
      unavailable: false,
      member_count: 1,
      large: false,
      joined_at: '2024-01-01T00:00:00.000Z',
      features: [],
      roles: [place.guildId, ...this.roleIds].map((id, i) => ({
        id,
        name: i === 0 ? '@everyone' : `role-${i}`,
        permissions: '0',
        position: i,
        color: 0,
        hoist: false,
        managed: false,
        mentionable: false,
        flags: 0,
      })),
      channels: [this.channelObject(place.channelId)],
      members: [
        {
          user: { id: this.botUserId, username: 'arena-bot', discriminator: '0', bot: true, avatar: null },
          roles: [],
          joined_at: '2024-01-01T00:00:00.000Z',
          deaf: false,
          mute: false,
          flags: 0,
        },
      ],
      emojis: [],
      stickers: [],
      threads: [],
      voice_states: [],
      presences: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
    };
  }
}
