/** Spawning the real entry points (`node --import tsx <script>`) with piped stdin/stdout for tests. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface Spawned {
  child: ChildProcessWithoutNullStreams;
  /** Everything written to stdout so far. */
  out(): string;
  err(): string;
  /** Write lines to stdin (each followed by a newline). */
  send(...lines: string[]): void;
  /** Resolves when stdout matches `re` (rejects after `ms`, default 60 s, with the output so far). */
  waitFor(re: RegExp, ms?: number): Promise<void>;
  /** Exit code and signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** A fresh temp directory for databases and output files. */
export const tempDir = (): string => mkdtempSync(join(tmpdir(), 'arena-console-'));

/**
 * Spawn `script` (relative to the repo root) with args (and `extraEnv` over ours). NO_COLOR and no
 * LOG_LEVEL, so output is plain; no DATABASE_URL, ARENA_DB or ARENA_CONFIG unless `extraEnv` sets them. It
 * runs in `cwd`, by default a fresh temporary directory: what the entry writes relative to its working
 * directory (the console's ./data/charts) never lands in the checkout, and a developer's config/arena.json is
 * not read. The script and tsx are given by absolute path.
 */
export function spawnScript(
  script: string,
  args: string[],
  extraEnv: NodeJS.ProcessEnv = {},
  cwd: string = tempDir(),
): Spawned {
  // The test runner's own database settings are dropped; `extraEnv` may set its own.
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.LOG_LEVEL;
  delete env.DATABASE_URL;
  delete env.ARENA_CONFIG;
  delete env.ARENA_DB;
  Object.assign(env, extraEnv);
  const argv = ['--import', import.meta.resolve('tsx'), resolve(script), ...args];
  const child = spawn(process.execPath, argv, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters: { re: RegExp; resolve: () => void }[] = [];
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (d: string) => {
    out += d;
    for (const w of [...waiters])
      if (w.re.test(out)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  });
  child.stderr.on('data', (d: string) => (err += d));
  // The child may exit (match over) before it read all input: ignore EPIPE on our side.
  child.stdin.on('error', () => {});
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    out: () => out,
    err: () => err,
    send: (...lines) => void child.stdin.write(lines.map((l) => `${l}\n`).join('')),
    waitFor: (re, ms = 60_000) =>
      new Promise<void>((resolve, reject) => {
        if (re.test(out)) return resolve();
        const timer = setTimeout(
          () => reject(new Error(`timed out waiting for ${re}; stdout:\n${out}\nstderr:\n${err}`)),
          ms,
        );
        waiters.push({
          re,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      }),
    exited,
  };
}

/** The console entry point, as `npm start` runs it (in `cwd` when given, else in a fresh temporary directory). */
export const spawnArena = (args: string[], cwd?: string): Spawned => spawnScript('src/cli/main.ts', args, {}, cwd);
