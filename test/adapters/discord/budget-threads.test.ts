/**
 * One host in four threads cannot spend another server's LLM budget: the real discord.js Client
 * (startDiscord with the real LLM runtime and its spend gate on SQLite ':memory:') against the local Discord
 * and OpenAI emulators. Every model call reports 20,000 tokens.
 *
 * Budgets: the deployment 200,000 a day, a channel 100,000, a host 70,000. Mallory opens a market_round match
 * in each of four threads of one channel of server 1, seats an LLM on lab_1 and plays five rounds in each:
 * her seats could make 20 calls (400,000 tokens), as many as four channels' budgets and twice the
 * deployment's, which before the host budget spent the deployment's day and left every other server's judge
 * on the rule judge. Now:
 * - every call of her matches counts against the threads' parent channel and against her;
 * - she spends at most her budget plus one call; once it is spent her new `seat … agent:llm` is refused with
 *   a clear private message (the seat's turn says the host's budget is spent);
 * - Olga, in server 2, then plays a match with an LLM seat and the LLM judge: her seat is asked, her round is
 *   decided by the LLM judge (no fallback), and the deployment's day is far from spent.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { createLlmRuntime } from '../../../src/app/llm.js';
import { startDiscord, type DiscordRuntime } from '../../../src/app/discord.js';
import { RULE_JUDGE_ID } from '../../../src/engine/judge/rule-judge.js';
import { FakeClock } from '../../../src/host/index.js';
import { LlmConfigSchema } from '../../../src/llm/config.js';
import { openStore, type EventStore, type LlmUsageRecord } from '../../../src/store/index.js';
import { DiscordEmulator, type EmulatorUser, type Place } from '../../emulators/discord.js';
import { startOpenAiEmulator, type OpenAiEmulator } from '../../emulators/openai.js';
import { contestedSeed, honest, market, verdictFor, v } from '../../agents/helpers.js';
import { payloadText, publicMessages, slash as slashAt, type Answer } from './helpers.js';

const mallory: EmulatorUser = { id: '330000000000000001', username: 'mallory' };
const olga: EmulatorUser = { id: '330000000000000002', username: 'olga' };
const PER_CALL = 20_000;
const BUDGETS = { dailyTokens: 200_000, channelDailyTokens: 100_000, personDailyTokens: 70_000, matchTokenBudget: 0 };
const WAIT_REPLY = JSON.stringify({ plan: null, actions: [{ action_type: 'wait' }], pitch: null });
const utcDay = (d: Date) => d.toISOString().slice(0, 10);

describe("discord: one host in four threads cannot spend another server's LLM budget", () => {
  const emu = new DiscordEmulator();
  let server2: Place;
  let llm: OpenAiEmulator;
  let store: EventStore;
  let rt: DiscordRuntime;

  before(async () => {
    server2 = emu.addGuild();
    await emu.start();
    llm = await startOpenAiEmulator({
      responder: (req) => ({
        content: req.body?.model === 'judge-m' ? verdictFor(req, () => v(0.6)) : WAIT_REPLY,
        usage: { prompt_tokens: PER_CALL, completion_tokens: 0 },
      }),
    });
    store = await openStore({ sqlitePath: ':memory:' });
    const config = LlmConfigSchema.parse({
      baseUrl: llm.baseURL,
      agentModel: 'agent-m',
      judgeModel: 'judge-m',
      timeoutMs: 10_000,
      maxRetries: 0,
      maxOutputTokens: 16,
      ...BUDGETS,
    });
    const runtime = await createLlmRuntime(config, pino({ level: 'silent' }), store);
    assert.ok(runtime.agentFor && runtime.judge && runtime.llmSeatRefusal);
    rt = await startDiscord({
      env: { DISCORD_TOKEN: 'MTIz.fake.SECRET' },
      store,
      logger: pino({ level: 'silent' }),
      restApi: emu.restApi,
      softDeadlineMs: 60_000,
      hostOptions: {
        clock: new FakeClock(),
        judge: runtime.judge,
        judgeTimeoutMs: runtime.hostJudgeTimeoutMs,
        agentFor: runtime.agentFor,
        defaultAgentModel: runtime.defaultAgentModel,
        allowedModels: runtime.allowedModels,
        llmSeatRefusal: runtime.llmSeatRefusal,
      },
    });
  });
  after(async () => {
    await rt.stop();
    await store.close();
    await llm.close();
    await emu.close();
  });

  /** A command in `at`; then the host's background work (agent turns) is let finish. */
  async function slash(
    user: EmulatorUser,
    at: Place,
    sub: string,
    opts: Record<string, string | number> = {},
  ): Promise<Answer> {
    const a = await slashAt(emu, rt.bot, user, sub, opts, at);
    await rt.host.idle();
    return a;
  }
  const text = (a: Answer) => a.messages.map((m) => payloadText(m.body)).join('\n');
  /** Today's usage rows (and tomorrow's, should the test cross midnight UTC). */
  async function usage(): Promise<LlmUsageRecord[]> {
    const now = new Date();
    const days = [...new Set([utcDay(new Date(now.getTime() - 3_600_000)), utcDay(now)])];
    return (await Promise.all(days.map((d) => store.listLlmUsage(d)))).flat();
  }
  const tokensOf = (rows: LlmUsageRecord[]) => rows.reduce((n, r) => n + r.tokens, 0);

  test("her spend stops at her budget, counted against the parent channel; another server's seat and judge run", async () => {
    const parent = emu.channelId;
    const threads: Place[] = Array.from({ length: 4 }, () => emu.addThread(parent));
    const seatAnswers: string[] = [];
    const matchIds: string[] = [];
    for (const t of threads) {
      await slash(mallory, t, 'new', { task: 'market_round', round_seconds: 0 });
      matchIds.push((await rt.host.current(t.channelId))!.id);
      seatAnswers.push(text(await slash(mallory, t, 'seat', { lab: 'lab_1', agent: 'llm', model: 'agent-m' })));
      await slash(mallory, t, 'join', { lab: 'lab_0' });
      await slash(mallory, t, 'start');
      for (let round = 0; round < 5 && (await rt.host.current(t.channelId)) !== null; round++)
        await slash(mallory, t, 'done');
    }
    const hers = (await usage()).filter((r) => r.matchId !== null && matchIds.includes(r.matchId));
    // Counted against the threads' parent channel and against her.
    assert.deepEqual(
      [...new Set(hers.map((r) => r.channelId))],
      [parent],
      'every thread counts against its parent channel',
    );
    assert.deepEqual([...new Set(hers.map((r) => r.personId))], [`discord:${mallory.id}`]);
    const spent = tokensOf(hers);
    assert.ok(spent > 0, 'her seats were asked');
    assert.ok(spent <= BUDGETS.personDailyTokens + PER_CALL, `she spent ${spent}: at most her budget plus one call`);
    assert.ok(
      hers.some((r) => r.refused > 0),
      'her seats were refused once her budget was spent',
    );
    // Once spent, seating a model is refused up front, privately, saying why and what to do instead.
    const refused = seatAnswers.filter((s) => /budget_exhausted/.test(s));
    assert.ok(refused.length >= 1, `a later thread's LLM seat is refused: ${seatAnswers.join(' | ')}`);
    assert.match(
      refused[0]!,
      /No LLM seat now: this match's host has used their LLM tokens for today \(UTC \d{4}-\d\d-\d\d\); their LLM calls resume at 00:00 UTC\. Seat a scripted policy/,
    );
    // The seat whose call was refused says why in its channel.
    assert.match(
      publicMessages(emu)
        .map((m) => payloadText(m.body))
        .join('\n'),
      /today's LLM token budget of this match's host is spent \(it resets at 00:00 UTC\)/,
    );

    // Olga, in another server: her LLM seat is asked and the LLM judge decides her round. She picks a world
    // where her pitch and her LLM seat's truthful pitch are contenders, so the judge does ask its model
    // (with one pitch that can win it would not, budget or no budget).
    const seed = contestedSeed(0, ['lab_0', 'lab_1']);
    const theirs = honest(market(seed), 'lab_1');
    const seatReply = JSON.stringify({
      plan: null,
      actions: [{ action_type: 'wait' }],
      pitch: { message: theirs.text, job_ids: theirs.jobs },
    });
    llm.setResponder((req) => ({
      content: req.body?.model === 'judge-m' ? verdictFor(req, () => v(0.6)) : seatReply,
      usage: { prompt_tokens: PER_CALL, completion_tokens: 0 },
    }));
    const before = llm.chatRequests().length;
    await slash(olga, server2, 'new', { task: 'market_round', round_seconds: 0, seed });
    const seated = await slash(olga, server2, 'seat', { lab: 'lab_1', agent: 'llm', model: 'agent-m' });
    assert.doesNotMatch(text(seated), /budget_exhausted/);
    await slash(olga, server2, 'join', { lab: 'lab_0' });
    await slash(olga, server2, 'start');
    const m = (await rt.host.current(server2.channelId))!;
    const pitch = honest(m.state!, 'lab_0');
    await slash(olga, server2, 'pitch', { text: pitch.text, job: pitch.jobs.join(',') });
    await slash(olga, server2, 'done');
    const closed = (await store.load(m.id)).flatMap((e) => (e.body.type === 'round_closed' ? [e.body] : []))[0];
    const decision = closed?.judge as { judgeId: string; meta?: { fallback?: unknown } } | null;
    assert.ok(decision, 'her round was judged');
    assert.notEqual(decision.judgeId, RULE_JUDGE_ID, 'the LLM judge decided, not the fallback');
    assert.ok(!decision.meta?.fallback, 'no fallback');
    const hersToo = (await usage()).filter((r) => r.matchId === m.id);
    assert.ok(
      hersToo.some((r) => r.model === 'agent-m' && r.calls > 0),
      "olga's LLM seat was asked",
    );
    assert.ok(
      hersToo.every((r) => r.refused === 0),
      'nothing of hers was refused',
    );
    assert.ok(llm.chatRequests().length > before);
    const day = tokensOf(await usage());
    assert.ok(day < BUDGETS.dailyTokens, "the deployment's day is not spent");
    // DUMP_BUDGET=1 prints the figures.
    if (process.env.DUMP_BUDGET) {
      const refusedCalls = hers.reduce((n, r) => n + r.refused, 0);
      console.log(
        `mallory: ${spent} tokens in ${hers.reduce((n, r) => n + r.calls, 0)} calls, ${refusedCalls} refused, ${refused.length} of 4 LLM seats refused up front; olga: ${tokensOf(hersToo)} tokens, judge ${decision.judgeId}; deployment ${day} of ${BUDGETS.dailyTokens}`,
      );
    }
  });
});
