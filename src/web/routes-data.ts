/**
 * Routes of the ratings and the preference data: `/leaderboard` (+ `.csv`, `.json`, `/leaderboard/ratings.png`),
 * `/preferences` (+ `/preferences/chart.png`) and `/preferences/export` (labelled pairs; only with
 * `Authorization: Bearer <web.adminToken>`, never public).
 *
 * The public statistics leave out every match with a ballot that has not closed (its judge verdicts are not
 * public yet, and agreement numbers would hint at them); with no ballot open they are the numbers of
 * `npm run stats`.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { preferenceChartSpec } from '../analytics/preference/chart.js';
import { PreferenceFormatSchema, SourceSchema } from '../analytics/preference/formats.js';
import { computeStats, DEFAULT_STATS_OPTIONS, loadMatchData, preferenceRows, type MatchData, type PreferenceStats } from '../analytics/preference/index.js';
import { pseudonymizer } from '../analytics/preference/pseudonym.js';
import { formatLeaderboard } from '../analytics/ratings/format.js';
import { buildLeaderboard, type Leaderboard } from '../analytics/ratings/leaderboard.js';
import { loaderFor } from '../analytics/ratings/load.js';
import { TASK_NAMES, type TaskName } from '../engine/types.js';
import type { WebContext } from './context.js';
import { leaderboardPage, preferencesPage, rankedRows } from './data-views.js';
import { playerName } from './people.js';

const LeaderboardQuerySchema = z.object({
  task: z.union([z.enum(TASK_NAMES as [TaskName, ...TaskName[]]), z.literal('')]).optional(),
  kind: z.enum(['people', 'models', 'all']).optional(),
  min: z.coerce.number().int().min(1).max(1000).optional(),
});
const ExportQuerySchema = z.object({ format: PreferenceFormatSchema.default('jsonl'), source: SourceSchema.default('human') });

/** Whether the request carries the configured admin token (constant-time compare; false when none is configured). */
export function isAdmin(req: FastifyRequest, token: string | null): boolean {
  if (!token) return false;
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (!m) return false;
  const a = Buffer.from(m[1]!);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Register the routes. */
export function registerDataRoutes(app: FastifyInstance, ctx: WebContext): void {
  const table = async (req: FastifyRequest): Promise<{ t: Leaderboard; min: number; task: TaskName | undefined; query: string; updated: string | null }> => {
    const q = LeaderboardQuerySchema.safeParse(req.query);
    const f = q.success ? q.data : {};
    const task = f.task ? f.task : undefined;
    const { results } = await loaderFor(ctx.store).load();
    const t = buildLeaderboard(results, { ...(task ? { task } : {}), kind: f.kind ?? 'all' });
    const counted = task ? results.filter((r) => r.task === task) : results;
    const updated = counted.reduce<string | null>((acc, r) => (acc === null || r.endedAt > acc ? r.endedAt : acc), null);
    const min = f.min ?? ctx.settings.web.minMatches;
    const query = new URLSearchParams({ ...(task ? { task } : {}), ...(f.kind ? { kind: f.kind } : {}), ...(f.min ? { min: String(f.min) } : {}) }).toString();
    return { t, min, task, query, updated };
  };
  const pseudo = () => pseudonymizer(ctx.store, ctx.settings.votes.pseudonymSecret);

  app.get('/leaderboard', async (req, reply) => {
    const { t, min, task, query, updated } = await table(req);
    return ctx.send(reply, leaderboardPage(t, { name: (r) => playerName(r.player, ctx.naming), minMatches: min, updated, tasks: [...TASK_NAMES], task, query }));
  });
  app.get('/leaderboard.csv', async (req, reply) => {
    const { t, min } = await table(req);
    const text = formatLeaderboard({ ...t, rows: rankedRows(t, min) }, 'csv', await pseudo());
    return reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="leaderboard.csv"').send(text);
  });
  app.get('/leaderboard.json', async (req, reply) => {
    const { t, min } = await table(req);
    const text = formatLeaderboard({ ...t, rows: rankedRows(t, min) }, 'json', await pseudo());
    return reply.type('application/json; charset=utf-8').header('content-disposition', 'attachment; filename="leaderboard.json"').send(text);
  });
  app.get('/leaderboard/ratings.png', async (req, reply) => {
    const { t, min, task } = await table(req);
    const rows = rankedRows(t, min);
    if (rows.length === 0) return reply.status(404).type('text/plain').send('no ratings yet');
    const [{ renderChart }, { ratingsChart }] = await Promise.all([import('../analytics/charts/request.js'), import('../analytics/charts/requests.js')]);
    const png = (await renderChart(ratingsChart(rows, `Ratings (${task ?? 'all tasks'}, ${t.matches} matches)`, (r) => playerName(r.player, ctx.naming)))).png;
    return reply.type('image/png').header('cache-control', 'public, max-age=60').send(png);
  });

  /** Matches whose every ballot is closed (all, when `all`: the operator's export), folded with their votes. */
  const data = async (all: boolean): Promise<MatchData[]> => {
    const out: MatchData[] = [];
    for (const rec of await ctx.store.listMatches()) {
      if (!all) {
        const m = (await ctx.cache.get(rec.id))?.match;
        if (!m || m.ballots.some((b) => b.closed === null)) continue;
      }
      const d = await loadMatchData(ctx.store, rec.id);
      if (d) out.push(d);
    }
    return out;
  };
  let statsCache: { key: string; stats: PreferenceStats } | null = null;
  const stats = async (): Promise<PreferenceStats> => {
    const key = JSON.stringify([(await ctx.store.listMatches()).length, (await ctx.store.listVotes()).length]);
    if (statsCache?.key !== key) statsCache = { key, stats: computeStats(await data(false), DEFAULT_STATS_OPTIONS) };
    return statsCache.stats;
  };
  app.get('/preferences', async (_req, reply) => ctx.send(reply, preferencesPage(await stats(), { adminDownloads: ctx.settings.web.adminToken !== null })));
  app.get('/preferences/chart.png', async (_req, reply) => {
    const s = await stats();
    if (s.all.votes === 0) return reply.status(404).type('text/plain').send('no votes yet');
    const { renderSpec } = await import('../analytics/charts/render.js');
    return reply.type('image/png').header('cache-control', 'public, max-age=60').send((await renderSpec(preferenceChartSpec(s))).png);
  });
  app.get('/preferences/export', async (req, reply) => {
    if (!isAdmin(req, ctx.settings.web.adminToken)) return reply.status(401).header('www-authenticate', 'Bearer').type('text/plain').send('The preference exports are for the operator only (Authorization: Bearer <admin token>).');
    const q = ExportQuerySchema.safeParse(req.query);
    if (!q.success) return reply.status(400).type('text/plain').send('format: trl | openai-dpo | jsonl; source: human | judge');
    const rows = preferenceRows(await data(true), { format: q.data.format, source: q.data.source, pseudonymize: await pseudo() });
    const text = rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : '');
    return reply.type('application/x-ndjson; charset=utf-8').header('cache-control', 'no-store').header('content-disposition', `attachment; filename="preferences-${q.data.source}-${q.data.format}.jsonl"`).send(text);
  });
}
