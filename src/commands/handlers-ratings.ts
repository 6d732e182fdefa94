/**
 * Ratings and charts: `leaderboard` (ratings across finished matches, public) and `chart` (the
 * running match's standings over the rounds, public view only).
 */
import { z } from 'zod';
import { ratingsChart } from '../analytics/charts/requests.js';
import { standingsChart } from '../present/charts.js';
import { publicReply } from '../chat/reply.js';
import { TASK_NAMES, type TaskName } from '../engine/types.js';
import { loaderFor } from '../analytics/ratings/load.js';
import { excludedLine, peopleVsModelsText, RATING_METHOD, ratingLine } from '../analytics/ratings/text.js';
import { playerText } from '../chat/player-text.js';
import { defineCommand, type CommandDefinition } from './definition.js';
import { dataPolicyOf } from './context.js';
import { matchExists, running } from './preconditions.js';

/** Rows `leaderboard` shows. */
export const LEADERBOARD_TOP = 10;

const KIND_TEXT = { people: 'people', models: 'models and scripted policies', all: 'everyone' } as const;

/** `leaderboard [task:] [kind:]`: the top 10 with intervals and matches played, a ratings chart, and people as one player and against each model. */
export const leaderboard = defineCommand(
  'leaderboard',
  z.object({
    task: z.enum(TASK_NAMES as [TaskName, ...TaskName[]]).optional(),
    kind: z.enum(['people', 'models', 'all']).optional(),
  }),
  [],
  async (ctx, o) => {
    const { results, excluded } = await loaderFor(ctx.host.eventStore).load(
      {},
      { includeSeeded: dataPolicyOf(ctx.host).includeSeeded },
    );
    const kind = o.kind ?? 'all';
    const { buildLeaderboard } = await import('../analytics/ratings/leaderboard.js'); // openskill loads on first use
    const table = buildLeaderboard(results, { ...(o.task ? { task: o.task } : {}), kind, top: LEADERBOARD_TOP });
    const scope = `${o.task ?? 'all tasks'}, ${KIND_TEXT[kind]}`;
    const left = excludedLine(excluded);
    if (table.rows.length === 0) {
      return publicReply({
        title: `Leaderboard (${scope})`,
        text: `No counted match yet. Finish a match to get rated.${left ? `\n${left}` : ''}`,
      });
    }
    // People's display names and model names are untrusted text: shown as written, never as markup or mentions.
    const name = (p: { name: string }) => playerText(p.name);
    return publicReply({
      title: `Leaderboard (${scope}): ${table.matches} match${table.matches === 1 ? '' : 'es'}`,
      text: [
        ...table.rows.map((r) => ratingLine(r, name)),
        '',
        `${RATING_METHOD} μ−3σ: the live openskill rating.`,
        ...(left ? [left] : []),
      ].join('\n'),
      fields: [
        {
          name: "People as one player, and people's win rate against each model (per match, ties ½, 95% interval)",
          value: peopleVsModelsText(table, name),
        },
      ],
      charts: [ratingsChart(table.rows, `Ratings (${scope}, ${table.matches} matches)`, undefined, table.people)],
    });
  },
);

/** `chart`: the running match's standings over its closed rounds (public values only). */
export const chart = defineCommand('chart', z.object({}), [matchExists, running], async (ctx) => {
  const m = ctx.match!;
  const req = standingsChart(m);
  if (req.rows.length === 0)
    return publicReply({ title: 'Standings chart', text: 'No round has closed yet: the chart starts after round 1.' });
  return publicReply({
    title: 'Standings over the rounds',
    text: `Cumulative reward per seat after each closed round (${m.standings?.length ?? 0} so far).`,
    charts: [req],
  });
});

/** The ratings commands, in catalogue order. */
export const RATING_COMMANDS: readonly CommandDefinition[] = [leaderboard, chart];
