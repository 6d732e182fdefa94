/**
 * The one wrapper over the `openai` package (6.x) used by LLM seats, the LLM judge and the benchmark.
 *
 * - Structured output: `zodResponseFormat` + `client.chat.completions.parse` (json_schema, strict). For
 *   servers that reject json_schema (HTTP 400/422) auto mode falls back to `json_object`, then to plain
 *   text; both ask for the JSON schema in the prompt, extract the first JSON object and validate it
 *   with zod. The mode that worked is remembered per model.
 * - Retries (429 honouring `retry-after(-ms)`, 5xx, timeouts, connection errors) are the openai
 *   client's own (`maxRetries`); `timeoutMs` is per attempt.
 * - At most `maxConcurrent` requests in flight, shared by every seat and the judge of every match, and
 *   between matches round-robin (fair-queue.ts): one busy match cannot starve another.
 * - Per-match token budget: a call whose match has spent `matchTokenBudget` tokens (or would with this
 *   prompt) fails `budget_exhausted` without a request.
 * - Every call is recorded (usage, latency, outcome) and passed to `onCall`.
 *
 * Never throws for a model or network failure: it returns `{ ok: false, code }` (see {@link LlmErrorCode}).
 */
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { z } from 'zod';
import { effectiveBaseUrl, type LlmConfig } from './config.js';
import { classifyError, isFormatRejection } from './errors.js';
import { FairQueue } from './fair-queue.js';
import { parseModelReply } from './json.js';
import type {
  ChatMessage,
  LlmCallRecord,
  LlmCaller,
  LlmMode,
  LlmResult,
  LlmUsage,
  StructuredRequest,
} from './types.js';

/** Options of {@link LlmClient} besides its {@link LlmConfig}. */
export interface LlmClientOptions {
  /** Called after every call (log it with pino, store it, …). */
  onCall?: (rec: LlmCallRecord) => void;
  /** How many recent call records to keep in memory (default 500). */
  keepRecords?: number;
}

const MODES: readonly LlmMode[] = ['json_schema', 'json_object', 'text'];
/** Failures after which the server probably processed the prompt. */
const CHARGED_FAILURES = new Set<string>([
  'timeout',
  'invalid_json',
  'schema_mismatch',
  'empty_reply',
  'refused',
  'truncated',
]);
const estimateTokens = (s: string) => Math.ceil(s.length / 4);

/** OpenAI-compatible client with structured output, fallbacks, concurrency limit and token budgets. */
export class LlmClient implements LlmCaller {
  /** The settings this client was built with. */
  readonly config: LlmConfig;
  /** Endpoint the client talks to (see `effectiveBaseUrl`). */
  readonly baseURL: string;
  private readonly openai: OpenAI;
  private readonly limit: FairQueue;
  private readonly modeByModel = new Map<string, LlmMode>();
  private readonly spent = new Map<string, number>();
  private readonly records: LlmCallRecord[] = [];
  private readonly opts: LlmClientOptions;

  /** @throws only when no endpoint is configured (check `llmEnabled(config)` first). */
  constructor(config: LlmConfig, opts: LlmClientOptions = {}) {
    const baseURL = effectiveBaseUrl(config);
    if (!baseURL) throw new Error('LlmClient: no LLM endpoint configured (baseUrl or apiKey)');
    this.config = config;
    this.baseURL = baseURL;
    this.opts = opts;
    // Local servers need no key, but the openai client requires one: send a placeholder.
    this.openai = new OpenAI({
      apiKey: config.apiKey ?? 'no-key',
      baseURL,
      timeout: config.timeoutMs,
      maxRetries: config.maxRetries,
    });
    this.limit = new FairQueue(config.maxConcurrent);
  }

  /** Tokens a match has spent so far. */
  spentBy(matchId: string): number {
    return this.spent.get(matchId) ?? 0;
  }

  /** Tokens a match may still spend (Infinity when unlimited). */
  remainingFor(matchId: string): number {
    const cap = this.config.matchTokenBudget;
    return cap === 0 ? Infinity : Math.max(0, cap - this.spentBy(matchId));
  }

  /** Drop a finished match's budget bookkeeping. */
  forgetMatch(matchId: string): void {
    this.spent.delete(matchId);
  }

  /** Recent call records, oldest first (a copy). */
  calls(): LlmCallRecord[] {
    return [...this.records];
  }

  /** Ask for a reply validated by `req.schema`. Never throws for model or network failures. */
  async structured<T>(req: StructuredRequest<T>): Promise<LlmResult<T>> {
    const started = performance.now();
    const at = new Date().toISOString();
    const matchId = req.matchId ?? null;
    const firstMode = this.startMode(req.model);
    const promptEstimate = estimateTokens(req.messages.map((m) => m.content).join('\n'));
    if (matchId !== null && this.remainingFor(matchId) < promptEstimate) {
      const res: LlmResult<T> = {
        ok: false,
        code: 'budget_exhausted',
        message: `match ${matchId} spent ${this.spentBy(matchId)} of ${this.config.matchTokenBudget} tokens`,
        model: req.model,
        mode: firstMode,
        latencyMs: 0,
      };
      this.record({
        at,
        role: req.role,
        model: req.model,
        matchId,
        mode: firstMode,
        ok: false,
        code: res.code,
        latencyMs: 0,
        usage: null,
      });
      return res;
    }
    // Calls without a match (the eval CLI, a judge outside a match) share one turn of the round-robin.
    const result = await this.limit.run(matchId ?? '', () => this.withFallback(req, firstMode, started));
    const usage = result.ok ? result.usage : null;
    if (matchId !== null) {
      // A reply that failed to parse (or a timeout) still cost the server a prompt: charge the estimate.
      const charge = result.ok ? result.usage.totalTokens : CHARGED_FAILURES.has(result.code) ? promptEstimate : 0;
      this.spent.set(matchId, this.spentBy(matchId) + charge);
    }
    this.record({
      at,
      role: req.role,
      model: req.model,
      matchId,
      mode: result.mode,
      ok: result.ok,
      code: result.ok ? 'ok' : result.code,
      latencyMs: result.latencyMs,
      usage,
      ...(!result.ok && result.status !== undefined ? { status: result.status } : {}),
    });
    return result;
  }

  private startMode(model: string): LlmMode {
    if (this.config.responseFormat !== 'auto') return this.config.responseFormat;
    return this.modeByModel.get(model) ?? 'json_schema';
  }

  private async withFallback<T>(req: StructuredRequest<T>, first: LlmMode, started: number): Promise<LlmResult<T>> {
    const auto = this.config.responseFormat === 'auto';
    const modes = auto ? MODES.slice(MODES.indexOf(first)) : [first];
    let last: LlmResult<T> | null = null;
    for (const mode of modes) {
      if (req.signal?.aborted) break;
      const res = await this.once(req, mode, started);
      if (res.ok) {
        if (auto) this.modeByModel.set(req.model, mode);
        return res;
      }
      last = res;
      if (!(
        auto &&
        isFormatRejection({
          code: res.code,
          message: res.message,
          ...(res.status !== undefined ? { status: res.status } : {}),
        })
      ))
        return res;
    }
    return (
      last ?? {
        ok: false,
        code: 'aborted',
        message: 'request aborted by the caller',
        model: req.model,
        mode: first,
        latencyMs: performance.now() - started,
      }
    );
  }

  private async once<T>(req: StructuredRequest<T>, mode: LlmMode, started: number): Promise<LlmResult<T>> {
    const base = {
      model: req.model,
      temperature: req.temperature ?? this.config.temperature,
      max_completion_tokens: req.maxTokens ?? this.config.maxOutputTokens,
    };
    const options = req.signal ? { signal: req.signal } : {};
    const latency = () => Math.round(performance.now() - started);
    try {
      if (mode === 'json_schema') {
        const completion = await this.openai.chat.completions.parse(
          { ...base, messages: req.messages, response_format: zodResponseFormat(req.schema, req.name) },
          options,
        );
        const msg = completion.choices[0]?.message;
        const raw = msg?.content ?? '';
        const usage = readUsage(completion.usage, req.messages, raw);
        if (msg?.refusal)
          return {
            ok: false,
            code: 'refused',
            message: msg.refusal.slice(0, 200),
            model: req.model,
            mode,
            latencyMs: latency(),
            raw,
          };
        if (msg?.parsed === null || msg?.parsed === undefined)
          return {
            ok: false,
            code: 'empty_reply',
            message: 'no content',
            model: req.model,
            mode,
            latencyMs: latency(),
            raw,
          };
        return { ok: true, value: msg.parsed, model: req.model, mode, usage, latencyMs: latency(), raw };
      }
      const messages = withSchemaInstruction(req.messages, req.schema);
      const completion = await this.openai.chat.completions.create(
        { ...base, messages, ...(mode === 'json_object' ? { response_format: { type: 'json_object' as const } } : {}) },
        options,
      );
      const choice = completion.choices[0];
      const raw = choice?.message?.content ?? '';
      if (choice?.finish_reason === 'length')
        return {
          ok: false,
          code: 'truncated',
          message: 'reply cut at the token limit',
          model: req.model,
          mode,
          latencyMs: latency(),
          raw,
        };
      if (raw.trim() === '')
        return {
          ok: false,
          code: 'empty_reply',
          message: 'no content',
          model: req.model,
          mode,
          latencyMs: latency(),
          raw,
        };
      const parsed = parseModelReply(raw, req.schema);
      if (!parsed.ok)
        return {
          ok: false,
          code: parsed.code,
          message: parsed.message,
          model: req.model,
          mode,
          latencyMs: latency(),
          raw,
        };
      return {
        ok: true,
        value: parsed.value,
        model: req.model,
        mode,
        usage: readUsage(completion.usage, messages, raw),
        latencyMs: latency(),
        raw,
      };
    } catch (err) {
      const c = classifyError(err, req.signal);
      return {
        ok: false,
        code: c.code,
        message: c.message,
        model: req.model,
        mode,
        latencyMs: latency(),
        ...(c.status !== undefined ? { status: c.status } : {}),
      };
    }
  }

  private record(rec: LlmCallRecord): void {
    this.records.push(rec);
    const keep = this.opts.keepRecords ?? 500;
    if (this.records.length > keep) this.records.splice(0, this.records.length - keep);
    this.opts.onCall?.(rec);
  }
}

function readUsage(
  usage: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | undefined | null,
  messages: ChatMessage[],
  raw: string,
): LlmUsage {
  if (usage && typeof usage.prompt_tokens === 'number' && typeof usage.completion_tokens === 'number') {
    return {
      promptTokens: usage.prompt_tokens,
      completionTokens: usage.completion_tokens,
      totalTokens: usage.total_tokens ?? usage.prompt_tokens + usage.completion_tokens,
      estimated: false,
    };
  }
  const promptTokens = estimateTokens(messages.map((m) => m.content).join('\n'));
  const completionTokens = estimateTokens(raw);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, estimated: true };
}

/**
 * Without json_schema support the server cannot enforce the shape: state it in the prompt (json_object
 * mode also requires the word "JSON" in the messages).
 */
function withSchemaInstruction<T>(messages: ChatMessage[], schema: z.ZodType<T>): ChatMessage[] {
  const jsonSchema = JSON.stringify(z.toJSONSchema(schema, { target: 'draft-7', unrepresentable: 'any' }));
  const note = `Reply with exactly one JSON object and nothing else. It must match this JSON Schema:\n${jsonSchema}`;
  const out = messages.map((m) => ({ ...m }));
  const sys = out.find((m) => m.role === 'system');
  if (sys) sys.content = `${sys.content}\n\n${note}`;
  else out.unshift({ role: 'system', content: note });
  return out;
}
