/**
 * Exports of the ratings (pure): the table as markdown, JSON or CSV and the history as JSON lines. People
 * appear only as pseudonyms (`u_…`, src/analytics/preference/pseudonym.ts), never by platform id or display name;
 * models and scripted policies by name. Every exported row is parsed with zod before it is written.
 */
import { z } from 'zod';
import type { Leaderboard } from './leaderboard.js';
import { leaderboardMarkdown, RATING_METHOD, type NameOf } from './text.js';
import type { HistoryRow, PlayerRef } from './types.js';

/** Maps a platform-qualified user id to its pseudonym. */
export type Pseudonymize = (userId: string) => string;

/** The exported name of a player: a person's pseudonym, else the model or policy name. */
export function exportName(p: PlayerRef, pseudo: Pseudonymize): string {
  return p.kind === 'person' ? pseudo(p.id.slice('person:'.length)) : p.name;
}

const num = z.number().finite();
/**
 * One exported table row, in rank order. The people aggregate (every person as one player) is the last
 * row of a CSV with kind `people`, no rank and no openskill values; JSON carries it as `people`.
 */
export const ExportRowSchema = z.object({
  rank: z.number().int().positive().nullable(),
  player: z.string(),
  kind: z.enum(['person', 'llm', 'scripted', 'people']),
  rating: num,
  lo: num,
  hi: num,
  interval: z.enum(['bootstrap', 'model']),
  preliminary: z.boolean(),
  matches: z.number().int().nonnegative(),
  mu: num.nullable(),
  sigma: num.nullable(),
  ordinal: num.nullable(),
});
/** One exported history row (`--history --format jsonl`). */
export const HistoryExportSchema = z.object({
  matchId: z.string(),
  task: z.string(),
  endedAt: z.string(),
  player: z.string(),
  kind: z.enum(['person', 'llm', 'scripted']),
  rank: z.number().int().positive(),
  reward: num,
  before: z.object({ mu: num, sigma: num, ordinal: num }),
  after: z.object({ mu: num, sigma: num, ordinal: num }),
});

/** The table's rows as exported, in rank order. */
export function exportRows(t: Leaderboard, pseudo: Pseudonymize): z.infer<typeof ExportRowSchema>[] {
  return t.rows.map((r) =>
    ExportRowSchema.parse({
      rank: r.rank,
      player: exportName(r.player, pseudo),
      kind: r.player.kind,
      rating: r.rating,
      lo: r.lo,
      hi: r.hi,
      interval: r.interval,
      preliminary: r.preliminary,
      matches: r.matches,
      mu: r.mu,
      sigma: r.sigma,
      ordinal: r.ordinal,
    }),
  );
}

/** The people aggregate as an export row (no rank, no openskill values), or null. */
export function peopleRow(t: Leaderboard): z.infer<typeof ExportRowSchema> | null {
  const p = t.people;
  return p
    ? ExportRowSchema.parse({
        rank: null,
        player: 'people (all persons)',
        kind: 'people',
        rating: p.rating,
        lo: p.lo,
        hi: p.hi,
        interval: p.interval,
        preliminary: p.preliminary,
        matches: p.matches,
        mu: null,
        sigma: null,
        ordinal: null,
      })
    : null;
}

/** The table in `format` (md, json or csv), ending in a newline. */
export function formatLeaderboard(t: Leaderboard, format: 'md' | 'json' | 'csv', pseudo: Pseudonymize): string {
  const name: NameOf = (p) => exportName(p, pseudo);
  if (format === 'md') return leaderboardMarkdown(t, name);
  const rows = exportRows(t, pseudo);
  const people = peopleRow(t);
  if (format === 'json') {
    const vs = t.peopleVsModels.map((v) => ({
      opponent: name(v.opponent),
      kind: v.opponent.kind,
      winRate: v.winRate,
      lo: v.lo,
      hi: v.hi,
      pairs: v.pairs,
      matches: v.matches,
    }));
    const p = t.people ? { ...people, persons: t.people.persons } : null;
    return `${JSON.stringify({ task: t.task, kind: t.kind, matches: t.matches, method: RATING_METHOD, rows, people: p, peopleVsModels: vs }, null, 2)}\n`;
  }
  const cols = Object.keys(ExportRowSchema.shape) as (keyof z.infer<typeof ExportRowSchema>)[];
  const cell = (v: string | number | boolean | null) =>
    v === null
      ? ''
      : typeof v === 'number'
        ? String(Number(v.toFixed(6)))
        : typeof v === 'boolean'
          ? String(v)
          : /[",\n]/.test(v)
            ? `"${v.replace(/"/g, '""')}"`
            : v;
  return `${[cols.join(','), ...[...rows, ...(people ? [people] : [])].map((r) => cols.map((c) => cell(r[c])).join(','))].join('\n')}\n`;
}

/** The history as JSON lines: one row per match and player, openskill before/after. */
export function formatHistory(rows: readonly HistoryRow[], pseudo: Pseudonymize): string {
  return rows
    .map((h) =>
      JSON.stringify(
        HistoryExportSchema.parse({
          matchId: h.matchId,
          task: h.task,
          endedAt: h.endedAt,
          player: exportName(h.player, pseudo),
          kind: h.player.kind,
          rank: h.rank,
          reward: h.reward,
          before: h.before,
          after: h.after,
        }),
      ),
    )
    .map((l) => `${l}\n`)
    .join('');
}
