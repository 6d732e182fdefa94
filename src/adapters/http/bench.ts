/**
 * Throughput and latency of the trainer HTTP API against the in-process gym, on the same policy and
 * seeds. A step over HTTP = one `POST /step` on a keep-alive connection (client.ts); in process
 * = one `ArenaEnv.step`. Each of `sessions` workers plays episodes back to back (seeds w, w+n, w+2n, …),
 * resetting its session in place; resets are not counted as steps. Latency is per step, in ms.
 *
 * Wall-clock rates swing with whatever else runs on the machine; CPU time per step does much less: the
 * in-process row measures the CPU of each `ArenaEnv.step`, an HTTP row the server's CPU (a callback
 * the caller passes, e.g. from /proc for a child process) over its timed steps, resets included.
 */
import { ArenaEnv } from '../../engine/gym.js';
import { rng } from '../../engine/index.js';
import { getPolicy } from '../../engine/policies/index.js';
import type { PolicyName, TaskName } from '../../engine/types.js';
import type { Observation } from '../../engine/views.js';
import { ArenaClient } from './client.js';

/** One row of the bench. */
export interface ServerBenchRow {
  mode: 'http' | 'in-process';
  sessions: number;
  steps: number;
  episodes: number;
  seconds: number;
  stepsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU ms per step: the server process's (HTTP), the engine step's (in process); null when unknown. */
  cpuMsPerStep: number | null;
}

/** What both benches play: the task of every episode, the client-side policy, timed and warm-up seconds. */
export interface ServerBenchOptions {
  task: TaskName;
  policy: PolicyName;
  seconds: number;
  /** Untimed play first (JIT warm-up of client and server). */
  warmupSeconds: number;
}

/** The q-quantile (0–1) of sorted values (nearest rank). */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

function row(
  mode: ServerBenchRow['mode'],
  sessions: number,
  latencies: number[],
  episodes: number,
  seconds: number,
  cpuMs: number | null,
): ServerBenchRow {
  const sorted = Float64Array.from(latencies).sort();
  const arr = Array.from(sorted);
  const cpuMsPerStep = cpuMs === null || arr.length === 0 ? null : cpuMs / arr.length;
  return {
    mode,
    sessions,
    steps: arr.length,
    episodes,
    seconds,
    stepsPerSecond: seconds > 0 ? arr.length / seconds : 0,
    p50Ms: quantile(arr, 0.5),
    p99Ms: quantile(arr, 0.99),
    cpuMsPerStep,
  };
}

/** CPU ms this process used so far (user + system). */
function ownCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function policyOf(name: PolicyName): (obs: Observation, seed: number) => Record<string, unknown> {
  const fn = getPolicy(name);
  return (obs, seed) =>
    (fn(obs, { rng: rng(seed, obs.round, 'policy:lab_0'), holdout: false })[0] ?? { action_type: 'wait' }) as Record<
      string,
      unknown
    >;
}

/** The gym in this process, one episode after another, for `seconds` after the warm-up. */
export function benchInProcess(opts: ServerBenchOptions): ServerBenchRow {
  const act = policyOf(opts.policy);
  const env = new ArenaEnv();
  let cpu = 0;
  const run = (ms: number, firstSeed: number, lat: number[]): number => {
    const end = performance.now() + ms;
    let episodes = 0;
    for (let seed = firstSeed; performance.now() < end; seed++) {
      let obs = env.reset({ task: opts.task, seed });
      while (!env.done) {
        const action = act(obs, seed);
        const c0 = ownCpuMs();
        const t0 = performance.now();
        obs = env.step(action).observation;
        lat.push(performance.now() - t0);
        cpu += ownCpuMs() - c0;
      }
      episodes++;
    }
    return episodes;
  };
  run(opts.warmupSeconds * 1000, 1_000_000, []);
  cpu = 0;
  const lat: number[] = [];
  const t0 = performance.now();
  const episodes = run(opts.seconds * 1000, 0, lat);
  return row('in-process', 1, lat, episodes, (performance.now() - t0) / 1000, cpu);
}

/** `sessions` concurrent workers against the server at `url`; `serverCpuMs` reads the server's CPU ms so far (null: unknown). */
export async function benchHttp(
  url: string,
  sessions: number,
  opts: ServerBenchOptions,
  serverCpuMs: () => number | null = () => null,
): Promise<ServerBenchRow> {
  const act = policyOf(opts.policy);
  const client = new ArenaClient(url, { maxSockets: sessions });
  const ids: string[] = [];
  const must = <T>(r: { ok: true; body: T } | { ok: false; error: { code: string; message: string } }): T => {
    if (!r.ok) throw new Error(`bench: ${r.error.code}: ${r.error.message}`);
    return r.body;
  };
  const worker = async (w: number, ms: number, firstSeed: number, lat: number[]): Promise<number> => {
    const end = performance.now() + ms;
    let episodes = 0;
    let id: string | undefined = ids[w];
    for (let seed = firstSeed + w; performance.now() < end; seed += sessions) {
      const r = must(await client.reset({ task: opts.task, seed, session_id: id }));
      id = ids[w] = r.session_id;
      let obs: Observation = r.observation;
      let done = false;
      while (!done) {
        const action = act(obs, seed);
        const t0 = performance.now();
        const s = must(await client.step(id, action));
        lat.push(performance.now() - t0);
        obs = s.observation;
        done = s.done;
      }
      episodes++;
    }
    return episodes;
  };
  try {
    await Promise.all(Array.from({ length: sessions }, (_, w) => worker(w, opts.warmupSeconds * 1000, 1_000_000, [])));
    const lat: number[] = [];
    const c0 = serverCpuMs();
    const t0 = performance.now();
    const episodes = await Promise.all(
      Array.from({ length: sessions }, (_, w) => worker(w, opts.seconds * 1000, 0, lat)),
    );
    const seconds = (performance.now() - t0) / 1000;
    const c1 = serverCpuMs();
    return row(
      'http',
      sessions,
      lat,
      episodes.reduce((a, b) => a + b, 0),
      seconds,
      c0 === null || c1 === null ? null : c1 - c0,
    );
  } finally {
    await Promise.all(ids.map((id) => client.deleteSession(id)));
    client.close();
  }
}
