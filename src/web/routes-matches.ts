/**
 * Routes of matches: the list (`/`), a match (`/matches/:id`), its event stream (`/matches/:id/events`,
 * server-sent events, hub.ts), its replay (`/matches/:id/replay`), its standings chart
 * (`/matches/:id/standings.png`), the demo view (`/demo`) and the newest live match (`/api/live`, what
 * the demo view follows).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { plainOf } from '../chat/player-text.js';
import { standingsChart } from '../present/charts.js';
import type { LoadedMatch } from './cache.js';
import { feedOf, type FeedItem } from './feed.js';
import type { Html } from './html.js';
import { emptyDemoPage, listPage, matchPage, messagePage, replayPage, statePanel, summarize } from './match-views.js';
import { publicMatch } from './people.js';
import type { WebContext } from './context.js';
import { TASK_NAMES } from '../engine/types.js';

const IdSchema = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/) });
const ListQuerySchema = z.object({
  task: z.string().max(40).optional(),
  platform: z.string().max(40).optional(),
  status: z.enum(['running', 'lobby', 'over', '']).optional(),
  players: z.enum(['people', 'models', 'mixed', '']).optional(),
});
const EventsQuerySchema = z.object({ after: z.coerce.number().int().min(0).optional() });

/** Version of a match's standings chart: rounds closed (null before the first close). */
const chartVersion = (loaded: LoadedMatch): number | null =>
  loaded.match?.standings?.length ? loaded.match.standings.length : null;

/** Register the routes; returns the hub's renderer (items after a seq, and the state panels). */
export function registerMatchRoutes(
  app: FastifyInstance,
  ctx: WebContext,
): (id: string, afterSeq: number) => Promise<{ items: FeedItem[]; state: Html | null }> {
  /** Votes of the match's closed ballots (read only when the log has a ballot close). */
  const votesOf = async (loaded: LoadedMatch) => {
    const map = new Map<string, import('../store/types.js').VoteRecord[]>();
    if (!loaded.events.some((e) => e.body.type === 'ballot_closed')) return map;
    for (const v of await ctx.store.listVotes({ matchId: loaded.record.id }))
      map.set(v.ballotId, [...(map.get(v.ballotId) ?? []), v]);
    return map;
  };
  const feed = async (loaded: LoadedMatch, afterSeq: number): Promise<FeedItem[]> =>
    loaded.match
      ? feedOf(loaded.events, null, { naming: ctx.naming, votes: await votesOf(loaded) }, afterSeq, loaded.match).items
      : [];
  const render = async (id: string, afterSeq: number) => {
    const loaded = await ctx.cache.get(id);
    if (!loaded?.match) return { items: [], state: null };
    return {
      items: await feed(loaded, afterSeq),
      state: statePanel(publicMatch(loaded.match, ctx.naming), { chartVersion: chartVersion(loaded), matchId: id }),
    };
  };
  const notFound = (reply: Parameters<WebContext['send']>[0]) =>
    ctx.send(reply, messagePage('No such match', 'There is no match with this id here.'), 404);

  app.get('/', async (req, reply) => {
    const q = ListQuerySchema.safeParse(req.query);
    const f = q.success ? q.data : {};
    const loaded = await ctx.cache.newest(200);
    const rows = loaded.map((l) => summarize(l.record, l.match ? publicMatch(l.match, ctx.naming) : null));
    const shown = rows.filter(
      (r) =>
        (!f.task || r.task === f.task) &&
        (!f.platform || r.platform === f.platform) &&
        (!f.status || r.status === f.status) &&
        (!f.players || r.players === f.players),
    );
    const platforms = [...new Set(rows.map((r) => r.platform))].sort();
    return ctx.send(reply, listPage(shown, f, { tasks: [...TASK_NAMES], platforms }));
  });

  app.get('/matches/:id', async (req, reply) => {
    const p = IdSchema.safeParse(req.params);
    const loaded = p.success ? await ctx.cache.get(p.data.id) : null;
    if (!loaded?.match) return notFound(reply);
    return ctx.send(
      reply,
      matchPage(loaded.record, publicMatch(loaded.match, ctx.naming), await feed(loaded, 0), {
        chartVersion: chartVersion(loaded),
      }),
    );
  });

  app.get('/matches/:id/replay', async (req, reply) => {
    const p = IdSchema.safeParse(req.params);
    const loaded = p.success ? await ctx.cache.get(p.data.id) : null;
    if (!loaded?.match) return notFound(reply);
    if (loaded.match.phase !== 'over')
      return ctx.send(
        reply,
        messagePage(
          'Not finished yet',
          `This match is still being played (its page is /matches/${loaded.record.id}). Its replay opens when it is over.`,
        ),
        409,
      );
    return ctx.send(
      reply,
      replayPage(loaded.record, publicMatch(loaded.match, ctx.naming), await feed(loaded, 0), chartVersion(loaded)),
    );
  });

  app.get('/matches/:id/events', async (req, reply) => {
    const p = IdSchema.safeParse(req.params);
    const loaded = p.success ? await ctx.cache.get(p.data.id) : null;
    if (!loaded?.match) return reply.status(404).type('text/plain').send('no such match');
    const refused = ctx.hub.admit(req.ip);
    if (refused)
      return reply
        .status(refused === 'too_many_streams' ? 503 : 429)
        .header('retry-after', '10')
        .type('text/plain')
        .send(refused);
    const header = req.headers['last-event-id'];
    const fromHeader = typeof header === 'string' && /^\d{1,12}$/.test(header.trim()) ? Number(header.trim()) : null;
    const q = EventsQuerySchema.safeParse(req.query);
    const after = fromHeader ?? (q.success ? (q.data.after ?? 0) : 0);
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
    });
    await ctx.hub.attach(loaded, reply.raw, req.ip, after);
  });

  const charts = new Map<string, Buffer>();
  app.get('/matches/:id/standings.png', { config: { rendering: true } }, async (req, reply) => {
    const p = IdSchema.safeParse(req.params);
    const loaded = p.success ? await ctx.cache.get(p.data.id) : null;
    const v = loaded ? chartVersion(loaded) : null;
    if (!loaded?.match || v === null) return reply.status(404).type('text/plain').send('no chart yet');
    const key = `${loaded.record.id}:${v}:${loaded.match.phase}`;
    let png = charts.get(key);
    if (!png) {
      const { renderChart } = await import('../analytics/charts/request.js');
      const req = standingsChart(publicMatch(loaded.match, ctx.naming));
      // Seat labels carry player-text markers (src/chat/player-text.ts): plain text on the chart.
      const rows = req.rows.map((r) => ({
        ...r,
        ...(typeof r['seat'] === 'string' ? { seat: plainOf(r['seat']).replace('👤 ', '') } : {}),
      }));
      png = Buffer.from((await renderChart({ ...req, rows })).png);
      charts.set(key, png);
      if (charts.size > 100) charts.delete(charts.keys().next().value!);
    }
    return reply.type('image/png').header('cache-control', 'public, max-age=60').send(png);
  });

  /** The newest running match, else the newest match. */
  const featured = async (): Promise<LoadedMatch | null> => {
    const running = await ctx.store.listMatches({ status: 'running' });
    const pick = running.at(-1) ?? (await ctx.store.listMatches()).at(-1);
    return pick ? ctx.cache.get(pick.id) : null;
  };
  app.get('/api/live', async () => {
    const f = await featured();
    return { matchId: f?.record.id ?? null, live: f?.record.status === 'running' };
  });
  app.get('/demo', async (_req, reply) => {
    const loaded = await featured();
    if (!loaded?.match) return ctx.send(reply, emptyDemoPage());
    return ctx.send(
      reply,
      matchPage(loaded.record, publicMatch(loaded.match, ctx.naming), await feed(loaded, 0), {
        chartVersion: chartVersion(loaded),
        demo: true,
      }),
    );
  });
  return render;
}
