/**
 * Bot processes for the scale-out test: the real entry point (`node --import tsx src/cli/main.ts`) as a
 * child process, its JSON log lines (its own and, for a shard manager, its shard processes', which inherit
 * its stderr) collected for assertions and waits. Waits are bounded by the caller's timeouts, never by sleeps.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** One pino line. */
export type LogLine = Record<string, unknown> & { msg?: string; pid?: number };

/** A started bot process. */
export interface BotProcess {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
  logs(): LogLine[];
  /** The first log line (past or future) matching `pred`; rejects after `timeoutMs` or if the process exits first. */
  logLine(pred: (l: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
}

/** Environment of a bot process: the test's, without settings that would reach outside or change the bot. */
export function botEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info', ...extra };
  for (const k of Object.keys(env)) {
    if (
      k.startsWith('ARENA_LLM') ||
      k.startsWith('OPENAI') ||
      k === 'ARENA_CONFIG' ||
      k === 'DISCORD_SHARDS' ||
      k === 'SLACK_SIGNING_SECRET' ||
      k === 'SHARDING_MANAGER'
    )
      delete env[k];
  }
  return env;
}

/** Start `src/cli/main.ts args…` with `env`; killed (SIGKILL) after `lifetimeMs` whatever happens. */
export function startBot(args: readonly string[], env: NodeJS.ProcessEnv, lifetimeMs = 300_000): BotProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const waiters: { pred: (l: LogLine) => boolean; resolve: (l: LogLine) => void }[] = [];
  let parsed: LogLine[] = [];
  let partial = '';
  const onData = (c: Buffer) => {
    const text = partial + String(c);
    out += String(c);
    const lines = text.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      try {
        const l = JSON.parse(line) as LogLine;
        parsed.push(l);
        parsed = parsed.length > 20_000 ? parsed.slice(-10_000) : parsed;
        for (const w of [...waiters]) {
          if (!w.pred(l)) continue;
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(l);
        }
      } catch {
        // Not a log line.
      }
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const killer = setTimeout(() => child.kill('SIGKILL'), lifetimeMs);
  void exited.then(() => clearTimeout(killer));
  return {
    child,
    exited,
    output: () => out,
    logs: () => parsed,
    logLine(pred, timeoutMs = 60_000) {
      const found = parsed.find(pred);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no such log line within ${timeoutMs} ms; output tail:\n${out.slice(-3000)}`)),
          timeoutMs,
        );
        const w = { pred, resolve: (l: LogLine) => (clearTimeout(timer), resolve(l)) };
        waiters.push(w);
        void exited.then(() => {
          if (!waiters.includes(w)) return;
          clearTimeout(timer);
          reject(new Error(`the process exited without that log line; output tail:\n${out.slice(-3000)}`));
        });
      });
    },
  };
}

/** Whether a process id is alive (signal 0). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
