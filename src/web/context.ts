/** What the web page's route modules share (built by app.ts). */
import type { FastifyReply } from 'fastify';
import type { EventStore } from '../store/types.js';
import type { MatchCache } from './cache.js';
import type { StreamHub } from './hub.js';
import type { Html } from './html.js';
import type { Naming } from './people.js';
import type { RenderCache } from './render-cache.js';
import type { WebVotes } from './vote.js';

/** The config sections the page reads (`web.*`, and `votes.perMinute` / `votes.pseudonymSecret`). */
export interface WebSettings {
  web: {
    publicUrl: string | null;
    linkSecret: string | null;
    adminToken: string | null;
    people: 'names' | 'pseudonyms';
    minMatches: number;
    maxStreams: number;
    maxStreamsPerAddress: number;
    /** A live-update stream ends after this many seconds (the browser reconnects with Last-Event-ID). */
    streamSeconds: number;
    requestsPerMinute: number;
    /** Requests per address per minute to the rendering routes (route config `rendering`), within `requestsPerMinute`. */
    renderRequestsPerMinute: number;
    pollMs: number;
  };
  votes: { perMinute: number; pseudonymSecret: string | null };
  /** The research-data policy's switch (config `data.includeSeeded`): host-seeded matches in the leaderboard and the preference data. */
  data: { includeSeeded: boolean };
}

/** What every route module gets. */
export interface WebContext {
  store: EventStore;
  settings: WebSettings;
  cache: MatchCache;
  hub: StreamHub;
  /** Rendered answers of the ratings and preference routes, by version of the results and query. */
  renders: RenderCache;
  naming: Naming;
  votes: WebVotes;
  /** Secret that signs vote links and the vote session cookie. */
  linkSecret: string;
  now: () => number;
  /** Send a page. */
  send(reply: FastifyReply, body: Html, status?: number): FastifyReply;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route renders (a chart, the ratings, the preference statistics): it counts against `web.renderRequestsPerMinute` too. */
    rendering?: boolean;
  }
}
