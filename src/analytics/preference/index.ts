/**
 * Preference data: folding matches into labelled pitch pairs, exports (trl, openai-dpo,
 * jsonl, SFT demonstrations) and agreement statistics. {@link statsForMatches} and {@link formatStats}
 * serve `/arena stats` and `npm run stats`.
 */
import type { EventStore, MatchRecord } from '../../store/types.js';
import { foldMatch, type MatchData } from './dataset.js';
import { computeStats, DEFAULT_STATS_OPTIONS, type PreferenceStats } from './stats.js';
import { DEFAULT_SELECTION, type VoteSelection } from './selection.js';

export { formatStats } from './format-stats.js';
export {
  computeStats,
  DEFAULT_STATS_OPTIONS,
  type PreferenceStats,
  type AgreementStats,
  type GroupStats,
} from './stats.js';
export { foldMatch, type MatchData } from './dataset.js';
export { preferenceRows } from './export-votes.js';
export {
  DEFAULT_SELECTION,
  selectMatchData,
  selectVotes,
  type SelectionSummary,
  type VoteSelection,
} from './selection.js';
export { sftRows } from './export-sft.js';

/** Load and fold one stored match with its votes; null when the match or its log is missing. */
export async function loadMatchData(
  store: Pick<EventStore, 'load' | 'listVotes'>,
  matchId: string,
  since?: string,
): Promise<MatchData | null> {
  const [events, votes] = await Promise.all([
    store.load(matchId),
    store.listVotes({ matchId, ...(since ? { since } : {}) }),
  ]);
  return foldMatch(events, votes);
}

/**
 * The matches a stats or export request covers: `matchId` → that match (any status); `channelId` → the
 * channel's finished matches; neither → every match. Optional `since` (ISO) keeps matches created since.
 */
export async function selectMatches(
  store: Pick<EventStore, 'getMatch' | 'listMatches'>,
  filter: { matchId?: string; channelId?: string; since?: string },
): Promise<MatchRecord[]> {
  if (filter.matchId) {
    const m = await store.getMatch(filter.matchId);
    return m ? [m] : [];
  }
  return store.listMatches({
    ...(filter.channelId ? { channelId: filter.channelId, status: 'over' as const } : {}),
    ...(filter.since ? { since: filter.since } : {}),
  });
}

/**
 * Preference statistics of a match (`matchId`), of a channel's finished matches (`channelId`), or of every
 * match (neither), over the votes `selection` keeps (anonymous ones by default). Seeded
 * ({@link DEFAULT_STATS_OPTIONS}), so the same data gives the same report.
 * Rejects only when the store does (e.g. StoreError `corrupt_event`).
 */
export async function statsForMatches(
  store: EventStore,
  filter: { matchId?: string; channelId?: string },
  selection: VoteSelection = DEFAULT_SELECTION,
): Promise<PreferenceStats> {
  const records = await selectMatches(store, filter);
  const data: MatchData[] = [];
  for (const r of records) {
    const d = await loadMatchData(store, r.id);
    if (d) data.push(d);
  }
  return computeStats(data, { ...DEFAULT_STATS_OPTIONS, selection });
}
