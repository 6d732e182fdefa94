/**
 * The leaderboard as chat text and markdown (pure). In chat people are shown by display name; exports
 * (format.ts) pass a `name` function that shows pseudonyms instead. Rows come in rank order
 * (leaderboard.ts `rankRows`), with the numbers every other surface shows.
 */
import { MIN_BOOTSTRAP_MATCHES } from './intervals.js';
import type { Leaderboard } from './leaderboard.js';
import type { LoadedResults } from './load.js';
import type { PeopleAggregate, PeopleVsModel, PlayerRef, RatedPlayer } from './types.js';

/** How a player is named in a table. */
export type NameOf = (p: PlayerRef) => string;

const KIND: Record<PlayerRef['kind'], string> = { person: 'person', llm: 'LLM', scripted: 'scripted' };

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const round = (x: number) => x.toFixed(0);
const pct = (x: number) => `${Math.round(x * 100)}%`;

/** How the ratings, their intervals and the ranking are made, in one paragraph (chat, markdown, web). */
export const RATING_METHOD =
  'Rating: Bradley–Terry over every pair of seats of each match (1000 = the table’s average player). ' +
  `[95% interval]: from the model (observed Fisher information with a one-game prior) while a player has fewer than ${MIN_BOOTSTRAP_MATCHES} matches (marked preliminary), ` +
  'then a bootstrap over matches. Ranked by the interval’s lower bound (what the data say a player is at least).';

/** "Ada (person) 1174 [1083, 1297] · preliminary · 12 matches · μ−3σ 8.1", numbered by rank. */
export function ratingLine(r: RatedPlayer, name: NameOf): string {
  return `${r.rank}. ${name(r.player)} (${KIND[r.player.kind]}) **${round(r.rating)}** [${round(r.lo)}, ${round(r.hi)}]${r.preliminary ? ' · preliminary' : ''} · ${plural(r.matches, 'match', 'matches')} · μ−3σ ${r.ordinal.toFixed(1)}`;
}

/** "People (all 3 persons as one player) 1043 [950, 1130] · preliminary · 4 matches with a model or policy". */
export function peopleLine(p: PeopleAggregate): string {
  return `People (all ${plural(p.persons, 'person', 'persons')} as one player) **${round(p.rating)}** [${round(p.lo)}, ${round(p.hi)}]${p.preliminary ? ' · preliminary' : ''} · ${plural(p.matches, 'match', 'matches')} with a model or policy`;
}

/** "vs rule_based_expert (scripted) 38% [20%, 55%] (14 pairs in 9 matches)". */
export function vsLine(v: PeopleVsModel, name: NameOf): string {
  return `vs ${name(v.opponent)} (${KIND[v.opponent.kind]}) ${pct(v.winRate)} [${pct(v.lo)}, ${pct(v.hi)}] (${plural(v.pairs, 'pair')} in ${plural(v.matches, 'match', 'matches')})`;
}

/** The "people vs models" lines: the people aggregate, then people's win rate against each non-person player, or why there is none. */
export function peopleVsModelsText(t: Leaderboard, name: NameOf): string {
  if (t.peopleVsModels.length === 0) return 'No person has played a model or scripted policy yet.';
  return [...(t.people ? [peopleLine(t.people)] : []), ...t.peopleVsModels.map((v) => vsLine(v, name))].join('\n');
}

/** The table as markdown (the CLI's `--format md`). */
export function leaderboardMarkdown(t: Leaderboard, name: NameOf): string {
  const cell = (r: { rating: number; lo: number; hi: number; preliminary: boolean }) =>
    `| ${round(r.rating)} | [${round(r.lo)}, ${round(r.hi)}] | ${r.preliminary ? 'preliminary' : ''} |`;
  const p = t.people;
  const lines = [
    `## Ratings${t.task ? ` — ${t.task}` : ''} (${plural(t.matches, 'match', 'matches')}, ${t.kind})`,
    '',
    `${RATING_METHOD} μ − 3σ: the live openskill rating.`,
    '',
    '| # | player | kind | rating | 95 % interval | | matches | μ − 3σ |',
    '|---:|---|---|---:|---|---|---:|---:|',
    ...t.rows.map(
      (r) =>
        `| ${r.rank} | ${name(r.player)} | ${KIND[r.player.kind]} ${cell(r)} ${r.matches} | ${r.ordinal.toFixed(2)} |`,
    ),
    ...(p
      ? [
          `| — | people (all ${plural(p.persons, 'person', 'persons')} as one player) | people ${cell(p)} ${p.matches} | |`,
        ]
      : []),
    '',
    "**People vs models** (people's win rate per match against each model or policy, ties ½, Clopper–Pearson 95 % interval over matches):",
    '',
    ...peopleVsModelsText(t, name)
      .split('\n')
      .map((l) => `- ${l}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** Why a finished match did not count, as a reader reads it. */
const EXCLUDED_TEXT: Record<keyof LoadedResults['excluded'], string> = {
  not_started: 'never started',
  not_over: 'still running',
  ended_by_host: 'ended early by the host',
  person_left_early: 'a person left before round 1 closed',
  host_seeded: 'seeded by the host (practice; config data.includeSeeded counts them)',
  corrupt_log: 'unreadable log',
  old_rules: 'played under older rules',
};

/** "3 finished matches did not count: 2 seeded by the host (…), 1 ended early by the host." ('' when none). */
export function excludedLine(excluded: LoadedResults['excluded']): string {
  const parts = Object.entries(excluded).filter(([, n]) => (n ?? 0) > 0) as [keyof typeof EXCLUDED_TEXT, number][];
  const total = parts.reduce((a, [, n]) => a + n, 0);
  if (total === 0) return '';
  return `${total} finished match${total === 1 ? '' : 'es'} did not count: ${parts.map(([k, n]) => `${n} ${EXCLUDED_TEXT[k]}`).join(', ')}.`;
}
