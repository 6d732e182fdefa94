/**
 * The measurements of `npm run bench:llm` (src/cli/bench-llm.ts): the real RoundHost and LLM runtime (spend
 * gate, SQLite store in memory) against the OpenAI emulator answering every request after D ms, with the
 * stand-ins of src/eval/bench-llm-standins.ts as seats (they wait and pitch a true claim) and judge.
 * Round times are taken where the host appends `match_started` / `round_closed` (a store wrapper), read
 * latencies around the `status` command, calls and tokens from the store's `llm_usage` rows. Wall-clock
 * figures: a bench, never a test.
 */
import { labIdsFor } from '../engine/index.js';
import type { TaskName } from '../engine/types.js';
import type { Caller } from '../chat/types.js';
import { runText } from '../commands/run.js';
import { RoundHost } from '../host/host.js';
import { LlmConfigSchema } from '../llm/config.js';
import { createLlmRuntime } from '../app/llm.js';
import { openStore } from '../store/open.js';
import type { EventStore } from '../store/types.js';
import { startOpenAiEmulator, type RecordedRequest } from '../eval/openai-emulator.js';
import { benchResponder, isJudgeRequest } from '../eval/bench-llm-standins.js';

/** One host + runtime + emulator, with what was measured in it. */
export interface BenchWorld {
  host: RoundHost;
  store: EventStore;
  requests: () => RecordedRequest[];
  /** performance.now() of each `match_started` / `round_closed` append, by match id. */
  marks: Map<string, number[]>;
  /** performance.now() of each judge request's arrival at the emulator. */
  judgeCalls: number[];
  /** Reads sent while a judge request was open: latency ms, and whether the read answered before that judge request. */
  reads: { ms: number; beforeJudgeAnswer: boolean }[];
  /** Channels that get a `status` read when a judge call arrives (with `readDuringJudge`). */
  watched: Set<string>;
  close(): Promise<void>;
}

/** How a world is set up. */
export interface WorldOptions {
  /** The emulator's answer delay D, ms. */
  delayMs: number;
  /** Whether the LLM judge runs (else the rule judge). */
  llmJudge: boolean;
  maxConcurrent: number;
  /** Send a `status` read each time a judge call arrives. */
  readDuringJudge?: boolean;
}

const HOST: Caller = { userId: 'bench:host', displayName: 'host', isAdmin: false };
const WATCHER: Caller = { userId: 'bench:watcher', displayName: 'watcher', isAdmin: false };

/** Start a world: emulator, in-memory store (wrapped to time round closes), LLM runtime, round host. */
export async function startWorld(o: WorldOptions): Promise<BenchWorld> {
  const marks = new Map<string, number[]>();
  const reads: BenchWorld['reads'] = [];
  const judgeCalls: number[] = [];
  const inner = await openStore({ sqlitePath: ':memory:' });
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop !== 'append') return Reflect.get(target, prop, receiver) as unknown;
      const append: EventStore['append'] = async (matchId, expectedSeq, body, at) => {
        const r = await target.append(matchId, expectedSeq, body, at);
        if (r.ok && (body.type === 'round_closed' || body.type === 'match_started'))
          marks.set(matchId, [...(marks.get(matchId) ?? []), performance.now()]);
        return r;
      };
      return append;
    },
  });
  let host: RoundHost | null = null;
  const watched = new Set<string>();
  const base = benchResponder('honest');
  const emu = await startOpenAiEmulator({
    delayMs: o.delayMs,
    responder: (req) => {
      if (isJudgeRequest(req)) judgeCalls.push(performance.now());
      if (o.readDuringJudge && host && isJudgeRequest(req)) {
        const h = host;
        setImmediate(() => {
          for (const channel of watched) {
            const t0 = performance.now();
            void runText(h, channel, WATCHER, 'status').then(() =>
              reads.push({ ms: performance.now() - t0, beforeJudgeAnswer: req.answeredAt === null }),
            );
          }
        });
      }
      return base(req);
    },
  });
  const config = LlmConfigSchema.parse({
    baseUrl: emu.baseURL,
    agentModel: 'bench-agent',
    judgeModel: o.llmJudge ? 'bench-judge' : null,
    maxConcurrent: o.maxConcurrent,
    maxRetries: 0,
    timeoutMs: Math.max(30_000, 20 * o.delayMs),
    judgeTimeoutMs: Math.max(18_000, 10 * o.delayMs),
    matchTokenBudget: 0,
    dailyTokens: 0,
    channelDailyTokens: 0,
  });
  const rt = await createLlmRuntime(config, undefined, store);
  host = new RoundHost({
    store,
    publish: async () => {},
    ...(rt.judge ? { judge: rt.judge } : {}),
    judgeTimeoutMs: rt.hostJudgeTimeoutMs,
    ...(rt.agentFor ? { agentFor: rt.agentFor } : {}),
    defaultAgentModel: rt.defaultAgentModel,
    allowedModels: rt.allowedModels,
    agentTimeoutMs: Math.max(60_000, 20 * o.delayMs),
  });
  const world: BenchWorld = {
    host,
    store,
    requests: () => emu.chatRequests(),
    marks,
    judgeCalls,
    reads,
    watched,
    close: async () => {
      await host?.stop();
      await emu.close();
      await inner.close();
    },
  };
  return world;
}

/** A match of `task`/`seed` with LLM seats on its first `llmSeats` labs (scripted archetypes on the rest). */
export async function playMatch(
  w: BenchWorld,
  channel: string,
  task: TaskName,
  seed: number,
  llmSeats: number,
  rounds: number | 'all',
  watch = false,
): Promise<{ matchId: string; closes: number[]; judged: boolean[] }> {
  const ok = <T>(r: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T => {
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    return r.value;
  };
  const m = ok(await w.host.create(channel, 'bench', HOST, { task, seed, roundSeconds: 0, votes: false }));
  for (const lab of labIdsFor(task, seed).slice(0, llmSeats))
    ok(await w.host.assign(channel, HOST, lab, { kind: 'llm', model: 'bench-agent' }));
  if (watch) w.watched.add(channel);
  ok(await w.host.start(channel, HOST));
  const want = rounds === 'all' ? Infinity : rounds;
  for (;;) {
    const cur = await w.store.getMatch(m.id);
    const closes = (w.marks.get(m.id)?.length ?? 1) - 1;
    if (cur?.status === 'over' || closes >= want) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  w.watched.delete(channel);
  const final = await w.store.getMatch(m.id);
  if (final?.status !== 'over') await w.host.end(channel, HOST);
  await w.host.idle();
  const marks = (w.marks.get(m.id) ?? []).slice(0, rounds === 'all' ? undefined : rounds + 1);
  // A round the model judged: a judge request arrived between its open and its close (one match per world).
  const judged = marks.slice(1).map((t, i) => w.judgeCalls.some((j) => j > marks[i]! && j <= t));
  return { matchId: m.id, closes: marks.slice(1).map((t, i) => t - marks[i]!), judged };
}

/** Calls and tokens of one match from the store's `llm_usage` rows, by model. */
export async function usageOf(
  store: EventStore,
  matchId: string,
): Promise<Map<string, { calls: number; prompt: number; completion: number }>> {
  const day = new Date().toISOString().slice(0, 10);
  const out = new Map<string, { calls: number; prompt: number; completion: number }>();
  for (const r of await store.listLlmUsage(day)) {
    if (r.matchId !== matchId) continue;
    const s = out.get(r.model) ?? { calls: 0, prompt: 0, completion: 0 };
    s.calls += r.calls;
    s.prompt += r.promptTokens;
    s.completion += r.completionTokens;
    out.set(r.model, s);
  }
  return out;
}

/** Median of a non-empty list (mean of the middle two). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
