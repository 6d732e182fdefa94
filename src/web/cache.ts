/**
 * The web process's read-only view of the store: each match's events and its fold, refreshed
 * incrementally (only events after the last seen seq are read), one refresh at a time per match.
 * The web page never appends: the bots own the logs; a web fault cannot change a match. The one rewrite of a
 * log, an erasure (a person's words tombstoned, docs/PREFERENCE-DATA.md#consent-and-erasure), keeps its seqs,
 * so every refresh compares the erasure log's length with the last one seen and drops every entry when it grew.
 */
import { replay } from '../match/replay.js';
import type { HostedMatch, StoredEvent } from '../match/types.js';
import type { EventStore, MatchRecord } from '../store/types.js';

/** A match as the page reads it. `match` is null for an empty log or one that cannot be folded (`error`). */
export interface LoadedMatch {
  record: MatchRecord;
  events: StoredEvent[];
  match: HostedMatch | null;
  error: string | null;
}

/** Caches folded matches (see the file comment); at most `max` matches are kept, least recently used dropped. */
export class MatchCache {
  private readonly entries = new Map<string, LoadedMatch>();
  private readonly pending = new Map<string, Promise<LoadedMatch | null>>();
  /** Erasures seen when the entries were read (-1 = not read yet). */
  private erasures = -1;

  constructor(
    private readonly store: EventStore,
    private readonly max = 500,
  ) {}

  /** The match with its events up to now, or null when unknown. Rejects only when the store does. */
  get(id: string): Promise<LoadedMatch | null> {
    let p = this.pending.get(id);
    if (!p) {
      p = this.refresh(id).finally(() => this.pending.delete(id));
      this.pending.set(id, p);
    }
    return p;
  }

  private async refresh(id: string): Promise<LoadedMatch | null> {
    const record = await this.store.getMatch(id);
    if (!record) return null;
    const erasures = (await this.store.listErasures()).length;
    if (erasures !== this.erasures) {
      this.entries.clear();
      this.erasures = erasures;
    }
    const cur = this.entries.get(id);
    const after = cur?.events.at(-1)?.seq ?? 0;
    const fresh = await this.store.load(id, after);
    let next: LoadedMatch;
    if (cur && fresh.length === 0) next = { ...cur, record };
    else {
      const events = cur ? [...cur.events, ...fresh] : fresh;
      try {
        next = {
          record,
          events,
          match: cur?.match && !cur.error ? replay(fresh, cur.match) : replay(events),
          error: null,
        };
      } catch (e) {
        next = { record, events, match: null, error: e instanceof Error ? e.message : String(e) };
      }
    }
    this.entries.delete(id);
    this.entries.set(id, next);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    return next;
  }

  /** The newest `limit` matches (newest first), each loaded. */
  async newest(limit: number): Promise<LoadedMatch[]> {
    const all = await this.store.listMatches();
    const out: LoadedMatch[] = [];
    for (const rec of all.slice(-limit).reverse()) {
      const m = await this.get(rec.id);
      if (m) out.push(m);
    }
    return out;
  }
}
