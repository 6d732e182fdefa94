/** What the web page's route modules share (built by app.ts). */
import type { FastifyReply } from 'fastify';
import type { EventStore } from '../store/types.js';
import type { MatchCache } from './cache.js';
import type { StreamHub } from './hub.js';
import type { Html } from './html.js';
import type { Naming } from './people.js';
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
    requestsPerMinute: number;
    pollMs: number;
  };
  votes: { perMinute: number; pseudonymSecret: string | null };
}

/** What every route module gets. */
export interface WebContext {
  store: EventStore;
  settings: WebSettings;
  cache: MatchCache;
  hub: StreamHub;
  naming: Naming;
  votes: WebVotes;
  /** Secret that signs vote links and the vote session cookie. */
  linkSecret: string;
  now: () => number;
  /** Send a page. */
  send(reply: FastifyReply, body: Html, status?: number): FastifyReply;
}

