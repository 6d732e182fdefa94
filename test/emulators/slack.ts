/**
 * A local Slack emulator for end-to-end tests of the real Bolt App (routes and payloads follow
 * ../shared/notes/testing-without-the-internet.md):
 * - Web API under `/api/<method>` (WebClient `slackApiUrl: emulator.apiUrl`): auth.test, chat.postMessage
 *   (in a channel or, with `thread_ts`, in a thread), views.publish (App Home), chat.update (an edit of a message the bot posted,
 *   api.slack.com/methods/chat.update: `message_not_found` otherwise), chat.postEphemeral, views.open, apps.connections.open, files.getUploadURLExternal and
 *   files.completeUploadExternal (form-encoded bodies; `blocks` / `view` / `files` JSON strings are parsed for
 *   assertions);
 * - the upload URLs it hands out (`/upload/<file id>`, recorded as method `upload` with the raw bytes);
 * - response_url endpoints `/response/<id>`;
 * - a Socket Mode link (`ws://…/link`) that says hello and pushes envelopes.
 * Every request is recorded with its arrival time (ms, `Date.now()`). Builders make signed slash commands,
 * block_actions and view_submissions for the app's `/slack/events`, or Socket Mode envelopes.
 * With `postMessageRate` it paces chat.postMessage per channel as Slack does (rate-limits.ts), answering 429.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { PacedLimiter, type RateRecord } from './rate-limits.js';

type Json = Record<string, unknown>;

/** One request the bot made. `method` is the Web API method, or `response_url`. */
export interface RecordedRequest {
  seq: number;
  /** Arrival time, ms since epoch. */
  at: number;
  method: string;
  path: string;
  authorization: string | undefined;
  /** Parsed body; `blocks`, `view`, `attachments` and `files` form fields are parsed from JSON. */
  body: Json;
  /** The raw bytes of a file upload (method `upload`, the URL files.getUploadURLExternal returned). */
  raw?: Buffer;
}

export interface SlackUser {
  id: string;
  name: string;
}

/** A request built for the app: the exact bytes to send, and the ids to find the bot's answers. */
export interface BuiltRequest {
  kind: 'slash_commands' | 'interactive' | 'events_api';
  /** The body as sent over HTTP (form-encoded). */
  rawBody: string;
  /** The payload object (what a Socket Mode envelope carries). */
  payload: Json;
  triggerId: string;
  /** Id of this request's response_url (`/response/<id>`), or null. */
  responseId: string | null;
}

/** Where the app listens and the secret it verifies with. */
export interface AppTarget {
  url: string;
  signingSecret: string;
}

/** Slack's request signature: `v0=` + hex HMAC-SHA256(secret, `v0:<ts>:<body>`). */
export function signature(secret: string, timestamp: number, rawBody: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${rawBody}`).digest('hex')}`;
}

/**
 * POSTs a built request to the app, signed (or signed with `wrongSecret`). `retryNum` adds
 * `x-slack-retry-num` / `x-slack-retry-reason` as Slack does on a retry.
 */
export async function sendSigned(
  target: AppTarget,
  req: BuiltRequest,
  opts: { retryNum?: number; wrongSecret?: string } = {},
): Promise<{ status: number; body: string; ms: number }> {
  const ts = Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    // The Events API posts JSON; slash commands and interactions are form-encoded.
    'content-type': req.kind === 'events_api' ? 'application/json' : 'application/x-www-form-urlencoded',
    'x-slack-request-timestamp': String(ts),
    'x-slack-signature': signature(opts.wrongSecret ?? target.signingSecret, ts, req.rawBody),
  };
  if (opts.retryNum !== undefined) {
    headers['x-slack-retry-num'] = String(opts.retryNum);
    headers['x-slack-retry-reason'] = 'http_timeout';
  }
  const started = Date.now();
  const res = await fetch(target.url, { method: 'POST', headers, body: req.rawBody });
  return { status: res.status, body: await res.text(), ms: Date.now() - started };
}

const JSON_FIELDS = ['blocks', 'view', 'attachments', 'files'];

function parseBody(raw: string, contentType: string | undefined): Json {
  if (raw === '') return {};
  if (contentType?.includes('application/json')) return JSON.parse(raw) as Json;
  const out: Json = {};
  for (const [k, v] of new URLSearchParams(raw)) {
    out[k] = JSON_FIELDS.includes(k) ? (JSON.parse(v) as unknown) : v;
  }
  return out;
}

/** The file bytes of an upload: the body itself, or the file part of a multipart/form-data body (as WebClient sends it). */
async function uploadedBytes(bytes: Buffer, contentType: string | undefined): Promise<Buffer> {
  if (!contentType?.includes('multipart/form-data')) return bytes;
  const form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
  for (const value of form.values()) if (typeof value !== 'string') return Buffer.from(await value.arrayBuffer());
  return Buffer.alloc(0);
}

/** Options of {@link SlackEmulator}. */
export interface SlackEmulatorOptions {
  /**
   * Enforce chat.postMessage pacing per channel (off by default), e.g. Slack's 1 message/s:
   * `{ intervalMs: 1000, toleranceMs }` (see PacedLimiter). A post beyond it is answered HTTP 429 with
   * `Retry-After` (whole seconds, as Slack sends; @slack/web-api waits and retries) and
   * `{ok:false, error:'ratelimited'}`, and is not kept in `requests`. Every decision goes to `rateLog`.
   */
  postMessageRate?: { intervalMs: number; toleranceMs?: number };
}

let counter = 0;
const nextId = (prefix: string) =>
  `${prefix}${Date.now().toString(36)}${(++counter).toString(36)}${randomBytes(3).toString('hex')}`.toUpperCase();

export class SlackEmulator {
  readonly teamId = 'T0EMU';
  readonly appId = 'A0EMU';
  readonly botUserId = 'U0BOT';
  readonly requests: RecordedRequest[] = [];
  /** Messages the bot posted (chat.postMessage), by `ts`, as edited since (chat.update). */
  readonly posted = new Map<string, Json>();
  /** Socket Mode acks received: envelope_id → the ack's payload. */
  readonly acks = new Map<string, Json>();
  /** Status code answered on response_urls (set to e.g. 404 to test the fallback). */
  responseStatus = 200;
  port = 0;
  private server: Server | null = null;
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly sockets = new Set<WebSocket>();
  private ackWaiters = new Map<string, (payload: Json) => void>();
  private waiters: { pred: (r: RecordedRequest) => boolean; resolve: (r: RecordedRequest) => void }[] = [];
  private seq = 0;
  private connected: Promise<void>;
  private markConnected!: () => void;
  /** With `postMessageRate`: every chat.postMessage, accepted (200) or answered 429, in arrival order. */
  readonly rateLog: RateRecord[] = [];
  private readonly postLimiter: PacedLimiter | null;

  constructor(opts: SlackEmulatorOptions = {}) {
    this.connected = new Promise((r) => (this.markConnected = r));
    const rate = opts.postMessageRate;
    this.postLimiter = rate ? new PacedLimiter(rate.intervalMs, rate.toleranceMs ?? 0) : null;
  }

  /** The Web API base for WebClient `slackApiUrl`. */
  get apiUrl(): string {
    return `http://127.0.0.1:${this.port}/api/`;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('upgrade', (req, socket, head) => {
      if (!req.url?.startsWith('/link')) return void socket.destroy();
      this.wss.handleUpgrade(req, socket, head, (ws) => this.onSocket(ws));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    for (const ws of this.sockets) ws.terminate();
    this.wss.close();
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  /**
   * The channel's messages as a reader sees them now (after chat.update), oldest first: top-level ones, or
   * with `threadTs` the replies in that message's thread.
   */
  channelMessages(channel: string, threadTs?: string): Json[] {
    return [...this.posted.values()]
      .filter((m) => m['channel'] === channel && m['thread_ts'] === threadTs)
      .sort((a, b) => Number(a['ts']) - Number(b['ts']));
  }

  /** Recorded calls of one Web API method (or `response_url`). */
  calls(method: string): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method);
  }

  /** What the bot POSTed to one request's response_url. */
  responses(responseId: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === `/response/${responseId}`);
  }

  /**
   * Resolves with the first recorded request (already or later) matching `pred`; rejects after
   * `timeoutMs` (default 10 s: only a request that never comes should reach it, even on a loaded machine).
   */
  waitFor(pred: (r: RecordedRequest) => boolean, timeoutMs = 10_000): Promise<RecordedRequest> {
    const found = this.requests.find(pred);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const w = { pred, resolve: (r: RecordedRequest) => (clearTimeout(t), resolve(r)) };
      const t = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        reject(new Error(`slack emulator: no matching request within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(w);
    });
  }

  /** A slash command `/arena <text>` from `user` in `channel`. */
  slashCommand(user: SlackUser, channel: string, text: string, command = '/arena'): BuiltRequest {
    const triggerId = nextId('TR');
    const responseId = nextId('R');
    const payload = {
      token: 'legacy-verification-token',
      team_id: this.teamId,
      team_domain: 'emu',
      channel_id: channel,
      channel_name: 'arena',
      user_id: user.id,
      user_name: user.name,
      command,
      text,
      api_app_id: this.appId,
      is_enterprise_install: 'false',
      response_url: this.responseUrl(responseId),
      trigger_id: triggerId,
    };
    return { kind: 'slash_commands', rawBody: new URLSearchParams(payload).toString(), payload, triggerId, responseId };
  }

  /**
   * `app_home_opened` (Events API, api.slack.com/events/app_home_opened): `user` opened the app's Home tab.
   * Sent as an `event_callback` JSON body (HTTP) or as an `events_api` envelope (Socket Mode).
   */
  appHomeOpened(user: SlackUser): BuiltRequest {
    const payload: Json = {
      token: 'legacy-verification-token',
      team_id: this.teamId,
      api_app_id: this.appId,
      event: {
        type: 'app_home_opened',
        user: user.id,
        channel: `D${user.id.slice(1)}`,
        tab: 'home',
        event_ts: `${(Date.now() / 1000).toFixed(6)}`,
      },
      type: 'event_callback',
      event_id: nextId('Ev'),
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [
        {
          enterprise_id: null,
          team_id: this.teamId,
          user_id: this.botUserId,
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
      is_ext_shared_channel: false,
    };
    return { kind: 'events_api', rawBody: JSON.stringify(payload), payload, triggerId: '', responseId: null };
  }

  /** A click on a button `{action_id, value}` of a message in `channel` (with `threadTs`: a message in that thread). */
  blockAction(
    user: SlackUser,
    channel: string,
    button: { action_id: string; value: string; text?: string },
    threadTs?: string,
  ): BuiltRequest {
    const triggerId = nextId('TR');
    const responseId = nextId('R');
    const ts = `${Math.floor(Date.now() / 1000)}.000100`;
    const thread = threadTs ? { thread_ts: threadTs } : {};
    const payload: Json = {
      type: 'block_actions',
      user: { id: user.id, username: user.name, name: user.name, team_id: this.teamId },
      api_app_id: this.appId,
      token: 'legacy-verification-token',
      container: { type: 'message', message_ts: ts, channel_id: channel, is_ephemeral: false, ...thread },
      trigger_id: triggerId,
      team: { id: this.teamId, domain: 'emu' },
      enterprise: null,
      is_enterprise_install: false,
      channel: { id: channel, name: 'arena' },
      message: { type: 'message', ts, text: 'arena', user: this.botUserId, ...thread },
      state: { values: {} },
      response_url: this.responseUrl(responseId),
      actions: [
        {
          type: 'button',
          action_id: button.action_id,
          block_id: 'b1',
          text: { type: 'plain_text', text: button.text ?? 'Button' },
          value: button.value,
          action_ts: ts,
        },
      ],
    };
    return this.interactive(payload, triggerId, responseId);
  }

  /**
   * Submitting a modal: `values` maps block_id → the text typed (null = left empty), or → the element's state
   * as Slack sends it (e.g. `{type: 'static_select', selected_option: {…}}`) under `view.actionId` (default `value`).
   */
  viewSubmission(
    user: SlackUser,
    view: {
      callback_id: string;
      private_metadata: string;
      values: Record<string, string | null | Json>;
      actionId?: string;
    },
  ): BuiltRequest {
    const triggerId = nextId('TR');
    const values: Json = {};
    const action = view.actionId ?? 'value';
    for (const [block, value] of Object.entries(view.values))
      values[block] = {
        [action]: value !== null && typeof value === 'object' ? value : { type: 'plain_text_input', value },
      };
    const payload: Json = {
      type: 'view_submission',
      team: { id: this.teamId, domain: 'emu' },
      user: { id: user.id, username: user.name, name: user.name, team_id: this.teamId },
      api_app_id: this.appId,
      token: 'legacy-verification-token',
      trigger_id: triggerId,
      view: {
        id: nextId('V'),
        team_id: this.teamId,
        type: 'modal',
        callback_id: view.callback_id,
        private_metadata: view.private_metadata,
        state: { values },
        hash: '1.abc',
        title: { type: 'plain_text', text: 'Modal' },
        blocks: [],
      },
      response_urls: [],
      is_enterprise_install: false,
      enterprise: null,
    };
    return this.interactive(payload, triggerId, null);
  }

  /** Socket Mode connections still open (0 once a stopped client has finished its close handshake). */
  get openSockets(): number {
    return this.sockets.size;
  }

  /** Resolves once a Socket Mode client has connected and been sent `hello`. */
  socketConnected(): Promise<void> {
    return this.connected;
  }

  /**
   * Pushes a built request as a Socket Mode envelope and resolves with the app's ack payload.
   * `retryAttempt` marks it as Slack's retry (a new envelope_id, as Slack sends). Rejects when no ack
   * comes within `timeoutMs` (default 10 s, ample on a loaded machine).
   */
  sendEnvelope(req: BuiltRequest, opts: { retryAttempt?: number; timeoutMs?: number } = {}): Promise<Json> {
    const ws = [...this.sockets][0];
    if (!ws) return Promise.reject(new Error('slack emulator: no socket mode client connected'));
    const envelope_id = nextId('E').toLowerCase();
    const envelope: Json = { envelope_id, type: req.kind, payload: req.payload, accepts_response_payload: true };
    if (opts.retryAttempt !== undefined)
      Object.assign(envelope, { retry_attempt: opts.retryAttempt, retry_reason: 'timeout' });
    return new Promise((resolve, reject) => {
      const t = setTimeout(
        () => reject(new Error(`slack emulator: envelope ${envelope_id} not acked`)),
        opts.timeoutMs ?? 10_000,
      );
      this.ackWaiters.set(envelope_id, (p) => (clearTimeout(t), resolve(p)));
      ws.send(JSON.stringify(envelope));
    });
  }

  private interactive(payload: Json, triggerId: string, responseId: string | null): BuiltRequest {
    return {
      kind: 'interactive',
      rawBody: new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
      payload,
      triggerId,
      responseId,
    };
  }

  private responseUrl(id: string): string {
    return `http://127.0.0.1:${this.port}/response/${id}`;
  }

  private onSocket(ws: WebSocket): void {
    this.sockets.add(ws);
    ws.on('close', () => this.sockets.delete(ws));
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { envelope_id?: string; payload?: Json };
      if (!msg.envelope_id) return;
      this.acks.set(msg.envelope_id, msg.payload ?? {});
      this.ackWaiters.get(msg.envelope_id)?.(msg.payload ?? {});
      this.ackWaiters.delete(msg.envelope_id);
    });
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: 1,
        debug_info: { host: 'emu', build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: this.appId },
      }),
    );
    this.markConnected();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const isResponse = url.pathname.startsWith('/response/');
    const isUpload = url.pathname.startsWith('/upload/');
    const method = isResponse ? 'response_url' : isUpload ? 'upload' : url.pathname.replace(/^\/api\//, '');
    let body: Json;
    try {
      body = isUpload
        ? { fileId: url.pathname.slice('/upload/'.length), contentType: req.headers['content-type'] ?? null }
        : parseBody(Buffer.concat(chunks).toString('utf8'), req.headers['content-type']);
    } catch (_e) {
      body = { unparsed: true };
    }
    const rec: RecordedRequest = {
      seq: ++this.seq,
      at: Date.now(),
      method,
      path: url.pathname,
      authorization: req.headers.authorization,
      body,
      ...(isUpload ? { raw: await uploadedBytes(Buffer.concat(chunks), req.headers['content-type']) } : {}),
    };
    if (this.postLimiter && method === 'chat.postMessage') {
      const d = this.postLimiter.take(String(body['channel']));
      this.rateLog.push({
        seq: rec.seq,
        at: rec.at,
        key: String(body['channel']),
        status: d.allowed ? 200 : 429,
        retryAfterMs: d.allowed ? null : d.retryAfterMs,
        body,
      });
      if (!d.allowed) {
        res.writeHead(429, {
          'content-type': 'application/json',
          'retry-after': String(Math.max(1, Math.ceil(d.retryAfterMs / 1000))),
        });
        return void res.end(JSON.stringify({ ok: false, error: 'ratelimited' }));
      }
    }
    this.requests.push(rec);
    for (const w of [...this.waiters]) {
      if (w.pred(rec)) {
        this.waiters = this.waiters.filter((x) => x !== w);
        w.resolve(rec);
      }
    }
    if (isUpload) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end(`OK - ${rec.raw?.length ?? 0}`);
    }
    if (isResponse) {
      res.writeHead(this.responseStatus, { 'content-type': 'text/plain' });
      return void res.end(this.responseStatus === 200 ? 'ok' : 'expired_url');
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(this.answer(method, body)));
  }

  private answer(method: string, body: Json): Json {
    const ts = `${(Date.now() / 1000).toFixed(0)}.${String(this.seq).padStart(6, '0')}`;
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          url: 'https://emu.slack.com/',
          team: 'Emu',
          user: 'arena',
          team_id: this.teamId,
          user_id: this.botUserId,
          bot_id: 'B0EMU',
          is_enterprise_install: false,
        };
      case 'chat.postMessage': {
        const thread = typeof body['thread_ts'] === 'string' ? body['thread_ts'] : undefined;
        if (thread !== undefined && !this.posted.has(thread)) return { ok: false, error: 'thread_not_found' };
        this.posted.set(ts, {
          channel: body['channel'],
          ts,
          text: body['text'],
          blocks: body['blocks'],
          ...(thread ? { thread_ts: thread } : {}),
        });
        return {
          ok: true,
          channel: body['channel'],
          ts,
          message: { type: 'message', text: body['text'], user: this.botUserId, bot_id: 'B0EMU', ts },
        };
      }
      case 'chat.update': {
        const prev = this.posted.get(String(body['ts']));
        if (!prev || prev['channel'] !== body['channel']) return { ok: false, error: 'message_not_found' };
        this.posted.set(String(body['ts']), {
          ...prev,
          text: body['text'],
          blocks: body['blocks'],
          edited: { user: this.botUserId, ts },
        });
        return { ok: true, channel: body['channel'], ts: body['ts'], text: body['text'] };
      }
      case 'chat.postEphemeral':
        return { ok: true, message_ts: ts };
      case 'views.open':
        return { ok: true, view: { id: nextId('V'), ...(body['view'] as Json) } };
      // App Home (api.slack.com/methods/views.publish): a `home` view for one user, at most 100 blocks.
      case 'views.publish': {
        const view = body['view'] as Json | undefined;
        if (typeof body['user_id'] !== 'string' || view?.['type'] !== 'home')
          return { ok: false, error: 'invalid_arguments' };
        if (((view['blocks'] as unknown[] | undefined) ?? []).length > 100)
          return { ok: false, error: 'invalid_blocks' };
        return { ok: true, view: { id: nextId('V'), team_id: this.teamId, ...view } };
      }
      // File uploads (files.uploadV2): an upload URL on this emulator, then the completion of the upload.
      case 'files.getUploadURLExternal': {
        const fileId = nextId('F');
        return { ok: true, upload_url: `http://127.0.0.1:${this.port}/upload/${fileId}`, file_id: fileId };
      }
      case 'files.completeUploadExternal':
        return {
          ok: true,
          files: ((body['files'] ?? []) as Json[]).map((f) => ({
            id: f['id'],
            title: f['title'] ?? null,
            name: f['title'] ?? null,
          })),
        };
      case 'apps.connections.open':
        return { ok: true, url: `ws://127.0.0.1:${this.port}/link` };
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }
}
