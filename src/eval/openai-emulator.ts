/**
 * A local OpenAI-compatible chat-completions server for tests and `npm run bench:llm` (no network:
 * 127.0.0.1, port 0); tests import it as test/emulators/openai.ts.
 *
 * Replies are scripted per request: either a queue of {@link ScriptedReply} consumed in order, or a
 * responder function that picks a reply from the request (e.g. by the seat named in the prompt). Every
 * request is recorded (body, headers, arrival time, and the time its answer was sent), so tests count
 * retries and LLM calls at the server and check the order of events without a clock. `delayMs` makes
 * every answer take D ms (a model's latency) unless a reply names its own delay.
 *
 * Supported: `POST /v1/chat/completions` (non-streaming). Anything else → 404.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the emulator answers to one request. */
export interface ScriptedReply {
  /** Assistant message content (default `'{}'`). */
  content?: string;
  /** HTTP status (default 200). Non-2xx statuses send an OpenAI-style error body. */
  status?: number;
  /** Wait this long before answering (ms); default the emulator's `delayMs` (0). */
  delayMs?: number;
  /** Sent as the `retry-after-ms` header (the openai client honours it on 429/5xx). */
  retryAfterMs?: number;
  /** Never answer (the socket stays open until the client gives up or the emulator closes). */
  hang?: boolean;
  /** Answer only once this settles (then after `delayMs`): a test holds the model back and lets it answer. */
  until?: Promise<unknown>;
  /** Usage to report (default: prompt = chars/4 of the messages, completion = chars/4 of content). */
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  /** Error message for non-2xx statuses. */
  errorMessage?: string;
}

/** One request as the emulator received it. */
export interface RecordedRequest {
  /** 0-based arrival index. */
  index: number;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body (null if it was not JSON). */
  body: ChatBody | null;
  /** ms since the emulator started. */
  at: number;
  /** ms since the emulator started when the answer was sent (or the request dropped); null while open. */
  answeredAt: number | null;
  /** True when the client closed the request before it was answered (e.g. an aborted call). */
  dropped: boolean;
}

/** The parts of a chat-completions request body the tests look at. */
export interface ChatBody {
  model?: string;
  messages?: { role: string; content: string }[];
  response_format?: { type: string; json_schema?: { name: string; schema: unknown } };
  temperature?: number;
  [k: string]: unknown;
}

export type Responder = (req: RecordedRequest) => ScriptedReply;

export interface OpenAiEmulator {
  /** Base URL to give the client, e.g. `http://127.0.0.1:41234/v1`. */
  baseURL: string;
  /** Every request so far, in arrival order. */
  requests: RecordedRequest[];
  /** Chat-completion requests only. */
  chatRequests(): RecordedRequest[];
  /** Append replies to the queue (used before the responder). */
  script(...replies: ScriptedReply[]): void;
  /** Replace the responder used when the queue is empty. */
  setResponder(r: Responder): void;
  /**
   * Most chat requests open at once (arrived, not yet answered or dropped) since the start or the last
   * {@link resetInFlightPeak}: a count, not a time, so concurrency limits are checked without a clock.
   */
  inFlightPeak(): number;
  resetInFlightPeak(): void;
  close(): Promise<void>;
}

const estimate = (s: string) => Math.ceil(s.length / 4);

/** Text of all messages of a recorded request, joined (handy for responders). */
export function promptText(req: RecordedRequest): string {
  return (req.body?.messages ?? [])
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');
}

/**
 * Start the emulator. With no queue and no responder every request gets `{}` as content. `delayMs`: how
 * long every answer takes (D, ms) unless a reply sets its own `delayMs`; default 0.
 */
export async function startOpenAiEmulator(
  opts: { replies?: ScriptedReply[]; responder?: Responder; delayMs?: number } = {},
): Promise<OpenAiEmulator> {
  const queue: ScriptedReply[] = [...(opts.replies ?? [])];
  let responder: Responder = opts.responder ?? (() => ({ content: '{}' }));
  const requests: RecordedRequest[] = [];
  const t0 = performance.now();
  const timers = new Set<NodeJS.Timeout>();
  let inFlight = 0;
  let peak = 0;

  const send = (res: ServerResponse, req: RecordedRequest, r: ScriptedReply, answered: () => void) => {
    // Counted as answered before the reply goes out, so the client's next request never overlaps it.
    answered();
    if (res.destroyed) return;
    const status = r.status ?? 200;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (r.retryAfterMs !== undefined) headers['retry-after-ms'] = String(r.retryAfterMs);
    if (status < 200 || status >= 300) {
      res.writeHead(status, headers);
      res.end(
        JSON.stringify({ error: { message: r.errorMessage ?? `emulated ${status}`, type: 'emulated', code: null } }),
      );
      return;
    }
    const content = r.content ?? '{}';
    const promptChars = promptText(req).length;
    const usage =
      r.usage === null
        ? undefined
        : (r.usage ?? { prompt_tokens: Math.ceil(promptChars / 4), completion_tokens: estimate(content) });
    res.writeHead(200, headers);
    res.end(
      JSON.stringify({
        id: `chatcmpl-emu-${req.index}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: req.body?.model ?? 'emulated',
        choices: [
          { index: 0, finish_reason: 'stop', logprobs: null, message: { role: 'assistant', content, refusal: null } },
        ],
        ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
      }),
    );
  };

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    let body: ChatBody | null = null;
    try {
      body = JSON.parse(raw) as ChatBody;
    } catch {
      body = null;
    }
    const rec: RecordedRequest = {
      index: requests.length,
      method: req.method ?? 'GET',
      path: (req.url ?? '/').split('?')[0] ?? '/',
      headers: req.headers,
      body,
      at: performance.now() - t0,
      answeredAt: null,
      dropped: false,
    };
    requests.push(rec);
    if (rec.method !== 'POST' || !rec.path.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    inFlight++;
    peak = Math.max(peak, inFlight);
    let open = true;
    const answered = () => {
      if (!open) return;
      open = false;
      inFlight--;
      rec.answeredAt = performance.now() - t0;
    };
    // A request still open when its socket closes was dropped by the client (it gave up or aborted).
    res.on('close', () => {
      if (open) rec.dropped = true;
      answered();
    });
    const reply = queue.shift() ?? responder(rec);
    if (reply.hang) return;
    const delay = reply.delayMs ?? opts.delayMs ?? 0;
    const go = () => {
      if (delay <= 0) return send(res, rec, reply, answered);
      const t = setTimeout(() => {
        timers.delete(t);
        send(res, rec, reply, answered);
      }, delay);
      timers.add(t);
    };
    if (reply.until) void reply.until.then(go, go);
    else go();
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () => requests.filter((r) => r.path.endsWith('/chat/completions')),
    script: (...r) => queue.push(...r),
    setResponder: (r) => {
      responder = r;
    },
    inFlightPeak: () => peak,
    resetInFlightPeak: () => {
      peak = inFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
