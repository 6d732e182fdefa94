/**
 * Which matches and votes statistics and exports use: the one place that decides it, so `npm run stats`,
 * `/arena stats`, the web pages and every export agree. By default: no match its host seeded (practice, config
 * `data.includeSeeded` includes them; src/match/data-policy.ts), and only votes on anonymous ballot pairs
 * (neither pitch, as shown, still identified its author: src/voting/ballots/blind.ts); `includeIdentifying`
 * keeps the rest (`--include-identifying` on the command lines). Pure.
 */
import { countsForResearch } from '../../match/data-policy.js';
import type { MatchData } from './dataset.js';

/** What to keep. Every entry point builds one from its options and the deployment's data policy. */
export interface VoteSelection {
  /** Keep votes whose ballot pair still identified an author after redaction (default false). */
  includeIdentifying: boolean;
  /** Keep matches whose host chose the seed (config `data.includeSeeded`; default false). */
  includeSeeded: boolean;
}

/** The default: no host-seeded match, anonymous votes only. */
export const DEFAULT_SELECTION: VoteSelection = { includeIdentifying: false, includeSeeded: false };

/** How many votes there were, how many were on identifying pairs, and how many the selection kept. */
export interface SelectionSummary {
  includeIdentifying: boolean;
  includeSeeded: boolean;
  /** Matches left out because their host chose the seed. */
  seededMatches: number;
  /** Votes of the kept matches before selection. */
  votes: number;
  /** Of those, votes whose pair still identified an author after redaction. */
  identifying: number;
  /** Votes kept (all, or the anonymous ones). */
  kept: number;
}

/** The matches `sel` keeps (every source: people's votes, the judge's labels, demonstrations). */
export function selectMatchData(matches: readonly MatchData[], sel: VoteSelection): MatchData[] {
  return matches.filter((m) => countsForResearch({ hostSeeded: m.hostSeeded }, sel.includeSeeded));
}

/** The matches `sel` keeps, each with only the selected votes, and what was left out. */
export function selectVotes(
  all: readonly MatchData[],
  sel: VoteSelection = DEFAULT_SELECTION,
): { matches: MatchData[]; summary: SelectionSummary } {
  const kept = selectMatchData(all, sel);
  let votes = 0;
  let identifying = 0;
  let keptVotes = 0;
  const out = kept.map((m) => {
    votes += m.votes.length;
    identifying += m.votes.filter((v) => !v.anonymous).length;
    const keep = sel.includeIdentifying ? m.votes : m.votes.filter((v) => v.anonymous);
    keptVotes += keep.length;
    return keep.length === m.votes.length ? m : { ...m, votes: keep };
  });
  return {
    matches: out,
    summary: {
      includeIdentifying: sel.includeIdentifying,
      includeSeeded: sel.includeSeeded,
      seededMatches: all.length - kept.length,
      votes,
      identifying,
      kept: keptVotes,
    },
  };
}
