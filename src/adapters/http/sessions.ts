/**
 * Sessions of the trainer HTTP API, built so they cannot leak:
 *
 * - **The default session.** Sessionless calls (no `session_id`, as the original's clients make them)
 *   address one default session, and every sessionless reset replaces it (the original's single
 *   environment): any number of sessionless resets leaves one session. A replaced session's id answers
 *   404 `unknown_session` saying so.
 * - **Own sessions** (`new_session: true`, self-play): bounded per client address
 *   (`server.maxSessionsPerClient`, one more → 429 `too_many_client_sessions`) and in total
 *   (`server.maxSessions`, one more → 503 `too_many_sessions`); both messages say what to do.
 * - **Idle TTL** (`server.idleTtlSeconds`): an expired session answers 404 `unknown_session` saying it expired.
 * - **Self-play credentials**: a token per seat (acts and reads as that seat only) and an admin token for
 *   the creator (the public view, deleting the session).
 * - **Per-session serialisation**: calls on one session run one after another on a promise chain.
 *
 * Every lifecycle change (opened, replaced, deleted, expired) is reported to `onEvent` (the app logs it
 * at info). The clock is injected so tests expire sessions without sleeping.
 */
import { randomUUID } from 'node:crypto';
import type { LabId } from '../../engine/types.js';
import { ApiError } from './errors.js';
import type { Play } from './play.js';

/** A session's lifecycle change (logged at info, one line each). */
export interface SessionEvent {
  event: 'opened' | 'replaced' | 'deleted' | 'expired';
  session: string;
  client: string;
  kind: 'default' | 'own' | 'self_play';
  /** Sessions open after the change. */
  open: number;
}

/** Options of {@link SessionStore}. */
export interface SessionStoreOptions {
  maxSessions: number;
  /** Own and self-play sessions one client address may hold at once (the default session is not counted). */
  maxSessionsPerClient: number;
  idleTtlMs: number;
  /** Milliseconds since some epoch (default Date.now). */
  now?: () => number;
  onEvent?: (e: SessionEvent) => void;
}

/** A stored session. */
export interface Session {
  id: string;
  play: Play;
  /** The address that opened it. */
  client: string;
  kind: SessionEvent['kind'];
  createdAt: number;
  lastUsed: number;
  /** Seat → token (self-play sessions only). */
  tokens: Map<LabId, string>;
  /** The creator's token of a self-play session (public view, delete); null otherwise. */
  adminToken: string | null;
  /** Tail of this session's call chain. */
  chain: Promise<unknown>;
}

/** How many ended ids are remembered for a clearer 404 message. */
const ENDED_MEMORY = 4096;

/** The open sessions, their tokens and the default session. Every refusal is an {@link ApiError}. */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  private readonly tokens = new Map<string, { sessionId: string; seat: LabId }>();
  private readonly adminTokens = new Map<string, string>();
  private readonly perClient = new Map<string, number>();
  private readonly ended = new Map<string, 'expired' | 'replaced'>();
  private readonly now: () => number;
  private defaultId: string | null = null;

  constructor(private readonly opts: SessionStoreOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** Sessions open now (expired ones not yet swept included). */
  get size(): number {
    return this.sessions.size;
  }

  /** Whether a default session is open (expired ones not yet swept included). */
  get hasDefault(): boolean {
    return this.defaultId !== null;
  }

  /** Own and self-play sessions open for `client`. */
  openBy(client: string): number {
    return this.perClient.get(client) ?? 0;
  }

  /**
   * Replace the default session of sessionless calls with a new one holding `play` (the previous one
   * ends: its calls queued behind answer 404). 503 only if there was no default session and the server
   * is full of other sessions.
   */
  resetDefault(play: Play, client: string): Session {
    const old = this.defaultId === null ? undefined : this.sessions.get(this.defaultId);
    if (old) this.drop(old, 'replaced');
    else this.ensureRoom();
    const s = this.create(play, client, 'default', []);
    this.defaultId = s.id;
    return s;
  }

  /**
   * A new session of `client`: its own single-seat session, or (with `seats`) a self-play session with a
   * token per seat and an admin token. 429 `too_many_client_sessions` over the per-client cap, 503
   * `too_many_sessions` when the server is full after dropping expired sessions.
   */
  add(play: Play, client: string, seats: LabId[] = []): Session {
    if (this.openBy(client) >= this.opts.maxSessionsPerClient) this.sweep();
    const mine = this.openBy(client);
    if (mine >= this.opts.maxSessionsPerClient) {
      throw new ApiError(
        429,
        'too_many_client_sessions',
        `this client (${client}) has ${mine} sessions open, the limit per client (server.maxSessionsPerClient): reset one of them in place ({session_id, …}), DELETE /session/:id the ones you are done with, or reset without session_id to use the shared default session`,
      );
    }
    this.ensureRoom();
    const s = this.create(play, client, seats.length > 0 ? 'self_play' : 'own', seats);
    this.perClient.set(client, mine + 1);
    return s;
  }

  /** A live session (its idle clock restarts); no id = the default session. Else 404 `unknown_session`. */
  get(id: string | undefined): Session {
    if (id === undefined) {
      if (this.defaultId === null)
        throw new ApiError(
          404,
          'unknown_session',
          'no session: POST /reset first (or send the session_id a reset returned)',
        );
      return this.get(this.defaultId);
    }
    const s = this.sessions.get(id);
    if (!s) {
      const why = this.ended.get(id);
      if (why === 'expired')
        throw new ApiError(
          404,
          'unknown_session',
          `session ${id} expired after ${Math.round(this.opts.idleTtlMs / 1000)} s idle (server.idleTtlSeconds); POST /reset to start a new one`,
        );
      if (why === 'replaced')
        throw new ApiError(
          404,
          'unknown_session',
          `session ${id} was the default session and a later sessionless POST /reset replaced it; reset with new_session: true for a session of your own`,
        );
      throw new ApiError(
        404,
        'unknown_session',
        `no session ${id} (never created, deleted, or the server restarted); POST /reset to start one`,
      );
    }
    const t = this.now();
    if (t - s.lastUsed > this.opts.idleTtlMs) {
      this.drop(s, 'expired');
      return this.get(id);
    }
    s.lastUsed = t;
    return s;
  }

  /** The session and seat of a self-play seat token (404 `unknown_token` / `unknown_session`). */
  byToken(token: string): { session: Session; seat: LabId } {
    const hit = this.tokens.get(token);
    if (!hit)
      throw new ApiError(
        404,
        'unknown_token',
        'unknown seat token (tokens come from POST /reset with seats; they end with their session)',
      );
    return { session: this.get(hit.sessionId), seat: hit.seat };
  }

  /** The self-play session of an admin token (403 `admin_token_required` for any other value). */
  byAdminToken(token: string): Session {
    const id = this.adminTokens.get(token);
    if (id === undefined)
      throw new ApiError(
        403,
        'admin_token_required',
        'unknown admin token: only the admin_token returned by the self-play POST /reset reads the public view or deletes the session',
      );
    return this.get(id);
  }

  /** Remove a session; false if there was none. */
  delete(id: string): boolean {
    const s = this.sessions.get(id);
    if (!s) return false;
    this.drop(s, 'deleted');
    return true;
  }

  /** Drop every idle-expired session; returns how many. */
  sweep(): number {
    const t = this.now();
    let n = 0;
    for (const s of [...this.sessions.values()]) {
      if (t - s.lastUsed > this.opts.idleTtlMs) {
        this.drop(s, 'expired');
        n++;
      }
    }
    return n;
  }

  /**
   * Run `fn` after every earlier call on this session has finished (its own failure does not break the
   * chain). The session counts as used when `fn` starts, too. A session ended while the call waited
   * answers 404 `unknown_session` instead of running it.
   */
  run<T>(s: Session, fn: () => T | Promise<T>): Promise<T> {
    const next = s.chain.then(() => {
      if (this.sessions.get(s.id) !== s)
        throw new ApiError(
          404,
          'unknown_session',
          `session ${s.id} ended while this call waited for the one before it`,
        );
      s.lastUsed = Math.max(s.lastUsed, this.now());
      return fn();
    });
    s.chain = next.catch(() => undefined);
    return next;
  }

  private ensureRoom(): void {
    if (this.sessions.size >= this.opts.maxSessions) this.sweep();
    if (this.sessions.size >= this.opts.maxSessions) {
      throw new ApiError(
        503,
        'too_many_sessions',
        `${this.sessions.size} sessions are open (the limit, server.maxSessions); DELETE /session/:id the ones you no longer need, reset yours in place ({session_id, …}), or wait for idle ones to expire`,
      );
    }
  }

  private create(play: Play, client: string, kind: Session['kind'], seats: LabId[]): Session {
    const t = this.now();
    const s: Session = {
      id: randomUUID(),
      play,
      client,
      kind,
      createdAt: t,
      lastUsed: t,
      tokens: new Map(),
      adminToken: null,
      chain: Promise.resolve(),
    };
    for (const seat of seats) {
      const token = randomUUID();
      s.tokens.set(seat, token);
      this.tokens.set(token, { sessionId: s.id, seat });
    }
    if (seats.length > 0) {
      s.adminToken = randomUUID();
      this.adminTokens.set(s.adminToken, s.id);
    }
    this.sessions.set(s.id, s);
    this.opts.onEvent?.({ event: 'opened', session: s.id, client, kind, open: this.sessions.size });
    return s;
  }

  private drop(s: Session, why: 'expired' | 'replaced' | 'deleted'): void {
    this.sessions.delete(s.id);
    for (const token of s.tokens.values()) this.tokens.delete(token);
    if (s.adminToken !== null) this.adminTokens.delete(s.adminToken);
    if (s.kind !== 'default') {
      const n = this.openBy(s.client) - 1;
      if (n > 0) this.perClient.set(s.client, n);
      else this.perClient.delete(s.client);
    }
    if (this.defaultId === s.id) this.defaultId = null;
    if (why !== 'deleted') {
      this.ended.set(s.id, why);
      if (this.ended.size > ENDED_MEMORY) this.ended.delete(this.ended.keys().next().value!);
    }
    this.opts.onEvent?.({ event: why, session: s.id, client: s.client, kind: s.kind, open: this.sessions.size });
  }
}
