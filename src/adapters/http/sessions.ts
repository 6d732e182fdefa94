/**
 * Sessions of the trainer HTTP API: a bounded map (config `server.maxSessions`; one more → 503
 * `too_many_sessions`), an idle TTL (`server.idleTtlSeconds`; an expired session answers 404
 * `unknown_session` saying it expired), and per-session serialisation: calls on one session run one after
 * another on a promise chain, so two steps never interleave, while different sessions proceed
 * independently. The clock is injected so tests expire sessions without sleeping.
 */
import { randomUUID } from 'node:crypto';
import type { LabId } from '../../engine/types.js';
import { ApiError } from './errors.js';
import type { Play } from './play.js';

/** Options of {@link SessionStore}. */
export interface SessionStoreOptions {
  maxSessions: number;
  idleTtlMs: number;
  /** Milliseconds since some epoch (default Date.now). */
  now?: () => number;
}

/** A stored session. */
export interface Session {
  id: string;
  play: Play;
  createdAt: number;
  lastUsed: number;
  /** Seat → token (self-play sessions only). */
  tokens: Map<LabId, string>;
  /** Tail of this session's call chain. */
  chain: Promise<unknown>;
}

/** How many expired ids are remembered for a clearer 404 message. */
const EXPIRED_MEMORY = 4096;

/**
 * The open sessions, their self-play tokens and the default session of sessionless (original-style)
 * calls. Every refusal is an {@link ApiError}: 404 `unknown_session` / `unknown_token`, 503 `too_many_sessions`.
 */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  private readonly tokens = new Map<string, { sessionId: string; seat: LabId }>();
  private readonly expired = new Map<string, number>();
  private readonly now: () => number;
  /** The latest single-seat session: what sessionless (original-style) calls address. */
  private defaultId: string | null = null;

  constructor(private readonly opts: SessionStoreOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** Sessions open now (expired ones not yet swept included). */
  get size(): number {
    return this.sessions.size;
  }

  /**
   * Store a new session with a token per listed seat (self-play); 503 `too_many_sessions` when full after
   * dropping expired ones. A session without seats becomes the default of sessionless calls.
   */
  add(play: Play, seats: LabId[] = []): Session {
    if (this.sessions.size >= this.opts.maxSessions) this.sweep();
    if (this.sessions.size >= this.opts.maxSessions) {
      throw new ApiError(503, 'too_many_sessions', `${this.sessions.size} sessions are open (the limit, server.maxSessions); DELETE /session/:id the ones you no longer need or wait for idle ones to expire`);
    }
    const t = this.now();
    const s: Session = { id: randomUUID(), play, createdAt: t, lastUsed: t, tokens: new Map(), chain: Promise.resolve() };
    for (const seat of seats) {
      const token = randomUUID();
      s.tokens.set(seat, token);
      this.tokens.set(token, { sessionId: s.id, seat });
    }
    this.sessions.set(s.id, s);
    if (seats.length === 0) this.defaultId = s.id;
    return s;
  }

  /** A live session (its idle clock restarts), else 404 `unknown_session` (saying when it expired). */
  get(id: string | undefined): Session {
    if (id === undefined) {
      if (this.defaultId === null) throw new ApiError(404, 'unknown_session', 'no session: POST /reset first (or send the session_id a reset returned)');
      return this.get(this.defaultId);
    }
    const s = this.sessions.get(id);
    if (!s) {
      const at = this.expired.get(id);
      if (at !== undefined) throw new ApiError(404, 'unknown_session', `session ${id} expired after ${Math.round(this.opts.idleTtlMs / 1000)} s idle (server.idleTtlSeconds); POST /reset to start a new one`);
      throw new ApiError(404, 'unknown_session', `no session ${id} (never created, deleted, or the server restarted); POST /reset to start one`);
    }
    const t = this.now();
    if (t - s.lastUsed > this.opts.idleTtlMs) {
      this.drop(s, true);
      return this.get(id);
    }
    s.lastUsed = t;
    return s;
  }

  /** The session and seat of a self-play token (404 `unknown_token` / `unknown_session`). */
  byToken(token: string): { session: Session; seat: LabId } {
    const hit = this.tokens.get(token);
    if (!hit) throw new ApiError(404, 'unknown_token', 'unknown seat token (tokens come from POST /reset with seats; they end with their session)');
    return { session: this.get(hit.sessionId), seat: hit.seat };
  }

  /** Remove a session; false if there was none. */
  delete(id: string): boolean {
    const s = this.sessions.get(id);
    if (!s) return false;
    this.drop(s, false);
    return true;
  }

  /** Drop every idle-expired session; returns how many. */
  sweep(): number {
    const t = this.now();
    let n = 0;
    for (const s of [...this.sessions.values()]) {
      if (t - s.lastUsed > this.opts.idleTtlMs) {
        this.drop(s, true);
        n++;
      }
    }
    return n;
  }

  /**
   * Run `fn` after every earlier call on this session has finished (its own failure does not break the
   * chain). The session counts as used when `fn` starts, too. A session deleted or swept while the call
   * waited answers 404 `unknown_session` instead of running it.
   */
  run<T>(s: Session, fn: () => T | Promise<T>): Promise<T> {
    const next = s.chain.then(() => {
      if (this.sessions.get(s.id) !== s) throw new ApiError(404, 'unknown_session', `session ${s.id} ended while this call waited for the one before it`);
      s.lastUsed = Math.max(s.lastUsed, this.now());
      return fn();
    });
    s.chain = next.catch(() => undefined);
    return next;
  }

  private drop(s: Session, expired: boolean): void {
    this.sessions.delete(s.id);
    for (const token of s.tokens.values()) this.tokens.delete(token);
    if (this.defaultId === s.id) this.defaultId = null;
    if (expired) {
      this.expired.set(s.id, this.now());
      if (this.expired.size > EXPIRED_MEMORY) this.expired.delete(this.expired.keys().next().value!);
    }
  }
}
