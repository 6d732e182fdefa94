/**
 * The rating change shown with a match's final post (RoundHostOptions.onMatchOver): each player's live
 * openskill ordinal (μ − 3σ, overall table) before and after this match. Matches that do not count get no post.
 */
import type { Post, Reply } from '../../chat/types.js';
import { seatLabel } from '../../present/common.js';
import type { HostedMatch } from '../../match/types.js';
import { loaderFor, type ResultsSource } from './load.js';

/** One decimal, never "-0.0": a value that rounds to zero is 0.0 (a minus sign would say it is below 0). */
const one = (x: number): string => {
  const t = x.toFixed(1);
  return t === '-0.0' ? '0.0' : t;
};
/** One decimal with its sign: "+1.8", "-0.4", "+0.0". */
const signed = (x: number): string => (one(x).startsWith('-') ? one(x) : `+${one(x)}`);

/**
 * The post of `m`'s rating changes, from every counted finished match in `store` (null when `m` does not
 * count: e.g. its host chose the seed and `includeSeeded` is off, config `data.includeSeeded`).
 */
export async function ratingChangePost(
  store: ResultsSource,
  m: HostedMatch,
  scope: { includeSeeded: boolean },
): Promise<Post | null> {
  const { results } = await loaderFor(store).load({}, scope);
  if (!results.some((r) => r.matchId === m.id)) return null;
  const { liveRatings } = await import('./openskill.js'); // openskill + ramda (~24 MB) only when a match ends
  const rows = liveRatings(results).history.filter((h) => h.matchId === m.id);
  if (rows.length === 0) return null;
  const labOf = new Map(results.find((r) => r.matchId === m.id)!.seats.map((s) => [s.player.id, s.lab]));
  const lines = rows.map((h) => {
    const d = h.after.ordinal - h.before.ordinal;
    const who = labOf.get(h.player.id);
    return `${who ? seatLabel(m, who) : h.player.name}: ${one(h.before.ordinal)} → ${one(h.after.ordinal)} (${signed(d)})`;
  });
  return {
    title: 'Rating changes',
    text: `${lines.join('\n')}\nRating = openskill μ − 3σ over every counted match (\`leaderboard\` shows the table).`,
  };
}

/** A RoundHostOptions.onMatchOver that posts the rating changes (host-seeded matches counted only with `includeSeeded`). */
export function ratingChangeHook(
  store: ResultsSource,
  scope: { includeSeeded: boolean },
): (m: HostedMatch) => Promise<Reply | null> {
  return async (m) => {
    const post = await ratingChangePost(store, m, scope);
    return post ? { public: [post], private: [] } : null;
  };
}
