/**
 * `npm run bench:web -- [--matches 8] [--seconds 20] [--warmup-seconds 3] [--visitor-rps 5] [--attackers 2] [--target /leaderboard/ratings.png] [--bust] [--db file] [--web file]`
 *
 * How one address that requests a rendering route as fast as the page lets it slows everyone else down:
 * another visitor's `GET /` latency (p50, p99, max) first alone, then while the attacker runs. The page
 * (`src/cli/web.ts`, or another build's web entry with `--web`, for a before/after comparison in the same
 * minutes) runs in a child process on a SQLite file with `--matches` finished matches (people and scripted
 * seats, played through the bot's host here; `--db` keeps the file for the next run). The visitor
 * (127.0.0.3) sends `GET /` at a fixed rate, whatever the answers take (open loop); the attacker
 * (127.0.0.2) keeps `--attackers` requests in flight back to back and, when refused (429), waits the
 * Retry-After it was given: as fast as its limit allows. `--bust` makes it cycle through every valid
 * leaderboard filter (task × kind × min), so a cache keyed by the query cannot answer every request.
 * Also reported: the attacker's answers by status and the page process's CPU ms (from /proc). Exit codes: 0
 * ok, 2 bad arguments, 1 the page failed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { z } from 'zod';
import type { Caller } from '../chat/types.js';
import { runText } from '../commands/index.js';
import { TASK_NAMES } from '../engine/types.js';
import { quantile } from '../adapters/http/bench.js';
import { cpuOf } from '../eval/proc-cpu.js';
import { renderTable } from '../eval/table.js';
import { RoundHost } from '../host/index.js';
import { openStore } from '../store/open.js';
import { parseOptions } from './options.js';

const ArgsSchema = z.object({
  matches: z.coerce.number().int().min(1).max(500),
  seconds: z.coerce.number().positive().max(3600),
  warmupSeconds: z.coerce.number().min(0).max(600),
  visitorRps: z.coerce.number().positive().max(100),
  attackers: z.coerce.number().int().min(1).max(64),
  target: z.string().startsWith('/'),
  bust: z.boolean().default(false),
  db: z.string().min(1).optional(),
  web: z.string().min(1).optional(),
});

const PEOPLE: Caller[] = ['Ada', 'Ben', 'Cleo', 'Dev'].map((name) => ({
  userId: `bench:${name.toLowerCase()}`,
  displayName: name,
  isAdmin: false,
}));

/** Play `n` market_round matches to their end in `file` (two people each, the third seat scripted; every round closed by `done`). */
async function seed(file: string, n: number): Promise<void> {
  const store = await openStore({ sqlitePath: file });
  const host = new RoundHost({ store, publish: async () => {} });
  try {
    const have = (await store.listMatches({ status: 'over' })).length;
    for (let i = have; i < n; i++) {
      const [a, b] = [PEOPLE[i % PEOPLE.length]!, PEOPLE[(i + 1) % PEOPLE.length]!];
      const channel = `bench:web:${i}`;
      for (const [who, text] of [
        [a, 'new task:market_round round_seconds:0 votes:off'],
        [a, 'join lab:lab_0'],
        [b, 'join lab:lab_1'],
        [a, 'start'],
      ] as const) {
        const r = await runText(host, channel, who, text);
        if (r.error) throw new Error(`${text}: ${r.error.message}`);
      }
      for (let round = 0; round < 20 && (await host.current(channel))?.phase === 'running'; round++) {
        await runText(host, channel, a, 'done');
        await runText(host, channel, b, 'done');
      }
    }
  } finally {
    await host.stop();
    await store.close();
  }
}

/** Start the page on `db` in a child process; resolves with its URL once it listens. */
function startWeb(db: string, dir: string, entry: string | undefined): Promise<{ url: string; child: ChildProcess }> {
  const compiled = entry === undefined ? import.meta.url.endsWith('.js') : entry.endsWith('.js');
  const cli = entry ?? fileURLToPath(new URL(compiled ? './web.js' : './web.ts', import.meta.url));
  const config = join(dir, 'arena.json');
  writeFileSync(config, '{}');
  const child = spawn(
    process.execPath,
    [...(compiled ? [] : ['--import', 'tsx']), cli, '--host', '127.0.0.1', '--port', '0'],
    {
      env: { ...process.env, ARENA_CONFIG: config, ARENA_DB: db, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ url: m[1]!, child });
    });
    child.on('exit', (code) => reject(new Error(`the page exited (${code}) before listening: ${out}`)));
  });
}

interface Answer {
  status: number;
  ms: number;
  retryAfter: number;
}

/** One GET with its latency (ms, to the last byte); status 0 when the connection failed. */
function get(url: string, agent: Agent): Promise<Answer> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request(url, { agent }, (res) => {
      res.on('data', () => {});
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          ms: performance.now() - t0,
          retryAfter: Number(res.headers['retry-after'] ?? 0) || 0,
        }),
      );
    });
    req.on('error', () => resolve({ status: 0, ms: performance.now() - t0, retryAfter: 0 }));
    req.end();
  });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The visitor: `GET /` every 1/rps s until `until` (open loop); the latencies of its 200s and the count of others. */
async function visitor(base: string, rps: number, until: number): Promise<{ ms: number[]; other: number }> {
  const agent = new Agent({ keepAlive: true, localAddress: '127.0.0.3' });
  const out = { ms: [] as number[], other: 0 };
  const pending: Promise<void>[] = [];
  for (let next = performance.now(); next < until; next += 1000 / rps) {
    await sleep(Math.max(0, next - performance.now()));
    pending.push(get(`${base}/`, agent).then((a) => void (a.status === 200 ? out.ms.push(a.ms) : out.other++)));
  }
  await Promise.all(pending);
  agent.destroy();
  return out;
}

/** Every valid leaderboard filter, for `--bust`. */
function bustingQueries(matches: number): string[] {
  const out: string[] = [];
  for (const task of ['', ...TASK_NAMES])
    for (const kind of ['all', 'people', 'models'])
      for (let min = 1; min <= matches; min++) out.push(`?task=${task}&kind=${kind}&min=${min}`);
  return out;
}

/** The attacker: `n` requests in flight back to back until `until`, honouring Retry-After; answers by status. */
async function attacker(
  base: string,
  target: string,
  n: number,
  until: number,
  queries: string[] | null,
): Promise<Map<number, number>> {
  const agent = new Agent({ keepAlive: true, localAddress: '127.0.0.2' });
  const byStatus = new Map<number, number>();
  let k = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (performance.now() < until) {
        const a = await get(`${base}${target}${queries ? queries[k++ % queries.length] : ''}`, agent);
        byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
        if (a.status === 429)
          await sleep(Math.min(Math.max(a.retryAfter, 1) * 1000, Math.max(0, until - performance.now())));
      }
    }),
  );
  agent.destroy();
  return byStatus;
}

interface PhaseRow {
  phase: string;
  visits: number;
  p50: number;
  p99: number;
  max: number;
  otherVisits: number;
  attacker: string;
  cpuMs: number | null;
}

async function phase(
  name: string,
  base: string,
  a: z.output<typeof ArgsSchema>,
  cpu: () => number | null,
  attack: boolean,
): Promise<PhaseRow> {
  const cpu0 = cpu();
  const until = performance.now() + a.seconds * 1000;
  const [v, hits] = await Promise.all([
    visitor(base, a.visitorRps, until),
    attack
      ? attacker(base, a.target, a.attackers, until, a.bust ? bustingQueries(a.matches) : null)
      : Promise.resolve(null),
  ]);
  const cpu1 = cpu();
  const sorted = v.ms.sort((x, y) => x - y);
  return {
    phase: name,
    visits: sorted.length,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    max: sorted.at(-1) ?? 0,
    otherVisits: v.other,
    attacker: hits
      ? [...hits.entries()]
          .sort((x, y) => x[0] - y[0])
          .map(([s, c]) => `${c}×${s}`)
          .join(', ')
      : '—',
    cpuMs: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0,
  };
}

async function main(): Promise<void> {
  const program = new Command()
    .name('bench:web')
    .description(
      "Another visitor's GET / latency while one address requests a rendering route as fast as its limit allows.",
    )
    .option('--matches <n>', 'finished matches in the database', '8')
    .option('--seconds <s>', 'seconds of each phase (visitor alone, then under attack)', '20')
    .option('--warmup-seconds <s>', 'untimed visits and one attacker request first', '3')
    .option('--visitor-rps <n>', "the visitor's GET / per second", '5')
    .option('--attackers <n>', "the attacker's requests in flight", '2')
    .option('--target <path>', 'what the attacker requests', '/leaderboard/ratings.png')
    .option('--bust', 'cycle through every leaderboard filter (defeats a cache keyed by the query)')
    .option('--db <file>', 'SQLite file to use (seeded up to --matches finished matches; kept)')
    .option('--web <file>', "another build's web entry to start (default: this build's)")
    .parse();
  const a = parseOptions(program, ArgsSchema);
  const dir = mkdtempSync(join(tmpdir(), 'arena-bench-web-'));
  const db = a.db ?? join(dir, 'arena.db');
  const seeded = existsSync(db);
  await seed(db, a.matches);
  const load0 = loadavg()[0]!;
  const { url, child } = await startWeb(db, dir, a.web).catch((e: unknown) => {
    console.error(`bench:web: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
  const cpu = cpuOf(child.pid);
  const rows: PhaseRow[] = [];
  try {
    if (a.warmupSeconds > 0) {
      await Promise.all([
        visitor(url, a.visitorRps, performance.now() + a.warmupSeconds * 1000),
        get(`${url}${a.target}`, new Agent({ localAddress: '127.0.0.4' })),
      ]);
    }
    rows.push(await phase('visitor alone', url, a, cpu, false));
    rows.push(await phase(`visitor + attacker (${a.target}${a.bust ? ', every filter' : ''})`, url, a, cpu, true));
  } finally {
    child.removeAllListeners('exit');
    child.kill('SIGTERM');
  }
  console.log(
    `${a.matches} finished matches (${seeded ? 'existing' : 'new'} database ${db}); page: ${a.web ?? 'this build'}; ${a.seconds} s per phase after ${a.warmupSeconds} s warm-up; ` +
      `visitor ${a.visitorRps}/s from 127.0.0.3, attacker ${a.attackers} in flight from 127.0.0.2; Node ${process.version}, ${cpus().length} cores, load average ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`,
  );
  const f = (x: number) => x.toFixed(1);
  console.log(
    renderTable(
      ['phase', 'GET / (200)', 'p50 ms', 'p99 ms', 'max ms', 'GET / not 200', 'attacker answers', 'page CPU ms'],
      rows.map((r) => [
        r.phase,
        r.visits,
        f(r.p50),
        f(r.p99),
        f(r.max),
        r.otherVisits,
        r.attacker,
        r.cpuMs === null ? 'n/a' : Math.round(r.cpuMs),
      ]),
    ),
  );
}

void main();
