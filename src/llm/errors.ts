/**
 * Map whatever the openai client (or the JSON/zod parsing of its reply) throws to an {@link LlmErrorCode}.
 */
import { z } from 'zod';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  ContentFilterFinishReasonError,
  LengthFinishReasonError,
} from 'openai/error';
import type { LlmErrorCode } from './types.js';
import { summariseZodError } from './json.js';
import { redactUrls } from './redact.js';

/** A thrown error as a value: its {@link LlmErrorCode}, a short message and the HTTP status if there was one. */
export interface ClassifiedError {
  code: LlmErrorCode;
  message: string;
  status?: number;
}

/**
 * @param err what was thrown
 * @param signal the caller's signal: an abort caused by a deadline (`AbortSignal.timeout`) is `timeout`
 */
export function classifyError(err: unknown, signal?: AbortSignal): ClassifiedError {
  if (err instanceof APIUserAbortError || (signal?.aborted && !(err instanceof APIError))) {
    const reason = signal?.reason as { name?: string } | undefined;
    return reason?.name === 'TimeoutError'
      ? { code: 'timeout', message: 'deadline passed' }
      : { code: 'aborted', message: 'request aborted by the caller' };
  }
  if (err instanceof APIConnectionTimeoutError)
    return { code: 'timeout', message: 'request timed out (after retries)' };
  // Messages of the transport may name the URL it tried, credentials and all: masked before anyone logs them.
  if (err instanceof APIConnectionError) return { code: 'connection_error', message: redactUrls(err.message) };
  if (err instanceof APIError) {
    const status = err.status;
    if (status === 429) return { code: 'rate_limited', message: 'rate limited (429) after retries', status };
    return {
      code: 'http_error',
      message: redactUrls(`HTTP ${status ?? '?'}: ${err.message}`).slice(0, 300),
      ...(status !== undefined ? { status } : {}),
    };
  }
  if (err instanceof LengthFinishReasonError) return { code: 'truncated', message: 'reply cut at the token limit' };
  if (err instanceof ContentFilterFinishReasonError)
    return { code: 'refused', message: 'content filter stopped the reply' };
  if (err instanceof z.ZodError) return { code: 'schema_mismatch', message: summariseZodError(err) };
  if (err instanceof SyntaxError) return { code: 'invalid_json', message: err.message.slice(0, 200) };
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'http_error', message: redactUrls(message).slice(0, 300) };
}

/**
 * True when a 400/422 probably means "this server does not support that response_format", so auto mode
 * tries the next mode. Other statuses are real failures.
 */
export const isFormatRejection = (c: ClassifiedError): boolean =>
  c.code === 'http_error' && (c.status === 400 || c.status === 422);
