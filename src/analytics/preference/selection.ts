/**
 * Which votes statistics and exports use: the one place that decides it, so `npm run stats`, `/arena stats`,
 * the web pages and every export agree. By default only votes on anonymous ballot pairs (neither pitch, as
 * shown, still identified its author: src/voting/ballots/blind.ts); `includeIdentifying` keeps the rest
 * (`--include-identifying` on the command lines). Pure.
 */
import type { MatchData } from './dataset.js';

/** What to keep. Later rules (e.g. consent) belong here too, so every path keeps applying one selection. */
export interface VoteSelection {
  /** Keep votes whose ballot pair still identified an author after redaction (default false). */
  includeIdentifying: boolean;
}

/** The default: anonymous votes only. */
export const DEFAULT_SELECTION: VoteSelection = { includeIdentifying: false };

/** How many votes there were, how many were on identifying pairs, and how many the selection kept. */
export interface SelectionSummary {
  includeIdentifying: boolean;
  /** Votes of the matches before selection. */
  votes: number;
  /** Of those, votes whose pair still identified an author after redaction. */
  identifying: number;
  /** Votes kept (all, or the anonymous ones). */
  kept: number;
}

/** `matches` with only the selected votes, and what was left out. */
export function selectVotes(matches: readonly MatchData[], sel: VoteSelection = DEFAULT_SELECTION): { matches: MatchData[]; summary: SelectionSummary } {
  let votes = 0;
  let identifying = 0;
  let kept = 0;
  const out = matches.map((m) => {
    votes += m.votes.length;
    identifying += m.votes.filter((v) => !v.anonymous).length;
    const keep = sel.includeIdentifying ? m.votes : m.votes.filter((v) => v.anonymous);
    kept += keep.length;
    return keep.length === m.votes.length ? m : { ...m, votes: keep };
  });
  return { matches: out, summary: { includeIdentifying: sel.includeIdentifying, votes, identifying, kept } };
}
