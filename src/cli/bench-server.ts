/**
 * `npm run bench:server -- [--sessions 1,16,64] [--seconds 10] [--warmup-seconds 3] [--task market_round] [--policy random_validish] [--log-level info] [--serve file] [--in-process-server]`
 *
 * Steps/s and p50/p99 step latency of the trainer HTTP API over loopback with keep-alive (bench.ts), at
 * each session count, beside the in-process gym on the same policy and seeds; the HTTP overhead is the
 * ratio of the two throughputs. The server runs in a child process (`src/cli/serve.ts`, as a trainer
 * would use it, at the log level `npm run serve` uses by default: info) unless `--in-process-server`;
 * `--serve` starts another build's serve entry instead (e.g. a checkout of an older version, for a
 * before/after comparison on the same machine). Beside the wall-clock rates, which swing with the
 * machine's load, it reports CPU ms per step: the child server's (from /proc, Linux) and the gym step's,
 * and their ratio. Exit codes: 0 ok, 2 bad arguments, 1 the server failed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { z } from 'zod';
import { POLICY_NAMES } from '../engine/config.js';
import { TASK_NAMES, type PolicyName, type TaskName } from '../engine/types.js';
import { renderTable } from '../eval/table.js';
import { clockTick, cpuOf } from '../eval/proc-cpu.js';
import { buildApp } from '../adapters/http/app.js';
import { benchHttp, benchInProcess, type ServerBenchOptions, type ServerBenchRow } from '../adapters/http/bench.js';

const ArgsSchema = z.object({
  sessions: z
    .string()
    .transform((s) => s.split(',').map((x) => Number(x.trim())))
    .pipe(z.array(z.number().int().min(1).max(1024)).min(1)),
  seconds: z.coerce.number().positive().max(3600),
  warmupSeconds: z.coerce.number().min(0).max(600),
  task: z.enum(TASK_NAMES as [TaskName, ...TaskName[]]),
  policy: z.enum(POLICY_NAMES as [PolicyName, ...PolicyName[]]),
  inProcessServer: z.boolean().default(false),
  logLevel: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']),
  serve: z.string().min(1).optional(),
});

function fail(message: string, code = 2): never {
  console.error(`bench:server: ${message}`);
  process.exit(code);
}

/** Start `npm run serve` as a child on a free port; resolves with its URL once it listens. */
function startChild(
  maxSessions: number,
  logLevel: string,
  serve: string | undefined,
): Promise<{ url: string; child: ChildProcess }> {
  // The same build as this process: dist/cli/serve.js when compiled, src/cli/serve.ts through tsx otherwise.
  const compiled = serve === undefined ? import.meta.url.endsWith('.js') : serve.endsWith('.js');
  const cli = serve ?? fileURLToPath(new URL(compiled ? './serve.js' : './serve.ts', import.meta.url));
  const child = spawn(
    process.execPath,
    [...(compiled ? [] : ['--import', 'tsx']), cli, '--host', '127.0.0.1', '--port', '0'],
    {
      env: {
        ...process.env,
        LOG_LEVEL: logLevel,
        ARENA_SERVER_MAX_SESSIONS: String(maxSessions),
        ARENA_SERVER_MAX_SESSIONS_PER_CLIENT: String(maxSessions),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    let listening = false;
    // The server's log lines are read and dropped (a pipe nobody reads would stall it).
    child.stdout!.on('data', (c: Buffer) => {
      if (listening) return;
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        listening = true;
        resolve({ url: m[1]!, child });
      }
    });
    child.on('exit', (code) => reject(new Error(`the server exited (${code}) before listening: ${out}`)));
  });
}

const ms = (x: number | null): string => (x === null ? 'n/a' : x.toFixed(3));

async function main(): Promise<void> {
  const program = new Command()
    .name('bench:server')
    .description('HTTP steps/s and p50/p99 latency at several session counts, beside the in-process gym.')
    .option('--sessions <list>', 'concurrent sessions, comma-separated', '1,16,64')
    .option('--seconds <s>', 'timed seconds per row', '10')
    .option('--warmup-seconds <s>', 'untimed play before each row', '3')
    .option('--task <task>', 'task of every episode', 'market_round')
    .option('--policy <policy>', 'policy of the controlled seat (client side)', 'random_validish')
    .option('--log-level <level>', "the child server's LOG_LEVEL (npm run serve's default: info)", 'info')
    .option('--serve <file>', "another build's serve entry to start (default: this build's)")
    .option('--in-process-server', 'run the server in this process instead of a child process')
    .parse();
  const parsed = ArgsSchema.safeParse(program.opts());
  if (!parsed.success) fail(parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; '));
  const a = parsed.data;
  const opts: ServerBenchOptions = {
    task: a.task,
    policy: a.policy,
    seconds: a.seconds,
    warmupSeconds: a.warmupSeconds,
  };

  const load0 = loadavg()[0]!;
  const local = benchInProcess(opts);
  const max = Math.max(...a.sessions) + 8;
  let url: string;
  let stop: () => Promise<void>;
  let serverCpu: () => number | null = () => null;
  if (a.inProcessServer) {
    const { app } = await buildApp({
      server: {
        maxSessions: max,
        maxSessionsPerClient: max,
        idleTtlSeconds: 600,
        bodyLimitBytes: 65_536,
        debugState: false,
      },
    });
    url = await app.listen({ host: '127.0.0.1', port: 0 });
    stop = () => app.close();
  } else {
    const started = await startChild(max, a.logLevel, a.serve).catch((e: unknown) =>
      fail(e instanceof Error ? e.message : String(e), 1),
    );
    url = started.url;
    serverCpu = cpuOf(started.child.pid, clockTick());
    stop = async () => {
      started.child.removeAllListeners('exit');
      started.child.kill('SIGTERM');
    };
  }
  const rows: ServerBenchRow[] = [];
  try {
    for (const n of a.sessions) rows.push(await benchHttp(url, n, opts, serverCpu));
  } finally {
    await stop();
  }
  rows.push(local);
  console.log(
    `task ${a.task}, policy ${a.policy} (client side), ${a.seconds} s per row after ${a.warmupSeconds} s warm-up; ` +
      `server ${a.inProcessServer ? 'in this process' : `in a child process (${a.serve ?? 'this build'}), LOG_LEVEL=${a.logLevel}`}; Node ${process.version}, ${cpus().length} cores, ` +
      `load average ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)} (other processes share the cores)`,
  );
  console.log(
    renderTable(
      [
        'mode',
        'sessions',
        'steps',
        'episodes',
        'steps/s',
        'p50 ms',
        'p99 ms',
        'gym ÷ http',
        'CPU ms/step',
        'CPU http ÷ gym',
      ],
      rows.map((r) => [
        r.mode,
        r.sessions,
        r.steps,
        r.episodes,
        Math.round(r.stepsPerSecond),
        r.p50Ms,
        r.p99Ms,
        r.mode === 'http' ? `${(local.stepsPerSecond / r.stepsPerSecond).toFixed(1)}×` : '1.0×',
        ms(r.cpuMsPerStep),
        r.mode === 'http' && r.cpuMsPerStep !== null && local.cpuMsPerStep
          ? `${(r.cpuMsPerStep / local.cpuMsPerStep).toFixed(1)}×`
          : r.mode === 'http'
            ? 'n/a'
            : '1.0×',
      ]),
    ),
  );
}

void main();
