/**
 * `npm run bench:footprint -- [--matches 100] [--rounds 4] [--quit-runs 5] [--json out.json]`: what the
 * project costs to run, on Linux (reads /proc):
 * - the console at its prompt: RSS of every process `npm start` runs (npm's own process excluded), with
 *   standard input a pipe that stays open (the console waits for a line);
 * - `echo quit | npm start`: wall time, median and maximum of N runs, each on a fresh SQLite file;
 * - the host load (src/app/host-load.ts): N live matches in this process's round host on a file SQLite
 *   store: commands/s and this process's RSS with every match live, and its peak.
 * Benchmarks report; tests never time things.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Command } from 'commander';
import { z } from 'zod';
import { runHostLoad } from '../app/host-load.js';
import { openStore } from '../store/open.js';

const Options = z.object({
  matches: z.coerce.number().int().min(1).max(10_000),
  rounds: z.coerce.number().int().min(1).max(4),
  quitRuns: z.coerce.number().int().min(0).max(100),
  json: z.string().optional(),
});

const MB = 1024 * 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? NaN;

/** RSS in bytes of a process (0 if it is gone). */
function rssOf(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** Every descendant of `root` (not `root` itself), from /proc/<pid>/stat's parent ids. */
function descendants(root: number): { pid: number; name: string }[] {
  const parent = new Map<number, { ppid: number; name: string }>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const m = /^\d+ \((.*)\) \S (\d+)/.exec(stat);
      if (m) parent.set(Number(d), { ppid: Number(m[2]), name: m[1]! });
    } catch {
      // The process ended while we looked.
    }
  }
  const out: { pid: number; name: string }[] = [];
  const walk = (p: number) => {
    for (const [pid, v] of parent) {
      if (v.ppid !== p) continue;
      out.push({ pid, name: v.name });
      walk(pid);
    }
  };
  walk(root);
  return out;
}

/** The console idle at its prompt: RSS of npm's children, once the first screen is printed and quiet. */
async function consoleAtPrompt(dir: string): Promise<{ bytes: number; processes: string[] }> {
  const child = spawn('npm', ['start', '--silent', '--', '--db', join(dir, 'prompt.db')], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let last = performance.now();
  let seen = '';
  child.stdout.on('data', (c: Buffer) => ((seen += c.toString()), (last = performance.now())));
  child.stderr.on('data', () => (last = performance.now()));
  const t0 = performance.now();
  while (!(seen.includes('[private → you]') && performance.now() - last > 1500)) {
    if (performance.now() - t0 > 60_000) throw new Error(`the console printed no private view within 60 s:\n${seen}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const procs = descendants(child.pid!);
  const bytes = procs.reduce((s, p) => s + rssOf(p.pid), 0);
  const processes = procs.map((p) => `${p.name} ${(rssOf(p.pid) / MB).toFixed(1)} MB`);
  child.stdin.end('quit\n');
  await new Promise((r) => child.on('close', r));
  return { bytes, processes };
}

/** `echo quit | npm start` wall times (ms), each on a fresh SQLite file. */
function quitTimes(dir: string, runs: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = spawnSync('sh', ['-c', `echo quit | npm start --silent -- --db ${join(dir, `quit-${i}.db`)}`], {
      stdio: 'ignore',
    });
    if (r.status !== 0) throw new Error(`echo quit | npm start exited ${r.status}`);
    out.push(performance.now() - t0);
  }
  return out;
}

async function main(): Promise<void> {
  const raw = new Command()
    .name('bench:footprint')
    .option('--matches <n>', 'live matches in the host load', '100')
    .option('--rounds <n>', 'rounds played per match (market_round has 5; at most 4 keeps every match live)', '4')
    .option('--quit-runs <n>', 'runs of `echo quit | npm start`', '5')
    .option('--json <file>', 'write the figures as JSON')
    .parse()
    .opts();
  const o = Options.parse(raw);
  const dir = mkdtempSync(join(tmpdir(), 'arena-footprint-'));
  try {
    const store = await openStore({ sqlitePath: join(dir, 'host.db') });
    let liveRss = 0;
    const load = await runHostLoad({
      store,
      matches: o.matches,
      rounds: o.rounds,
      onRound: () => (liveRss = Math.max(liveRss, process.memoryUsage().rss)),
    });
    await store.close();
    const peak = Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;
    const prompt = await consoleAtPrompt(dir);
    const quits = quitTimes(dir, o.quitRuns);
    const figures = {
      node: process.version,
      consolePromptMB: +(prompt.bytes / MB).toFixed(1),
      consoleProcesses: prompt.processes,
      quitMedianMs: Math.round(median(quits)),
      quitMaxMs: Math.round(Math.max(...quits)),
      hostMatches: load.matches,
      hostCommands: load.commands,
      hostFailed: load.failed,
      hostCommandsPerSecond: Math.round(load.commands / (load.ms / 1000)),
      hostLiveRssMB: +(liveRss / MB).toFixed(1),
      hostPeakRssMB: +(peak / MB).toFixed(1),
    };
    const rows = [
      [
        'console at its prompt (npm start, npm excluded)',
        `${figures.consolePromptMB} MB RSS (${prompt.processes.join(', ')})`,
      ],
      [
        `echo quit | npm start (${o.quitRuns} runs)`,
        `median ${(figures.quitMedianMs / 1000).toFixed(2)} s, max ${(figures.quitMaxMs / 1000).toFixed(2)} s`,
      ],
      [
        `host load: ${load.matches} live matches, ${load.commands} commands`,
        `${figures.hostCommandsPerSecond} commands/s, RSS ${figures.hostLiveRssMB} MB with every match live (peak ${figures.hostPeakRssMB} MB)${load.failed ? `, ${load.failed} refused (first: ${load.firstError})` : ''}`,
      ],
    ];
    process.stdout.write(
      `| what (${process.version}) | figure |\n|---|---|\n${rows.map(([a, b]) => `| ${a} | ${b} |`).join('\n')}\n`,
    );
    if (o.json) writeFileSync(o.json, `${JSON.stringify(figures, null, 2)}\n`);
    if (load.failed) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
