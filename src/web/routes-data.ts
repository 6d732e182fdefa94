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
import { grantedIds, withConsent } from '../analytics/preference/consent.js';
import {
  computeStats,
  DEFAULT_SELECTION,
  DEFAULT_STATS_OPTIONS,
  loadMatchData,
  preferenceRows,
  type MatchData,
  type PreferenceStats,
} from '../analytics/preference/index.js';
import { pseudonymizer } from '../analytics/preference/pseudonym.js';
import { formatLeaderboard } from '../analytics/ratings/format.js';
import { buildLeaderboard, type Leaderboard } from '../analytics/ratings/leaderboard.js';
import { loaderFor } from '../analytics/ratings/load.js';
import { TASK_NAMES, type TaskName } from '../engine/types.js';
import type { WebContext } from './context.js';
import { leaderboardPage, preferencesPage, rankedRows } from './data-views.js';
import { Html } from './html.js';
import { playerName } from './people.js';
import type { Rendered } from './render-cache.js';
import { PreferenceVersion, ratingsVersion } from './versions.js';

const LeaderboardQuerySchema = z.object({
  task: z.union([z.enum(TASK_NAMES as [TaskName, ...TaskName[]]), z.literal('')]).optional(),
  kind: z.enum(['people', 'models', 'all']).optional(),
  min: z.coerce.number().int().min(1).max(1000).optional(),
});
const ExportQuerySchema = z.object({
  format: PreferenceFormatSchema.default('jsonl'),
  source: SourceSchema.default('human'),
  include_identifying: z.enum(['0', '1']).default('0'),
});

/** Whether the request carries the configured admin token (constant-time compare; false when none is configured). */
export function isAdmin(req: FastifyRequest, token: string | null): boolean {
  if (!token) return false;
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (!m) return false;
  const a = Buffer.from(m[1]!);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The leaderboard filter of a request, normalised (unknown keys dropped, defaults applied): part of every cache key. */
interface TableQuery {
  task: TaskName | undefined;
  kind: 'people' | 'models' | 'all';
  min: number;
  /** The query string of the filter as given (for the page's links). */
  query: string;
}

/** A rendered text or PNG answer of a route, as the render cache keeps it. */
interface Body<B> extends Rendered {
  body: B;
}
function bodyOf<B extends string | Buffer | Html | null>(body: B): Body<B> {
  return { body, size: body === null ? 1 : body instanceof Html ? body.value.length : body.length };
}

/**
 * Register the routes. Their answers are rendered once per version of the results and normalised query
 * (render-cache.ts, versions.ts); every route here counts against the lower rate limit of rendering
 * routes (`config.rendering`, app.ts).
 */
export function registerDataRoutes(app: FastifyInstance, ctx: WebContext): void {
  const renders = ctx.renders;
  const rendering = { config: { rendering: true } };
  const filter = (req: FastifyRequest): TableQuery => {
    const q = LeaderboardQuerySchema.safeParse(req.query);
    const f = q.success ? q.data : {};
    const task = f.task ? f.task : undefined;
    const query = new URLSearchParams({
      ...(task ? { task } : {}),
      ...(f.kind ? { kind: f.kind } : {}),
      ...(f.min ? { min: String(f.min) } : {}),
    }).toString();
    return { task, kind: f.kind ?? 'all', min: f.min ?? ctx.settings.web.minMatches, query };
  };
  /** The table of one version and filter (task, kind), with its last-updated time. */
  const table = async (version: string, f: TableQuery): Promise<{ t: Leaderboard; updated: string | null }> =>
    renders.get(`table:${version}:${f.task ?? ''}:${f.kind}`, async () => {
      const { results } = await loaderFor(ctx.store).load({}, { includeSeeded: ctx.settings.data.includeSeeded });
      const t = buildLeaderboard(results, { ...(f.task ? { task: f.task } : {}), kind: f.kind });
      const counted = f.task ? results.filter((r) => r.task === f.task) : results;
      const updated = counted.reduce<string | null>(
        (acc, r) => (acc === null || r.endedAt > acc ? r.endedAt : acc),
        null,
      );
      return { t, updated, size: 1024 + t.rows.length * 256 };
    });
  /** One rendered answer of a leaderboard route, per version and normalised filter. */
  const cached = async <B extends string | Buffer | Html | null>(
    route: 'page' | 'csv' | 'json' | 'png',
    req: FastifyRequest,
    make: (t: Leaderboard, f: TableQuery, updated: string | null) => Promise<B>,
  ): Promise<B> => {
    const f = filter(req);
    const version = await ratingsVersion(ctx.store);
    // Only the page shows the query string as given (in its links).
    return (
      await renders.get(
        `${route}:${version}:${f.task ?? ''}:${f.kind}:${f.min}${route === 'page' ? `:${f.query}` : ''}`,
        async () => {
          const { t, updated } = await table(version, f);
          return bodyOf(await make(t, f, updated));
        },
      )
    ).body;
  };
  const pseudo = () => pseudonymizer(ctx.store, ctx.settings.votes.pseudonymSecret);

  app.get('/leaderboard', rendering, async (req, reply) => {
    const page = await cached('page', req, async (t, f, updated) =>
      leaderboardPage(t, {
        name: (r) => playerName(r.player, ctx.naming),
        minMatches: f.min,
        updated,
        tasks: [...TASK_NAMES],
        task: f.task,
        query: f.query,
      }),
    );
    return ctx.send(reply, page);
  });
  app.get('/leaderboard.csv', rendering, async (req, reply) => {
    const text = await cached('csv', req, async (t, f) =>
      formatLeaderboard({ ...t, rows: rankedRows(t, f.min) }, 'csv', await pseudo()),
    );
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="leaderboard.csv"')
      .send(text);
  });
  app.get('/leaderboard.json', rendering, async (req, reply) => {
    const text = await cached('json', req, async (t, f) =>
      formatLeaderboard({ ...t, rows: rankedRows(t, f.min) }, 'json', await pseudo()),
    );
    return reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', 'attachment; filename="leaderboard.json"')
      .send(text);
  });
  app.get('/leaderboard/ratings.png', rendering, async (req, reply) => {
    const png = await cached('png', req, async (t, f) => {
      const rows = rankedRows(t, f.min);
      if (rows.length === 0) return null;
      const [{ renderChart }, { ratingsChart }] = await Promise.all([
        import('../analytics/charts/request.js'),
        import('../analytics/charts/requests.js'),
      ]);
      return Buffer.from(
        (
          await renderChart(
            ratingsChart(
              rows,
              `Ratings (${f.task ?? 'all tasks'}, ${t.matches} matches)`,
              (r) => playerName(r.player, ctx.naming),
              t.people,
            ),
          )
        ).png,
      );
    });
    if (png === null) return reply.status(404).type('text/plain').send('no ratings yet');
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
  const prefVersion = new PreferenceVersion(ctx.store, ctx.cache);
  /** The public statistics of one version (computed once per version). */
  const stats = async (version: string): Promise<PreferenceStats> =>
    (
      await renders.get(`stats:${version}`, async () => ({
        stats: computeStats(await data(false), {
          ...DEFAULT_STATS_OPTIONS,
          selection: { ...DEFAULT_SELECTION, includeSeeded: ctx.settings.data.includeSeeded },
        }),
        size: 4096,
      }))
    ).stats;
  app.get('/preferences', rendering, async (_req, reply) => {
    const version = await prefVersion.current();
    const page = await renders.get(`prefs:${version}`, async () =>
      bodyOf(preferencesPage(await stats(version), { adminDownloads: ctx.settings.web.adminToken !== null })),
    );
    return ctx.send(reply, page.body);
  });
  app.get('/preferences/chart.png', rendering, async (_req, reply) => {
    const version = await prefVersion.current();
    const { body } = await renders.get(`prefs-png:${version}`, async () => {
      const s = await stats(version);
      if (s.all.votes === 0) return bodyOf<Buffer | null>(null);
      const { renderSpec } = await import('../analytics/charts/render.js');
      return bodyOf<Buffer | null>(Buffer.from((await renderSpec(preferenceChartSpec(s))).png));
    });
    if (body === null) return reply.status(404).type('text/plain').send('no votes yet');
    return reply.type('image/png').header('cache-control', 'public, max-age=60').send(body);
  });
  app.get('/preferences/export', rendering, async (req, reply) => {
    if (!isAdmin(req, ctx.settings.web.adminToken))
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer')
        .type('text/plain')
        .send('The preference exports are for the operator only (Authorization: Bearer <admin token>).');
    const q = ExportQuerySchema.safeParse(req.query);
    if (!q.success)
      return reply
        .status(400)
        .type('text/plain')
        .send('format: trl | openai-dpo | jsonl; source: human | judge; include_identifying: 0 | 1');
    const selection = {
      includeIdentifying: q.data.include_identifying === '1',
      includeSeeded: ctx.settings.data.includeSeeded,
    };
    const rows = preferenceRows(withConsent(await data(true), grantedIds(await ctx.store.listConsents())), {
      format: q.data.format,
      source: q.data.source,
      pseudonymize: await pseudo(),
      selection,
    });
    const text = rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : '');
    return reply
      .type('application/x-ndjson; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="preferences-${q.data.source}-${q.data.format}.jsonl"`)
      .send(text);
  });
}
