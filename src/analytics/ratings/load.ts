/**
 * Reading finished matches from the event store (the thin I/O shell around the pure ratings): every match
 * with status `over`, its log folded into a {@link MatchResult} (or left out, with the reason). A finished
 * log never changes, so results are cached per match id. Matches seeded by their host are left out
 * (`host_seeded`) unless the caller includes them (config `data.includeSeeded`, src/match/data-policy.ts).
 */
import type { EventStore, MatchFilter } from '../../store/types.js';
import { countsForResearch } from '../../match/data-policy.js';
import { matchResult } from './results.js';
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

  /**
   * Counted results of finished matches matching `filter` (status is always `over`), oldest first.
   * `includeSeeded`: also matches whose host chose the seed (every entry point passes config `data.includeSeeded`).
   */
  async load(filter: Omit<MatchFilter, 'status'>, scope: { includeSeeded: boolean }): Promise<LoadedResults> {
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
      const reason = 'excluded' in r ? r.excluded : countsForResearch(r, scope.includeSeeded) ? null : 'host_seeded';
      if (reason !== null) excluded[reason] = (excluded[reason] ?? 0) + 1;
      else results.push(r as MatchResult);
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
