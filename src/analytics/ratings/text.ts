/**
 * The leaderboard as chat text and markdown (pure). In chat people are shown by display name; exports
 * (format.ts) pass a `name` function that shows pseudonyms instead.
 */
import type { Leaderboard } from './leaderboard.js';
import type { PeopleVsModel, PlayerRef, RatedPlayer } from './types.js';

/** How a player is named in a table. */
export type NameOf = (p: PlayerRef) => string;

const KIND: Record<PlayerRef['kind'], string> = { person: 'person', llm: 'LLM', scripted: 'scripted' };

/** "Ada (person) 1174 [1083, 1297] · 12 matches · μ−3σ 8.1". */
export function ratingLine(r: RatedPlayer, i: number, name: NameOf): string {
  return `${i + 1}. ${name(r.player)} (${KIND[r.player.kind]}) **${r.rating.toFixed(0)}** [${r.lo.toFixed(0)}, ${r.hi.toFixed(0)}] · ${r.matches} match${r.matches === 1 ? '' : 'es'} · μ−3σ ${r.ordinal.toFixed(1)}`;
}

/** "vs rule_based_expert 38% [20%, 55%] (14 pairs in 9 matches)". */
export function vsLine(v: PeopleVsModel, name: NameOf): string {
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  return `vs ${name(v.opponent)} (${KIND[v.opponent.kind]}) ${pct(v.winRate)} [${pct(v.lo)}, ${pct(v.hi)}] (${v.pairs} pair${v.pairs === 1 ? '' : 's'} in ${v.matches} match${v.matches === 1 ? '' : 'es'})`;
}

/** The "people vs models" line: people's mean win rate against each non-person player, or why there is none. */
export function peopleVsModelsText(t: Leaderboard, name: NameOf): string {
  if (t.peopleVsModels.length === 0) return 'No person has played a model or scripted policy yet.';
  return t.peopleVsModels.map((v) => vsLine(v, name)).join('\n');
}

/** The table as markdown (the CLI's `--format md`). */
export function leaderboardMarkdown(t: Leaderboard, name: NameOf): string {
  const lines = [
    `## Ratings${t.task ? ` — ${t.task}` : ''} (${t.matches} match${t.matches === 1 ? '' : 'es'}, ${t.kind})`,
    '',
    'Bradley–Terry rating (1000 + 400·log10 strength) with a bootstrap 95 % interval; live openskill ordinal μ − 3σ.',
    '',
    '| # | player | kind | rating | 95 % interval | matches | μ − 3σ |',
    '|---:|---|---|---:|---|---:|---:|',
    ...t.rows.map((r, i) => `| ${i + 1} | ${name(r.player)} | ${KIND[r.player.kind]} | ${r.rating.toFixed(0)} | [${r.lo.toFixed(0)}, ${r.hi.toFixed(0)}] | ${r.matches} | ${r.ordinal.toFixed(2)} |`),
    '',
    '**People vs models** (people\'s mean win rate per pair of seats, ties ½, bootstrap 95 % interval):',
    '',
    ...peopleVsModelsText(t, name).split('\n').map((l) => `- ${l}`),
  ];
  return `${lines.join('\n')}\n`;
}
