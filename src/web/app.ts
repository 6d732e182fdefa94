/**
 * The public web page: fastify with server-rendered HTML, CSS and JS as files under a strict
 * Content-Security-Policy (`default-src 'self'`, @fastify/helmet), a request rate limit per client address
 * (rate-limiter-flexible), capped event streams (hub.ts), and read-only access to the bots' store. Routes:
 * `/` matches, `/matches/:id` live view, `/matches/:id/events` its stream, `/matches/:id/replay`,
 * `/demo`, `/leaderboard` (+ `.csv`, `.json`, `/leaderboard/ratings.png`), `/preferences` (+ the admin-only
 * `/preferences/export`), `/vote/link/:token` and `/vote` (routes-data.ts, routes-vote.ts).
 *
 * `buildWebApp` returns the app (not listening), its stream hub, its match cache and its render cache, for the CLI and tests.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyHelmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { pseudonymizer } from '../analytics/preference/pseudonym.js';
import type { EventStore } from '../store/types.js';
import { voteLinkSecret } from './links/vote-link.js';
import { MatchCache } from './cache.js';
import { RenderCache } from './render-cache.js';
import { StreamHub } from './hub.js';
import type { Html } from './html.js';
import { namingFor } from './people.js';
import type { WebContext, WebSettings } from './context.js';

export type { WebContext, WebSettings } from './context.js';
import { registerMatchRoutes } from './routes-matches.js';
import { registerDataRoutes } from './routes-data.js';
import { registerVoteRoutes } from './routes-vote.js';
import { WebVotes } from './vote.js';
import type { FeedItem } from './feed.js';

/** The web app, its hub and cache. */
export interface WebApp {
  app: FastifyInstance;
  hub: StreamHub;
  cache: MatchCache;
  /** Rendered answers of the ratings and preference routes (render-cache.ts). */
  renders: RenderCache;
}

/** Where the static files are: next to this module (tsx) or under the package's src/web/static (bundled dist/bin). */
export function staticDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  if (existsSync(join(dir, 'static', 'app.css'))) return join(dir, 'static');
  for (let i = 0; i < 6; i++) {
    const cand = join(dir, 'src', 'web', 'static');
    if (existsSync(join(cand, 'app.css'))) return cand;
    dir = dirname(dir);
  }
  throw new Error('src/web/static not found');
}

const TYPES: Record<string, string> = { css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8' };

/** The strict policy: everything from this origin only, no inline script or style, no framing. */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  fontSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/**
 * Build the app on `store` (the bots' database) with `settings`. Options: `now` (clock of vote links and
 * ballots, default Date.now), `logger` (fastify's option, default off).
 */
export async function buildWebApp(
  store: EventStore,
  settings: WebSettings,
  opts: { now?: () => number; logger?: boolean | { level: string } } = {},
): Promise<WebApp> {
  const now = opts.now ?? Date.now;
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: 16_384,
    disableRequestLogging: true,
    keepAliveTimeout: 72_000,
    forceCloseConnections: true,
    routerOptions: { maxParamLength: 2048 },
  });
  const cache = new MatchCache(store);
  const renders = new RenderCache();
  const linkSecret = await voteLinkSecret(store, settings.web.linkSecret);
  const naming = namingFor(settings.web.people, await pseudonymizer(store, settings.votes.pseudonymSecret));
  let render: ((id: string, afterSeq: number) => Promise<{ items: FeedItem[]; state: Html | null }>) | null = null;
  const hub = new StreamHub({
    load: (id) => cache.get(id),
    render: (loaded, after) => render!(loaded.record.id, after),
    pollMs: settings.web.pollMs,
    maxStreams: settings.web.maxStreams,
    maxPerAddress: settings.web.maxStreamsPerAddress,
    streamMs: settings.web.streamSeconds * 1000,
    onError: (err, matchId) => app.log.error({ err, matchId }, 'web: live update failed'),
  });
  const ctx: WebContext = {
    store,
    settings,
    cache,
    hub,
    renders,
    naming,
    votes: new WebVotes(store, cache, settings.votes.perMinute, now),
    linkSecret,
    now,
    send: (reply, body, status = 200) =>
      reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body.value),
  };

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(fastifyCookie, { secret: linkSecret });
  await app.register(fastifyFormbody);

  // Every request counts against the address's limit; a rendering route (a chart, the ratings, the
  // preference statistics: tens to hundreds of ms of CPU when not cached) against a lower one as well, of
  // which at most a sixth in any 10 s: renders block the event loop, so a burst of them would stall
  // every other visitor for seconds.
  const perMinute = settings.web.renderRequestsPerMinute;
  const limiter = new RateLimiterMemory({ points: settings.web.requestsPerMinute, duration: 60 });
  const renderLimiters = [
    new RateLimiterMemory({ points: Math.ceil(perMinute / 6), duration: 10 }),
    new RateLimiterMemory({ points: perMinute, duration: 60 }),
  ];
  app.addHook('onRequest', async (req, reply) => {
    const rendering = req.routeOptions.config.rendering === true;
    try {
      await limiter.consume(req.ip);
      if (rendering) for (const l of renderLimiters) await l.consume(req.ip);
    } catch (e) {
      if (!(e instanceof RateLimiterRes)) throw e;
      const wait = Math.ceil(e.msBeforeNext / 1000);
      const what = rendering ? 'chart, ratings and preference requests' : 'requests';
      return reply
        .status(429)
        .header('retry-after', String(wait))
        .type('text/plain')
        .send(`Too many ${what} from your address; try again in ${wait} s.`);
    }
  });

  const dir = staticDir();
  const files = new Map(
    readdirSync(dir)
      .filter((f) => /^[a-z-]+\.(css|js)$/.test(f))
      .map((f) => [f, readFileSync(join(dir, f))]),
  );
  app.get<{ Params: { name: string } }>('/static/:name', async (req, reply) => {
    const body = files.get(req.params.name);
    if (!body) return reply.status(404).type('text/plain').send('not found');
    return reply
      .type(TYPES[req.params.name.split('.').pop()!]!)
      .header('cache-control', 'public, max-age=300')
      .send(body);
  });
  app.get('/health', async () => ({ ok: true, streams: hub.open, rssBytes: process.memoryUsage().rss }));

  render = registerMatchRoutes(app, ctx);
  registerDataRoutes(app, ctx);
  registerVoteRoutes(app, ctx);
  // Before the server stops accepting: end the streams, or closing would wait for them.
  app.addHook('preClose', async () => hub.close());
  return { app, hub, cache, renders };
}
