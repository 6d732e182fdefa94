/**
 * Load: `npm run web`'s entry (src/cli/web.ts) in its own process on a SQLite file, the bot's RoundHost in
 * this one; 200 event-stream clients on one live match; a series of commands played through the host.
 * Asserted: every client gets every update, once, in order; the 201st stream from one address is refused.
 * Reported (not asserted: no wall-clock assertion in tests): the p50/p99 time from a command to its update
 * in the streams and the web process's RSS. docs/WEB.md quotes a run.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { after, before, describe, test } from 'node:test';
import { runText } from '../../src/commands/index.js';
import { RoundHost } from '../../src/host/index.js';
import { openStore } from '../../src/store/index.js';
import type { EventStore } from '../../src/store/types.js';
import { alice, bob, CHANNEL } from './helpers.js';
import { waitUntil } from '../support/wait.js';

const CLIENTS = 200;
const COMMANDS = 20;

describe('web page under load', () => {
  let dir: string;
  let store: EventStore;
  let host: RoundHost;
  let web: ChildProcess;
  let base: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-web-load-'));
    const db = join(dir, 'arena.db');
    writeFileSync(join(dir, 'arena.json'), '{}');
    store = await openStore({ sqlitePath: db });
    host = new RoundHost({ store, publish: async () => {} });
    web = spawn(process.execPath, ['--import', 'tsx', 'src/cli/web.ts', '--port', '0'], {
      env: {
        ...process.env,
        ARENA_CONFIG: join(dir, 'arena.json'),
        ARENA_DB: db,
        LOG_LEVEL: 'warn',
        ARENA_WEB_REQUESTS_PER_MINUTE: '100000',
        ARENA_WEB_MAX_STREAMS_PER_ADDRESS: String(CLIENTS),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    base = await new Promise<string>((ok, fail) => {
      let out = '';
      web.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /on (http:\/\/[^\s]+)/.exec(out);
        if (m) ok(m[1]!);
      });
      web.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      web.once('exit', (code) => fail(new Error(`web exited ${code}: ${out}`)));
    });
  });
  after(async () => {
    web?.kill('SIGTERM');
    await host?.stop();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test(`${CLIENTS} streams on one live match: every update reaches every client; the ${CLIENTS + 1}st is refused`, async (t) => {
    const run = async (who: typeof alice, text: string) => {
      const r = await runText(host, CHANNEL, who, text);
      assert.equal(r.error, undefined, `${text}: ${JSON.stringify(r.error)}`);
    };
    await run(alice, 'new task:market_round seed:3 round_seconds:0');
    await run(alice, 'join lab:lab_0');
    await run(bob, 'join lab:lab_1');
    await run(alice, 'start');
    const id = (await host.current(CHANNEL))!.id;
    const url = `${base}/matches/${id}/events`;

    const seen: Map<number, number>[] = [];
    const aborts: AbortController[] = [];
    const ids: number[][] = [];
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        const ac = new AbortController();
        aborts.push(ac);
        seen[c] = new Map();
        ids[c] = [];
        const res = await fetch(url, { signal: ac.signal });
        assert.equal(res.status, 200);
        const dec = new TextDecoder();
        let buf = '';
        void (async () => {
          try {
            for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
              buf += dec.decode(chunk, { stream: true });
              let i;
              while ((i = buf.indexOf('\n\n')) >= 0) {
                const msg = buf.slice(0, i);
                buf = buf.slice(i + 2);
                const idm = /^id: (\d+)$/m.exec(msg);
                if (idm && /^event: feed$/m.test(msg)) ids[c]!.push(Number(idm[1]));
                const mark = /load-(\d+)-mark/.exec(msg);
                if (mark && /^event: feed$/m.test(msg)) seen[c]!.set(Number(mark[1]), performance.now());
              }
            }
          } catch {
            // aborted at the end
          }
        })();
      }),
    );
    const health = async () => (await (await fetch(`${base}/health`)).json()) as { streams: number; rssBytes: number };
    await waitUntil(`${CLIENTS} streams open`, async () => (await health()).streams === CLIENTS);
    const refused = await fetch(url);
    assert.equal(refused.status, 429, `stream ${CLIENTS + 1} from one address`);

    const sentAt: number[] = [];
    for (let k = 0; k < COMMANDS; k++) {
      sentAt[k] = performance.now();
      await run(k % 2 ? bob : alice, `message text:"load-${k}-mark"`);
      await waitUntil(`update ${k} in every stream`, () => seen.every((s) => s.has(k)), {
        timeoutMs: 30_000,
        intervalMs: 5,
      });
    }
    const lat = seen.flatMap((s) => [...s].map(([k, at]) => at - sentAt[k]!)).sort((a, b) => a - b);
    const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))]!;
    const { rssBytes } = await health();
    for (const list of ids)
      assert.deepEqual(
        list,
        [...new Set(list)].sort((a, b) => a - b),
        'each client: items in order, once each',
      );
    assert.equal(lat.length, CLIENTS * COMMANDS);
    t.diagnostic(
      `${CLIENTS} streams × ${COMMANDS} commands: command → update p50 ${q(0.5).toFixed(0)} ms, p99 ${q(0.99).toFixed(0)} ms, max ${lat.at(-1)!.toFixed(0)} ms; web process RSS ${(rssBytes / 2 ** 20).toFixed(0)} MB`,
    );
    for (const ac of aborts) ac.abort();
  });
});
