/**
 * A TypeScript client of the trainer HTTP API (used by the tests and the bench). node:http with a
 * keep-alive agent, so a session's steps reuse one connection. Every call returns a value: the parsed
 * body with `ok: true`, or the server's `{code, message}` with `ok: false` (a transport failure, e.g. the
 * server is down, rejects the promise). `reset` opens a session of this client's own unless given a
 * `session_id` (`resetDefault` uses the server's shared default session, as the original's clients do).
 */
import http from 'node:http';
import type { ActionInput } from '../../engine/actions.js';
import type { LabId } from '../../engine/types.js';
import type { HttpObservation } from './original-compat.js';
import type { StepResponse } from './play.js';

/** A step answer in the native format. */
export type NativeStepResponse = Omit<StepResponse, 'observation'> & { observation: HttpObservation };

/** A call's outcome. */
export type ApiResult<T> =
  | { ok: true; status: number; body: T }
  | { ok: false; status: number; error: { code: string; message: string; details?: unknown } };

/** `POST /reset` body (ours and the original's names; see schemas.ts). */
export interface ResetRequest {
  task?: string;
  task_type?: string;
  difficulty?: string | null;
  seed?: number;
  judge_mode?: string;
  seat?: LabId;
  seats?: LabId[];
  opponents?: string[] | Record<string, string>;
  holdout?: boolean;
  actions_per_round?: number;
  invalid_actions?: 'reject' | 'penalize';
  /** Reset this single-seat session in place. */
  session_id?: string;
  /** Open a session of one's own instead of the default session (the client's `reset` sets it). */
  new_session?: boolean;
  observation_format?: 'native' | 'original';
}

/** `POST /reset` answer of a single-seat session. */
export interface ResetResponse {
  session_id: string;
  observation: HttpObservation;
  info: Record<string, unknown>;
}

/** `POST /reset` answer of a self-play session: a token and the first observation per listed seat. */
export interface SelfPlayResetResponse {
  session_id: string;
  /** The creator's token: the public view (`GET /state?admin_token=…`) and deleting the session. */
  admin_token: string;
  seats: Record<LabId, { token: string; observation: HttpObservation }>;
  info: Record<string, unknown>;
}

/** Options of {@link ArenaClient}. */
export interface ClientOptions {
  /** Keep-alive sockets per host (default 64). */
  maxSockets?: number;
}

/** A client of one server; {@link ArenaClient.close} frees its keep-alive sockets. */
export class ArenaClient {
  private readonly base: URL;
  readonly agent: http.Agent;

  /** @param url e.g. `http://127.0.0.1:8080` */
  constructor(url: string, opts: ClientOptions = {}) {
    this.base = new URL(url);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: opts.maxSockets ?? 64 });
  }

  /**
   * Any request: `body` is JSON-encoded unless it is a string (sent as it is, with `contentType`, JSON by
   * default: how the tests send malformed JSON).
   */
  request<T>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<ApiResult<T>> {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const url = new URL(path, this.base);
    return new Promise((resolve, reject) => {
      const req = http.request(
        url,
        {
          method,
          agent: this.agent,
          headers:
            payload === undefined ? {} : { 'content-type': contentType, 'content-length': Buffer.byteLength(payload) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            let parsed: unknown;
            try {
              parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            } catch {
              resolve({ ok: false, status, error: { code: 'not_json', message: 'the response is not JSON' } });
              return;
            }
            if (status >= 200 && status < 300) resolve({ ok: true, status, body: parsed as T });
            else {
              const e = (parsed as { error?: { code: string; message: string; details?: unknown } }).error;
              resolve({ ok: false, status, error: e ?? { code: 'unknown', message: JSON.stringify(parsed) } });
            }
          });
        },
      );
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  /** `GET /health`. */
  health(): Promise<ApiResult<{ status: string; benchmark_id: string; sessions: number }>> {
    return this.request('GET', '/health');
  }

  /** `GET /tasks`. */
  tasks(): Promise<
    ApiResult<{
      benchmark_id: string;
      tasks: { task_type: string; difficulty: string }[];
      action_types: string[];
      features: string[];
    }>
  > {
    return this.request('GET', '/tasks');
  }

  /**
   * `POST /reset` of a single-seat session of this client's own (`new_session: true`), or with
   * `session_id` that session restarted in place.
   */
  reset(body: ResetRequest = {}): Promise<ApiResult<ResetResponse>> {
    return this.request(
      'POST',
      '/reset',
      body.session_id === undefined && body.new_session === undefined ? { ...body, new_session: true } : body,
    );
  }

  /** `POST /reset` without a session: replaces the server's shared default session (the original's single environment). */
  resetDefault(body: ResetRequest = {}): Promise<ApiResult<ResetResponse>> {
    return this.request('POST', '/reset', body);
  }

  /** `POST /reset` with `seats`: a self-play session. */
  resetSelfPlay(body: ResetRequest & { seats: LabId[] }): Promise<ApiResult<SelfPlayResetResponse>> {
    return this.request('POST', '/reset', body);
  }

  /** One action of a single-seat session (an object, or a model's raw JSON text). */
  step(
    sessionId: string,
    action: ActionInput | Record<string, unknown> | string,
  ): Promise<ApiResult<NativeStepResponse>> {
    return this.request('POST', '/step', { session_id: sessionId, action });
  }

  /** One action of a self-play seat. */
  stepSeat(
    token: string,
    action: ActionInput | Record<string, unknown> | string,
  ): Promise<ApiResult<NativeStepResponse>> {
    return this.request('POST', '/step', { token, action });
  }

  /**
   * A single-seat session's view (`{session_id}`), a seat's own view (`{token}`), a self-play session's
   * public view (`{admin_token}`), or the full state with `include_private` (debug servers only).
   */
  state(
    who: { session_id?: string; token?: string; admin_token?: string },
    includePrivate = false,
  ): Promise<ApiResult<{ session_id?: string; seat?: LabId; state: Record<string, unknown>; waiting_for?: LabId[] }>> {
    const q = new URLSearchParams();
    if (who.session_id) q.set('session_id', who.session_id);
    if (who.token) q.set('token', who.token);
    if (who.admin_token) q.set('admin_token', who.admin_token);
    if (includePrivate) q.set('include_private', 'true');
    return this.request('GET', `/state?${q.toString()}`);
  }

  /** `DELETE /session/:id` (a self-play session: with its admin token). */
  deleteSession(id: string, adminToken?: string): Promise<ApiResult<{ deleted: string }>> {
    const q = adminToken === undefined ? '' : `?admin_token=${encodeURIComponent(adminToken)}`;
    return this.request('DELETE', `/session/${encodeURIComponent(id)}${q}`);
  }

  /** Close the keep-alive sockets. */
  close(): void {
    this.agent.destroy();
  }
}
