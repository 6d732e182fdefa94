/**
 * Errors of the trainer HTTP API as values: every refusal is `{error: {code, message}}` with a 4xx status
 * for anything the client sent, so a trainer can branch on `code` and a person can read `message`.
 */
import { CodedError } from '../../errors/coded-error.js';

/** Machine-readable error codes of the API (docs/HTTP-API.md lists when each happens). */
export type ApiErrorCode =
  | 'invalid_json'
  | 'invalid_body'
  | 'invalid_request'
  | 'unsupported_media_type'
  | 'body_too_large'
  | 'unknown_action_type'
  | 'malformed_action'
  | 'invalid_amount'
  | 'difficulty_conflict'
  | 'unknown_seat'
  | 'unknown_session'
  | 'unknown_token'
  | 'token_required'
  | 'seat_waiting'
  | 'too_many_sessions'
  | 'too_many_client_sessions'
  | 'admin_token_required'
  | 'seat_token_scope'
  | 'debug_state_disabled'
  | 'not_found'
  | 'internal_error';

/** The JSON body of every error response. */
export interface ErrorBody {
  error: { code: ApiErrorCode; message: string; details?: unknown };
}

/** A refusal with its HTTP status; thrown inside handlers and rendered by the app's error handler. */
export class ApiError extends CodedError<ApiErrorCode> {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    code: ApiErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(code, message);
  }

  body(): ErrorBody {
    return {
      error:
        this.details === undefined
          ? { code: this.code, message: this.message }
          : { code: this.code, message: this.message, details: this.details },
    };
  }
}

/** Fastify's own errors for client input → our codes (status kept). */
export const FASTIFY_CODES: Readonly<Record<string, ApiErrorCode>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'body_too_large',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_body',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
};
