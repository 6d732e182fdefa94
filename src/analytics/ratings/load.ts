/**
 * Reading finished matches from the event store (the thin I/O shell around the pure ratings): every match
 * with status `over`, its log folded into a {@link MatchResult} (or left out, with the reason). A finished
 * log never changes, so results are cached per match id.
 */
import type { EventStore, MatchFilter } from '../../store/types.js';
import { isCounted, matchResult } from './results.js';
import type { ExclusionReason, MatchResult } from './types.js';

/** The part of the event store the ratings read. */
export type ResultsSource = Pick<EventStore, 'listMatches' | 'load'>;

/** What {@link ResultsLoader.load} returns: counted results oldest first, and how many were left out and why. */
export interface LoadedResults {
  results: MatchResult[];
  excluded: Partial<Record<ExclusionReason | 'corrupt_log' | 'old_rules', number>>;
}

/** Loads and caches match results from a store. */
export class ResultsLoader {
  private readonly cache = new Map<string, MatchResult | { excluded: ExclusionReason | 'corrupt_log' | 'old_rules' }>();
  constructor(private readonly store: ResultsSource) {}

  /** Counted results of finished matches matching `filter` (status is always `over`), oldest first. */
  async load(filter: Omit<MatchFilter, 'status'> = {}): Promise<LoadedResults> {
    const records = await this.store.listMatches({ ...filter, status: 'over' });
    const results: MatchResult[] = [];
    const excluded: LoadedResults['excluded'] = {};
    for (const rec of records) {
      let r = this.cache.get(rec.id);
      if (!r) {
        try {
          r = matchResult(await this.store.load(rec.id));
        } catch (err) {
          // A log that cannot be folded (or was played under older engine rules) is left out of the ratings rather than breaking every table.
          r = { excluded: (err as { code?: unknown }).code === 'old_rules' ? 'old_rules' : 'corrupt_log' };
        }
        this.cache.set(rec.id, r);
      }
      if ('excluded' in r) excluded[r.excluded] = (excluded[r.excluded] ?? 0) + 1;
      else if (isCounted(r)) results.push(r);
    }
    return { results, excluded };
  }
}

const loaders = new WeakMap<ResultsSource, ResultsLoader>();

/** The shared loader of a store (one cache per store object, for every command and hook of a process). */
export function loaderFor(store: ResultsSource): ResultsLoader {
  let l = loaders.get(store);
  if (!l) loaders.set(store, (l = new ResultsLoader(store)));
  return l;
}
