/**
 * The host's access to match logs: an in-memory cache of folded matches, refreshed from the store, and
 * "validate then append" with optimistic concurrency. Appends use expectedSeq = the cached lastSeq; on a
 * conflict (another process appended first) the new events are loaded, folded, and the plan re-validated
 * against the fresh match before retrying, so nothing is lost and no rule is checked on stale state.
 * Callers hold the match's lock ({@link MatchLog.mutex}) so one process never races with itself.
 */
import type { EventStore } from '../store/types.js';
import { toJson } from '../agents/seat.js';
import { KeyedMutex } from './mutex.js';
import { applyEvent, replay, type FoldStep } from './replay.js';
import { fail, ok, type HostResult } from './results.js';
import type { Clock } from './timers.js';
import type { HostedMatch, MatchEventBody } from './types.js';

/** Appends tried per command before giving up with `busy` (each conflict means another writer progressed). */
export const MAX_APPEND_ATTEMPTS = 8;

/** Decides the event to append given the fresh match (or an error, or null for "nothing to record"). */
export type Plan = (m: HostedMatch) => HostResult<MatchEventBody | null> | Promise<HostResult<MatchEventBody | null>>;

/** The match after an append, and the fold step of the appended event (null when the plan recorded nothing). */
export interface Appended {
  match: HostedMatch;
  step: FoldStep | null;
}

/** Cached, store-backed match logs with validate-then-append (see the file comment); {@link MAX_APPEND_ATTEMPTS} conflicts in a row give `busy`. */
export class MatchLog {
  /** Per-match lock: hold it around refresh/append sequences. */
  readonly mutex = new KeyedMutex();
  private readonly cache = new Map<string, HostedMatch>();

  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  /** Clock time as the ISO timestamp stored in events. */
  nowIso(): string {
    return new Date(this.clock.now()).toISOString();
  }

  /** The cached fold of a match (possibly behind the store), or null. */
  cached(id: string): HostedMatch | null {
    return this.cache.get(id) ?? null;
  }

  /** Fold the events appended since the cached lastSeq (all of them the first time); null for an empty log. */
  async refresh(id: string): Promise<HostedMatch | null> {
    const cur = this.cache.get(id) ?? null;
    const events = await this.store.load(id, cur?.lastSeq ?? 0);
    if (events.length === 0) return cur;
    const next = replay(events, cur);
    if (next) this.cache.set(id, next);
    return next;
  }

  /** Append the first event (match_created) of a new match record. */
  async init(id: string, body: Extract<MatchEventBody, { type: 'match_created' }>): Promise<HostedMatch> {
    const res = await this.store.append(id, 0, body, this.nowIso());
    if (!res.ok) throw new Error(`cannot start the log of match ${id}: ${res.code}`);
    const m = applyEvent(null, res.event).match;
    this.cache.set(id, m);
    return m;
  }

  /**
   * Validate with `plan` against the freshest known match and append its event; on conflict refresh and
   * re-plan (≤ {@link MAX_APPEND_ATTEMPTS}). Errors: the plan's, `no_match`, or `busy`. Bodies are
   * JSON-normalised first so the live fold applies exactly what replay will read back.
   */
  async append(id: string, plan: Plan): Promise<HostResult<Appended>> {
    for (let attempt = 0; attempt < MAX_APPEND_ATTEMPTS; attempt++) {
      const m = this.cache.get(id) ?? (await this.refresh(id));
      if (!m) return fail('no_match', 'This match does not exist.');
      const planned = await plan(m);
      if (!planned.ok) return planned;
      if (planned.value === null) return ok({ match: m, step: null });
      const body = toJson(planned.value) as MatchEventBody;
      const res = await this.store.append(id, m.lastSeq, body, this.nowIso());
      if (res.ok) {
        const step = applyEvent(m, res.event);
        this.cache.set(id, step.match);
        return ok({ match: step.match, step });
      }
      if (res.code !== 'conflict') throw new Error(`store rejected an event of match ${id}: ${res.code}`);
      await this.refresh(id);
    }
    return fail('busy', 'The match is busy (many simultaneous commands); please try again.');
  }
}
