/**
 * Shapes shared by the LLM client, the LLM seat agent and the LLM judge. Errors are values with codes.
 */
import type { z } from 'zod';

/** Who made a call (for usage accounting and logs). */
export type LlmRole = 'agent' | 'judge' | 'bench';

/** How the reply format was requested (see config `responseFormat`). */
export type LlmMode = 'json_schema' | 'json_object' | 'text';

/**
 * Why a call failed.
 * - `timeout`: every attempt timed out (openai APIConnectionTimeoutError) or the caller's deadline passed
 * - `aborted`: the caller's AbortSignal fired (e.g. the round closed)
 * - `rate_limited`: 429 after all retries
 * - `http_error`: another HTTP status (4xx, 5xx after retries)
 * - `connection_error`: no HTTP answer (refused, reset)
 * - `invalid_json`: the reply holds no JSON object
 * - `schema_mismatch`: JSON that fails the zod schema
 * - `empty_reply`: no content
 * - `refused`: the model refused (refusal field) or a content filter stopped it
 * - `truncated`: the reply hit the token limit (finish_reason length)
 * - `budget_exhausted`: the match's token budget is spent (no request made)
 */
export type LlmErrorCode =
  | 'timeout'
  | 'aborted'
  | 'rate_limited'
  | 'http_error'
  | 'connection_error'
  | 'invalid_json'
  | 'schema_mismatch'
  | 'empty_reply'
  | 'refused'
  | 'truncated'
  | 'budget_exhausted';

/** Tokens of one call; `estimated` when the server reported no usage (chars / 4). */
export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  estimated: boolean;
}

/** One call as recorded by the client (also passed to `onCall`). */
export interface LlmCallRecord {
  /** ISO time the call started. */
  at: string;
  role: LlmRole;
  model: string;
  matchId: string | null;
  mode: LlmMode;
  ok: boolean;
  code: 'ok' | LlmErrorCode;
  /** Wall time of the call including retries and queueing, ms. */
  latencyMs: number;
  usage: LlmUsage | null;
  /** HTTP status of the last failed attempt, if any. */
  status?: number;
}

/** One chat-completions message. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A request for a structured reply validated by `schema`. */
export interface StructuredRequest<T> {
  role: LlmRole;
  model: string;
  messages: ChatMessage[];
  /** zod schema of the reply; use `.nullable()`, never `.optional()` (strict JSON schema). */
  schema: z.ZodType<T>;
  /** Schema name sent to the server (letters, digits, _ and -). */
  name: string;
  temperature?: number;
  maxTokens?: number;
  /** Match whose token budget pays for the call; null/undefined = no budget. */
  matchId?: string | null;
  signal?: AbortSignal;
}

/** Outcome of one structured call: the validated value with usage, or an {@link LlmErrorCode}; latency in ms. Never thrown. */
export type LlmResult<T> =
  | { ok: true; value: T; model: string; mode: LlmMode; usage: LlmUsage; latencyMs: number; raw: string }
  | {
      ok: false;
      code: LlmErrorCode;
      message: string;
      model: string;
      mode: LlmMode;
      latencyMs: number;
      status?: number;
      /** The reply text when there was one (e.g. invalid JSON in json_object or text mode). */
      raw?: string;
    };

/** The part of the client that agents and judges use (the tests may substitute it). */
export interface LlmCaller {
  structured<T>(req: StructuredRequest<T>): Promise<LlmResult<T>>;
}
