/**
 * Daily token budgets through the real composition: `createLlmRuntime` with a store puts the
 * spend gate in front of the seats and the judge; the round host runs a match against the local OpenAI
 * emulator. A spent channel budget makes the LLM seat wait visibly and the judge fall back to the rule
 * judge, with no request sent; otherwise the seat's and the judge's tokens land in the store under the
 * match and its channel, and each call is logged as one structured line.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createLlmRuntime } from '../../src/app/llm.js';
import { RULE_JUDGE_ID } from '../../src/engine/judge/rule-judge.js';
import { LlmConfigSchema, type LlmConfigInput } from '../../src/llm/config.js';
import { openStore, type EventStore, type LlmUsageRecord } from '../../src/store/index.js';
import { startOpenAiEmulator, type OpenAiEmulator } from '../emulators/openai.js';
import { harness, person, publishedText, unwrap } from '../host/helpers.js';
import { contestedSeed, honest, market, v, verdictFor } from './helpers.js';

const HOST = person('host');
const ALICE = person('alice');
const BOB = person('bob');
/** A seed where alice's (lab_0), the LLM seat's (lab_1) and bob's (lab_2) honest pitches are all contenders: the LLM judge is asked. */
const SEED = contestedSeed(0, ['lab_0', 'lab_1', 'lab_2']);
const theirs = honest(market(SEED), 'lab_1');
/** The LLM seat waits and pitches the truth. */
const SEAT_REPLY = JSON.stringify({
  plan: null,
  actions: [{ action_type: 'wait' }],
  pitch: { message: theirs.text, job_ids: theirs.jobs },
});
const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/** A pino logger writing JSON lines into `lines`. */
function capture(): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString('utf8').split('\n'))
        if (l.trim()) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

/** A runtime on the emulator with `over` settings and a host on `store`; returns both. */
async function setUp(emu: OpenAiEmulator, store: EventStore, over: LlmConfigInput) {
  const { logger, lines } = capture();
  const config = LlmConfigSchema.parse({
    baseUrl: emu.baseURL,
    agentModel: 'agent-m',
    judgeModel: 'judge-m',
    timeoutMs: 10_000,
    maxRetries: 0,
    ...over,
  });
  const rt = await createLlmRuntime(config, logger, store);
  assert.ok(rt.agentFor && rt.judge);
  const h = await harness({
    store,
    agentFor: rt.agentFor,
    judge: rt.judge,
    judgeTimeoutMs: rt.hostJudgeTimeoutMs,
    allowedModels: rt.allowedModels,
  });
  return { h, lines };
}

/** Open a match in `channel`: alice on lab_0 and bob on lab_2 (they pitch), an LLM seat on lab_1; started. */
async function startMatch(h: Awaited<ReturnType<typeof setUp>>['h'], channel: string) {
  const m = unwrap(await h.host.create(channel, 'test', HOST, { task: 'market_round', seed: SEED, roundSeconds: 0 }));
  unwrap(await h.host.join(channel, ALICE, 'lab_0'));
  unwrap(await h.host.join(channel, BOB, 'lab_2'));
  unwrap(await h.host.assign(channel, HOST, 'lab_1', { kind: 'llm', model: 'agent-m' }));
  unwrap(await h.host.start(channel, HOST));
  await h.host.idle();
  return m;
}

/** Close round 0: alice and bob pitch and are done (the close is judged in the background; wait for it). */
async function closeFirstRound(h: Awaited<ReturnType<typeof setUp>>['h'], channel: string) {
  for (const [who, lab] of [
    [ALICE, 'lab_0'],
    [BOB, 'lab_2'],
  ] as const) {
    const mine = honest(market(SEED), lab);
    unwrap(await h.host.act(channel, who, { action_type: 'make_pitch', message: mine.text, job_ids: mine.jobs }));
  }
  unwrap(await h.host.done(channel, ALICE));
  unwrap(await h.host.done(channel, BOB));
  await h.host.idle();
}

describe('token budgets through the runtime and the round host', () => {
  let emu: OpenAiEmulator;
  let store: EventStore;
  before(async () => {
    emu = await startOpenAiEmulator({
      responder: (req) =>
        req.body?.model === 'judge-m' ? { content: verdictFor(req, () => v(0.5)) } : { content: SEAT_REPLY },
    });
    store = await openStore({ sqlitePath: ':memory:' });
  });
  after(async () => {
    await store.close();
    await emu.close();
  });

  test('a spent channel: the LLM seat waits and the judge falls back, nothing is sent, the refusal is logged', async () => {
    // Another process spent the channel's day (recorded for today and tomorrow, so midnight cannot flip the test).
    const now = new Date();
    for (const day of [utcDay(now), utcDay(new Date(now.getTime() + 86_400_000))]) {
      await store.addLlmUsage({
        day,
        channelId: 'c-spent',
        matchId: null,
        model: 'agent-m',
        calls: 1,
        promptTokens: 1_000,
      });
    }
    const { h, lines } = await setUp(emu, store, { channelDailyTokens: 1_000 });
    const n0 = emu.chatRequests().length;
    const m = await startMatch(h, 'c-spent');
    assert.match(
      publishedText(h),
      /could not act \(agent error: today's LLM token budget for this channel is spent \(it resets at 00:00 UTC\)\); the seat waits this round/,
    );
    await closeFirstRound(h, 'c-spent');
    assert.equal(emu.chatRequests().length - n0, 0, 'no request reached the server');
    const closed = (await store.load(m.id)).flatMap((e) => (e.body.type === 'round_closed' ? [e.body] : []))[0];
    const decision = closed?.judge as { judgeId: string; meta?: { fallback?: unknown; runs?: { message?: string }[] } };
    assert.equal(decision.judgeId, RULE_JUDGE_ID, 'the rule judge decided');
    assert.equal(decision.meta?.fallback, "LLM judge budget_exhausted: the channel's daily LLM token budget is spent");
    assert.match(decision.meta?.runs?.[0]?.message ?? '', /^llm_budget_spent \(channel\)/);
    const refused = lines.filter((l) => l.msg !== undefined && String(l.msg).startsWith('llm call refused'));
    const roles = refused.map((l) => l.llm as { role: string; refusal: { scope: string; code: string } });
    assert.ok(
      roles.some((r) => r.role === 'agent') && roles.some((r) => r.role === 'judge'),
      'the seat and the judge were refused',
    );
    assert.ok(roles.every((r) => r.refusal.code === 'llm_budget_spent' && r.refusal.scope === 'channel'));
    assert.ok(
      refused.every((l) => l.level === 40),
      'refusals log at warn',
    );
    unwrap(await h.host.end('c-spent', HOST));
    await h.host.stop();
  });

  test('seating a model on a spent day is refused up front (budget_exhausted); a scripted seat and another channel still work', async () => {
    const now = new Date();
    for (const day of [utcDay(now), utcDay(new Date(now.getTime() + 86_400_000))]) {
      await store.addLlmUsage({
        day,
        channelId: 'c-full',
        matchId: null,
        model: 'agent-m',
        calls: 1,
        promptTokens: 5_000,
      });
    }
    const config = LlmConfigSchema.parse({
      baseUrl: emu.baseURL,
      agentModel: 'agent-m',
      judgeModel: 'judge-m',
      timeoutMs: 10_000,
      maxRetries: 0,
      channelDailyTokens: 5_000,
    });
    const rt = await createLlmRuntime(config, capture().logger, store);
    assert.ok(rt.agentFor && rt.llmSeatRefusal);
    const h = await harness({
      store,
      agentFor: rt.agentFor,
      allowedModels: rt.allowedModels,
      llmSeatRefusal: rt.llmSeatRefusal,
    });
    unwrap(await h.host.create('c-full', 'test', HOST, { task: 'market_round', seed: 5, roundSeconds: 0 }));
    const r = await h.host.assign('c-full', HOST, 'lab_1', { kind: 'llm', model: 'agent-m' });
    assert.equal(!r.ok && r.error.code, 'budget_exhausted');
    assert.match(
      !r.ok ? r.error.message : '',
      /^No LLM seat now: this channel has spent 5,000 of its 5,000 LLM tokens for today \(UTC \d{4}-\d\d-\d\d\); LLM calls resume at 00:00 UTC\. Seat a scripted policy \(`agent:scripted`\) instead\.$/,
    );
    const m = (await h.host.current('c-full'))!;
    assert.equal(m.drivers.lab_1, undefined, 'nothing was recorded');
    const other = await h.host.assign('c-full', ALICE, 'lab_1', { kind: 'llm', model: 'agent-m' });
    assert.equal(!other.ok && other.error.code, 'not_host', 'a non-host learns only that they may not seat');
    unwrap(await h.host.assign('c-full', HOST, 'lab_1', { kind: 'scripted', policy: 'rule_based_expert' }));
    unwrap(await h.host.create('c-fresh', 'test', HOST, { task: 'market_round', seed: 5, roundSeconds: 0 }));
    unwrap(await h.host.assign('c-fresh', HOST, 'lab_1', { kind: 'llm', model: 'agent-m' }));
    unwrap(await h.host.end('c-full', HOST));
    unwrap(await h.host.end('c-fresh', HOST));
    await h.host.stop();
  });

  test('within the budgets: the seat and the judge are counted under the match and its channel, one log line each', async () => {
    const from = utcDay(new Date());
    const { h, lines } = await setUp(emu, store, {
      channelDailyTokens: 1_000_000,
      priceInputPerMillion: 0.15,
      priceOutputPerMillion: 0.6,
    });
    const n0 = emu.chatRequests().length;
    const m = await startMatch(h, 'c-count');
    await closeFirstRound(h, 'c-count');
    const sent = emu.chatRequests().length - n0;
    assert.ok(sent >= 3, `the seat and the judge (both orders) were asked: ${sent} requests`);
    const days = [...new Set([from, utcDay(new Date())])];
    const rows: LlmUsageRecord[] = (await Promise.all(days.map((d) => store.listLlmUsage(d))))
      .flat()
      .filter((r) => r.matchId === m.id);
    assert.deepEqual(
      [...new Set(rows.map((r) => r.channelId))],
      ['c-count'],
      'counted under the match and its channel',
    );
    const calls = (model: string) => rows.filter((r) => r.model === model).reduce((x, r) => x + r.calls, 0);
    assert.ok(calls('agent-m') >= 1, 'the seat was counted');
    assert.ok(calls('judge-m') >= 2, 'the judge was counted against the match (withLlmMatch in the round host)');
    assert.equal(calls('agent-m') + calls('judge-m'), sent, 'every request was counted once');
    const usage = lines
      .filter((l) => l.msg === 'llm usage')
      .map(
        (l) =>
          l.llm as {
            matchId: string;
            channelId: string;
            tokens: number;
            code: string;
            promptTokens: number;
            completionTokens: number;
            matchTokens: number;
            costUsd: number;
          },
      );
    assert.equal(usage.length, sent, 'one log line per call');
    assert.ok(usage.every((u) => u.matchId === m.id && u.channelId === 'c-count' && u.tokens > 0 && u.code === 'ok'));
    // With prices configured, each line has its estimated cost and the match's running token total.
    for (const u of usage)
      assert.equal(u.costUsd, Math.round(((u.promptTokens * 0.15 + u.completionTokens * 0.6) / 1e6) * 1e6) / 1e6);
    const total = rows.reduce((x, r) => x + r.tokens, 0);
    for (const u of usage)
      assert.ok(
        u.matchTokens >= u.tokens && u.matchTokens <= total,
        'a running total of the match (calls in flight together may not count each other)',
      );
    unwrap(await h.host.end('c-count', HOST));
    await h.host.stop();
  });
});
