/**
 * Versions of the results the ratings and preference pages are drawn from: a string that changes whenever
 * a rendered page could change, and only then (render-cache.ts keys its answers with it).
 *
 * - **Ratings** come from finished matches only, and a finished match's result never changes (its status
 *   moves only forward and the ratings loader keeps each result for good): the number of matches with
 *   status `over` is the version. One query.
 * - **Preference data** reads every match whose ballots are all closed: its closed rounds (pitches, judge
 *   scores), its ballots and their votes. A match that is over with every ballot closed is *settled*: nothing
 *   is appended to it any more (votes are taken only while a ballot is open), so it is counted and never
 *   read again. Each other match adds its phase, closed rounds and the open/closed state of each ballot,
 *   from the page's match cache (which reads only the events it has not seen).
 */
import type { EventStore } from '../store/types.js';
import type { MatchCache } from './cache.js';

/** The ratings' version: how many matches are over. */
export async function ratingsVersion(store: Pick<EventStore, 'listMatches'>): Promise<string> {
  return `r${(await store.listMatches({ status: 'over' })).length}`;
}

/** The preference data's version (see the file comment); remembers settled matches. */
export class PreferenceVersion {
  private readonly settled = new Set<string>();

  constructor(
    private readonly store: Pick<EventStore, 'listMatches'>,
    private readonly cache: Pick<MatchCache, 'get'>,
  ) {}

  async current(): Promise<string> {
    const open: string[] = [];
    for (const rec of await this.store.listMatches()) {
      if (this.settled.has(rec.id)) continue;
      const m = (await this.cache.get(rec.id))?.match;
      if (!m) {
        open.push(`${rec.id}:-`);
        continue;
      }
      if (rec.status === 'over' && m.phase === 'over' && m.ballots.every((b) => b.closed !== null)) {
        this.settled.add(rec.id);
        continue;
      }
      open.push(
        `${rec.id}:${m.phase}:${m.standings?.length ?? 0}:${m.ballots.map((b) => (b.closed ? 'c' : 'o')).join('')}`,
      );
    }
    return `p${this.settled.size}|${open.join('|')}`;
  }
}
