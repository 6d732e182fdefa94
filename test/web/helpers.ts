/**
 * Web page test harness: a real RoundHost (the bot) and the web app on two connections to one SQLite file
 * (as `npm start`/the bots and `npm run web` share a database), commands played through the catalogue as
 * the adapters do, and Debian's chromium driven by puppeteer-core. Without chromium the browser tests
 * skip locally and FAIL under CI (CI=true), as .ci/run installs it.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'puppeteer-core';
import { runText } from '../../src/commands/index.js';
import type { Caller, Reply } from '../../src/chat/types.js';
import { RoundHost } from '../../src/host/index.js';
import type { HostedMatch } from '../../src/match/types.js';
import { dataNotice } from '../../src/match/data-policy.js';
import { openStore } from '../../src/store/index.js';
import type { EventStore } from '../../src/store/types.js';
import { buildWebApp, type WebApp, type WebSettings } from '../../src/web/app.js';

export const CHANNEL = 'test:web';
export const alice: Caller = { userId: 'test:alice', displayName: 'Alice <b>bold</b>', isAdmin: false };
export const bob: Caller = { userId: 'test:bob', displayName: 'Bob', isAdmin: false };
export const carol: Caller = { userId: 'test:carol', displayName: 'Carol', isAdmin: false };

export const ADMIN_TOKEN = 'admin-token-0123456789abcdef';
export const LINK_SECRET = 'link-secret-0123456789abcdef';

/** Default settings of the tests (names shown, so the escaping of display names is exercised). */
export function settings(
  over: Partial<WebSettings['web']> = {},
  data: WebSettings['data'] = { includeSeeded: false },
): WebSettings {
  return {
    web: {
      publicUrl: 'http://127.0.0.1',
      linkSecret: LINK_SECRET,
      adminToken: ADMIN_TOKEN,
      people: 'names',
      minMatches: 1,
      maxStreams: 1000,
      maxStreamsPerAddress: 200,
      streamSeconds: 600,
      requestsPerMinute: 100_000,
      renderRequestsPerMinute: 100_000,
      pollMs: 50,
      ...over,
    },
    votes: { perMinute: 30, pseudonymSecret: 'pseudonym-secret-0123456789' },
    data,
  };
}

export interface WebHarness {
  host: RoundHost;
  hostStore: EventStore;
  webStore: EventStore;
  web: WebApp;
  /** http://127.0.0.1:<port> */
  base: string;
  run(who: Caller, text: string, channel?: string): Promise<Reply>;
  current(channel?: string): Promise<HostedMatch>;
  close(): Promise<void>;
}

/**
 * Start the bot's host and the web page on one temporary SQLite file. The tests play fixed seeds for fixed
 * worlds: practice matches, which this deployment counts (config data.includeSeeded) unless `includeSeeded: false`.
 */
export async function webHarness(
  opts: {
    web?: Partial<WebSettings['web']>;
    perMinute?: number;
    ballotSeconds?: number;
    now?: () => number;
    includeSeeded?: boolean;
  } = {},
): Promise<WebHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'arena-web-'));
  const file = join(dir, 'arena.db');
  const hostStore = await openStore({ sqlitePath: file });
  const includeSeeded = opts.includeSeeded ?? true;
  const host = new RoundHost({
    store: hostStore,
    publish: async () => {},
    votes: { ballotSeconds: opts.ballotSeconds ?? 300, perMinute: opts.perMinute ?? 30 },
    data: { includeSeeded, notice: dataNotice() },
  });
  const webStore = await openStore({ sqlitePath: file });
  const s = settings(opts.web, { includeSeeded });
  if (opts.perMinute) s.votes.perMinute = opts.perMinute;
  const web = await buildWebApp(webStore, s, opts.now ? { now: opts.now } : {});
  await web.app.listen({ host: '127.0.0.1', port: 0 });
  const port = (web.app.server.address() as AddressInfo).port;
  const h: WebHarness = {
    host,
    hostStore,
    webStore,
    web,
    base: `http://127.0.0.1:${port}`,
    run: (who, text, channel = CHANNEL) => runText(host, channel, who, text),
    async current(channel = CHANNEL) {
      const m = await host.current(channel);
      if (!m) throw new Error('no match in the channel');
      return m;
    },
    async close() {
      await web.app.close();
      await host.stop();
      await hostStore.close();
      await webStore.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return h;
}

/** A started market_round (seed 7, no timer, votes on or off): alice lab_0, bob lab_1, lab_2 scripted. Returns the match id. */
export async function startMatch(h: WebHarness, votes = true): Promise<string> {
  for (const [who, text] of [
    [alice, `new task:market_round seed:7 round_seconds:0 votes:${votes ? 'on' : 'off'}`],
    [alice, 'join lab:lab_0'],
    [bob, 'join lab:lab_1'],
    [alice, 'start'],
  ] as const) {
    const r = await h.run(who, text);
    if (r.error) throw new Error(`${text}: ${JSON.stringify(r.error)}`);
  }
  return (await h.current()).id;
}

/** Both people pitch (player-written HTML in alice's) and say done: the round closes. */
export async function pitchRound(
  h: WebHarness,
  alicePitch = 'We need <script>alert(1)</script> GPU-hours for our training job now',
): Promise<void> {
  const m = await h.current();
  for (const [who, text] of [
    [alice, alicePitch],
    [bob, 'Our inference job misses its deadline without one more block'],
  ] as const) {
    const lab = h.host.seatOf(m, who.userId);
    const job = Object.values(m.state!.jobs).find((j) => j.owner === lab && j.outcome === 'pending');
    const r = await h.run(who, `pitch text:"${text}"${job ? ` job:${job.id}` : ''}`);
    if (r.error) throw new Error(`pitch: ${JSON.stringify(r.error)}`);
  }
  await h.run(alice, 'done');
  await h.run(bob, 'done');
}

/** Play a match to its end (every round: pitches, done). */
export async function playToEnd(h: WebHarness): Promise<void> {
  for (let i = 0; i < 10; i++) {
    const m = await h.host.current(CHANNEL);
    if (!m || m.phase !== 'running') return;
    await pitchRound(h, `Round ${i + 1}: we need capacity for our remaining jobs`);
  }
}

export const CHROMIUM =
  ['/usr/bin/chromium', '/usr/lib/chromium/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p)) ?? null;

/**
 * One browser for a test file: Debian's chromium (headless, no sandbox: CI runs as root). Without it: null
 * locally (each test then skips), a failure under CI (CI=true).
 */
export async function launchBrowser(): Promise<Browser | null> {
  if (!CHROMIUM) {
    if (process.env.CI)
      throw new Error(
        'chromium is not installed: .ci/run installs it (apt-get install chromium); browser tests must not skip under CI',
      );
    return null;
  }
  const puppeteer = (await import('puppeteer-core')).default;
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
}

/** Run axe-core (WCAG 2 A/AA) on the page; returns its violations (id and a few targets). */
export async function axeViolations(
  page: import('puppeteer-core').Page,
): Promise<{ id: string; help: string; targets: string[] }[]> {
  const { createRequire } = await import('node:module');
  const { readFileSync } = await import('node:fs');
  const src = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through DevTools, not a <script>: the page's CSP (default-src 'self') stays as it is.
  await page.evaluate(src);
  return page.evaluate(async () => {
    const w = globalThis as unknown as {
      document: unknown;
      axe: {
        run(
          ctx: unknown,
          o: unknown,
        ): Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }>;
      };
    };
    const r = await w.axe.run(w.document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return r.violations.map((v) => ({
      id: v.id,
      help: v.help,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    }));
  });
}
