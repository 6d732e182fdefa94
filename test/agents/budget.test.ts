/**
 * The spend gate (src/agents/budget.ts): daily token budgets per deployment and per channel and
 * the per-match budget, counted in a real store (SQLite file) shared by two stores ("two bot processes"),
 * in front of the real openai client talking to the local emulator. A refused call never reaches the server.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import {
  spendGate,
  budgetRefusal,
  seatBudgetRefusal,
  type LlmUsageLine,
  type SpendLedger,
  type TokenBudgets,
} from '../../src/agents/budget.js';
import { withLlmMatch } from '../../src/agents/llm-scope.js';
import { storeLedger } from '../../src/app/llm.js';
import type { LlmCaller } from '../../src/llm/types.js';
import { openSqliteStore, type KyselyEventStore } from '../../src/store/index.js';
import { startOpenAiEmulator, type OpenAiEmulator } from '../emulators/openai.js';
import { tempDb } from '../host/helpers.js';
import { emuClient } from './helpers.js';

const DAY = '2025-03-01';
const NOON = new Date(`${DAY}T12:00:00.000Z`);
const NEXT_DAY = new Date('2025-03-02T00:00:01.000Z');
const NONE: TokenBudgets = { dailyTokens: 0, personDailyTokens: 0, channelDailyTokens: 0, matchTokens: 0 };
const Reply = z.object({ ok: z.boolean() });

/** One structured call of `role` for `matchId` (null = none) through `caller`. */
const ask = (caller: LlmCaller, matchId: string | null, role: 'agent' | 'judge' = 'agent') =>
  caller.structured({
    role,
    model: 'm-small',
    messages: [{ role: 'user', content: 'Answer {"ok": true}.' }],
    schema: Reply,
    name: 'probe',
    matchId,
  });

describe('spend gate: token budgets counted in the store', () => {
  let emu: OpenAiEmulator;
  let db: { path: string; cleanup: () => void };
  let a: KyselyEventStore;
  let b: KyselyEventStore;
  before(async () => {
    // Every reply reports 400 prompt + 100 completion tokens.
    emu = await startOpenAiEmulator({
      responder: () => ({ content: '{"ok": true}', usage: { prompt_tokens: 400, completion_tokens: 100 } }),
    });
    db = tempDb();
    a = await openSqliteStore(db.path);
    b = await openSqliteStore(db.path);
    for (const [id, channel] of [
      ['m1', 'chan-a'],
      ['m2', 'chan-b'],
      ['m3', 'chan-c'],
      ['m4', 'chan-d'],
    ] as const) {
      assert.ok((await a.createMatch({ id, channelId: channel, platform: 'test', createdAt: NOON.toISOString() })).ok);
    }
  });
  after(async () => {
    await a.close();
    await b.close();
    await emu.close();
    db.cleanup();
  });

  /** A gate over `store` with `budgets` at time `now`, recording its log lines. */
  function gate(store: KyselyEventStore, budgets: Partial<TokenBudgets>, now = NOON) {
    const lines: LlmUsageLine[] = [];
    const caller = spendGate(emuClient(emu), {
      ledger: storeLedger(store),
      budgets: { ...NONE, ...budgets },
      now: () => now,
      onCall: (l) => lines.push(l),
    });
    return { caller, lines };
  }

  test('a made call is counted: the server-reported tokens, per day, channel, match and model', async () => {
    const { caller, lines } = gate(a, {}, new Date('2025-02-01T08:00:00Z'));
    const n0 = emu.chatRequests().length;
    const r = await ask(caller, 'm1');
    assert.equal(r.ok, true);
    assert.equal(emu.chatRequests().length - n0, 1);
    assert.deepEqual(
      (await b.listLlmUsage('2025-02-01')).map((u) => [
        u.channelId,
        u.matchId,
        u.model,
        u.calls,
        u.refused,
        u.promptTokens,
        u.completionTokens,
        u.tokens,
      ]),
      [['chan-a', 'm1', 'm-small', 1, 0, 400, 100, 500]],
    );
    assert.equal(lines.length, 1);
    assert.deepEqual(
      [lines[0]!.code, lines[0]!.tokens, lines[0]!.channelId, lines[0]!.day, lines[0]!.estimated],
      ['ok', 500, 'chan-a', '2025-02-01', false],
    );
  });

  test('deployment scope: once the day is spent every call is refused unsent; the next UTC day it runs again', async () => {
    // Another process spent the whole day's budget (no channel, no match: e.g. judge calls).
    await b.addLlmUsage({
      day: DAY,
      channelId: null,
      matchId: null,
      model: 'judge',
      calls: 3,
      promptTokens: 9_000,
      completionTokens: 1_000,
    });
    const { caller, lines } = gate(a, { dailyTokens: 10_000 });
    const n0 = emu.chatRequests().length;
    for (const matchId of ['m2', null]) {
      const r = await ask(caller, matchId);
      assert.equal(r.ok, false);
      assert.equal(!r.ok && r.code, 'budget_exhausted');
      assert.match(
        !r.ok ? r.message : '',
        /^llm_budget_spent \(deployment\): the bot's LLM tokens for today \(UTC 2025-03-01\) are spent; LLM calls resume at 00:00 UTC\.$/,
      );
    }
    assert.equal(emu.chatRequests().length - n0, 0, 'nothing reached the server');
    assert.deepEqual(
      lines.map((l) => [l.code, l.refusal?.scope, l.refusal?.spent, l.refusal?.budget]),
      [
        ['llm_budget_spent', 'deployment', 10_000, 10_000],
        ['llm_budget_spent', 'deployment', 10_000, 10_000],
      ],
    );
    const refusedRows = (await a.listLlmUsage(DAY)).filter((u) => u.refused > 0);
    assert.deepEqual(
      refusedRows.map((u) => [u.channelId, u.matchId, u.refused, u.tokens]),
      [
        [null, null, 1, 0],
        ['chan-b', 'm2', 1, 0],
      ],
    );

    const tomorrow = gate(a, { dailyTokens: 10_000 }, NEXT_DAY);
    assert.equal((await ask(tomorrow.caller, 'm2')).ok, true, 'a new UTC day, a new budget');
    assert.equal(emu.chatRequests().length - n0, 1);
  });

  test('the check counts the reply the call may get (maxOutputTokens), not only its prompt', async () => {
    const day = '2025-04-02';
    const at = new Date(`${day}T12:00:00Z`);
    await b.addLlmUsage({
      day,
      channelId: null,
      matchId: null,
      model: 'judge',
      calls: 1,
      promptTokens: 9_000,
      completionTokens: 0,
    });
    const budgets = { ...NONE, dailyTokens: 10_000 };
    const careful = spendGate(emuClient(emu), {
      ledger: storeLedger(a),
      budgets,
      now: () => at,
      maxOutputTokens: 1_200,
    });
    const r = await ask(careful, 'm4');
    assert.equal(
      !r.ok && r.code,
      'budget_exhausted',
      '9,000 spent + the prompt + a possible 1,200-token reply would pass 10,000',
    );
    const promptOnly = spendGate(emuClient(emu), { ledger: storeLedger(a), budgets, now: () => at });
    assert.equal(
      (await ask(promptOnly, 'm4')).ok,
      true,
      'counting the prompt alone, the same call would have been sent',
    );
  });

  test('channel scope: a spent channel is refused while another channel still runs', async () => {
    // The probe's prompt is estimated at 5 tokens (chars / 4): 500 spent + 5 passes 502.
    const budgets = { channelDailyTokens: 502 };
    const { caller, lines } = gate(a, budgets);
    const n0 = emu.chatRequests().length;
    assert.equal((await ask(caller, 'm3')).ok, true, '0 + 5 of 502');
    const second = await ask(caller, 'm3');
    assert.equal(second.ok, false, '500 + 5 would pass 502');
    assert.match(
      !second.ok ? second.message : '',
      /^llm_budget_spent \(channel\): this channel has spent 500 of its 502 LLM tokens for today/,
    );
    assert.equal(lines.at(-1)?.refusal?.scope, 'channel');
    // The second store (another process) sees the same count and refuses too.
    const other = gate(b, budgets);
    assert.equal((await ask(other.caller, 'm3')).ok, false);
    assert.equal(other.lines[0]?.refusal?.scope, 'channel');
    // Another channel is untouched.
    assert.equal((await ask(caller, 'm4')).ok, true);
    assert.equal(emu.chatRequests().length - n0, 2, 'only the two allowed calls reached the server');
    assert.deepEqual(await b.llmSpent({ day: DAY, channelId: 'chan-c', matchId: 'm3' }), {
      deployment: 10_000 + 1_000,
      channel: 500,
      match: 500,
      person: 0,
    });
  });

  test('match scope: the per-match budget holds across two processes; the judge counts through withLlmMatch', async () => {
    await a.createMatch({ id: 'm5', channelId: 'chan-e', platform: 'test', createdAt: NOON.toISOString() });
    const budgets = { matchTokens: 1_003 };
    const first = gate(a, budgets);
    const second = gate(b, budgets);
    assert.equal((await ask(first.caller, 'm5')).ok, true);
    // A judge call names no match: the round host runs the judgement inside withLlmMatch.
    assert.equal((await withLlmMatch('m5', () => ask(second.caller, null, 'judge'))).ok, true);
    assert.equal(second.lines[0]?.matchId, 'm5');
    assert.equal(second.lines[0]?.channelId, 'chan-e');
    const refused = await ask(second.caller, 'm5');
    assert.equal(refused.ok, false, '1,000 spent + 5 would pass 1,003');
    assert.equal(second.lines.at(-1)?.refusal?.scope, 'match');
    assert.deepEqual(await a.llmSpent({ day: DAY, channelId: 'chan-e', matchId: 'm5' }), {
      deployment: 11_000 + 1_000,
      channel: 1_000,
      match: 1_000,
      person: 0,
    });
  });

  test("person scope: one host's matches in several channels share one daily budget; another host and a thread's parent", async () => {
    const day = '2025-05-05';
    const at = new Date(`${day}T12:00:00Z`);
    // Three matches of one host: two in channels of their own, one in a thread of chan-p1 (its parent).
    const created = (id: string, channelId: string, hostUserId: string, parentChannelId?: string) => ({
      type: 'match_created' as const,
      channelId,
      platform: 'discord',
      hostUserId,
      ...(parentChannelId ? { parentChannelId } : {}),
      settings: { task: 'market_round' as const, seed: 1, roundSeconds: 0, holdout: false },
    });
    for (const [id, channel, host, parent] of [
      ['p1', 'chan-p1', 'discord:mal', undefined],
      ['p2', 'chan-p2', 'discord:mal', undefined],
      ['p3', 'thread-of-p1', 'discord:mal', 'chan-p1'],
      ['q1', 'chan-q1', 'discord:olga', undefined],
    ] as const) {
      assert.ok((await a.createMatch({ id, channelId: channel, platform: 'discord', createdAt: at.toISOString() })).ok);
      assert.ok((await a.append(id, 0, created(id, channel, host, parent), at.toISOString())).ok);
    }
    // Each call reports 500 tokens and the probe is estimated at 5: the host's 1,003 allow two calls.
    const { caller, lines } = gate(a, { personDailyTokens: 1_003 }, at);
    assert.equal((await ask(caller, 'p1')).ok, true);
    assert.equal((await ask(caller, 'p2')).ok, true, 'another channel of the same host, same budget');
    const third = await ask(caller, 'p3');
    assert.equal(third.ok, false, 'a third channel (a thread) of the same host: 1,000 + 5 would pass 1,003');
    assert.match(
      !third.ok ? third.message : '',
      /^llm_budget_spent \(person\): this match's host has used their LLM tokens for today \(UTC 2025-05-05\); their LLM calls resume at 00:00 UTC\.$/,
    );
    assert.doesNotMatch(!third.ok ? third.message : '', /1,00[03]/, "no figures of a host's use elsewhere");
    assert.equal((await ask(caller, 'q1')).ok, true, 'another host is untouched');
    assert.deepEqual(
      lines.map((l) => [l.matchId, l.personId, l.channelId, l.code]),
      [
        ['p1', 'discord:mal', 'chan-p1', 'ok'],
        ['p2', 'discord:mal', 'chan-p2', 'ok'],
        ['p3', 'discord:mal', 'chan-p1', 'llm_budget_spent'],
        ['q1', 'discord:olga', 'chan-q1', 'ok'],
      ],
      "a thread's calls count against its parent channel",
    );
    assert.deepEqual(await b.llmSpent({ day, channelId: 'chan-p1', matchId: null, personId: 'discord:mal' }), {
      deployment: 1_500,
      channel: 500,
      match: 0,
      person: 1_000,
    });
    const rows = (await b.listLlmUsage(day)).map((u) => [u.matchId, u.personId, u.refused]);
    assert.deepEqual(rows, [
      ['p1', 'discord:mal', 0],
      ['p3', 'discord:mal', 1],
      ['p2', 'discord:mal', 0],
      ['q1', 'discord:olga', 0],
    ]);
  });

  test('a ledger that cannot be read refuses the call (llm_usage_unavailable); pure refusal order', async () => {
    const broken: SpendLedger = {
      spent: () => Promise.reject(new Error('database is down')),
      add: () => Promise.resolve(),
      scopeOf: () => Promise.resolve({ channelId: 'c', personId: 'discord:1' }),
    };
    const errors: string[] = [];
    const caller = spendGate(emuClient(emu), {
      ledger: broken,
      budgets: NONE,
      onError: (_e, during) => errors.push(during),
    });
    const n0 = emu.chatRequests().length;
    const r = await ask(caller, 'm1');
    assert.equal(!r.ok && r.code, 'budget_exhausted');
    assert.match(!r.ok ? r.message : '', /^llm_usage_unavailable/);
    assert.deepEqual(errors, ['check']);
    assert.equal(emu.chatRequests().length - n0, 0);

    const spent = { deployment: 100, channel: 100, match: 100, person: 100 };
    const all = { dailyTokens: 100, personDailyTokens: 100, channelDailyTokens: 100, matchTokens: 100 };
    const where = { inChannel: true, inMatch: true, ofPerson: true };
    assert.equal(budgetRefusal(spent, all, 1, DAY, where)?.scope, 'deployment', 'the widest scope is named first');
    assert.equal(budgetRefusal(spent, { ...all, dailyTokens: 0 }, 1, DAY, where)?.scope, 'person');
    assert.equal(
      budgetRefusal(spent, { ...all, dailyTokens: 0, personDailyTokens: 0 }, 1, DAY, where)?.scope,
      'channel',
    );
    assert.equal(
      budgetRefusal(spent, { ...all, dailyTokens: 0, personDailyTokens: 0, channelDailyTokens: 0 }, 1, DAY, where)
        ?.scope,
      'match',
    );
    assert.equal(
      budgetRefusal(spent, { ...all, dailyTokens: 0 }, 1, DAY, { inChannel: false, inMatch: false }),
      null,
      'no channel, match or host: only the deployment counts',
    );
    assert.equal(budgetRefusal(spent, NONE, 1, DAY, where), null, '0 = unlimited');
    assert.equal(
      budgetRefusal({ deployment: 99, channel: 0, match: 0, person: 0 }, all, 1, DAY, where),
      null,
      'exactly at the budget is still allowed',
    );
  });
});

test('a new LLM seat: refused on a spent deployment, host or channel day, never on a match budget or an unreadable ledger', async () => {
  const now = new Date(`${DAY}T12:00:00Z`);
  const asked: unknown[] = [];
  const ledger = (spent: { deployment: number; channel: number; match: number; person?: number }) => ({
    spent: (q: unknown) => {
      asked.push(q);
      return Promise.resolve({ person: 0, ...spent });
    },
  });
  const budgets = { dailyTokens: 1_000, personDailyTokens: 300, channelDailyTokens: 100, matchTokens: 10 };
  const where = { channelId: 'c1', personId: 'discord:7' };
  const channel = await seatBudgetRefusal(ledger({ deployment: 500, channel: 100, match: 0 }), budgets, where, now);
  assert.equal(channel?.scope, 'channel');
  assert.ok(
    channel?.message.includes(`this channel has spent 100 of its 100 LLM tokens for today (UTC ${DAY})`),
    channel?.message,
  );
  assert.deepEqual(
    asked.at(-1),
    { day: DAY, channelId: 'c1', matchId: null, personId: 'discord:7' },
    "today's spend of the channel and the host, no match",
  );
  assert.equal(
    (await seatBudgetRefusal(ledger({ deployment: 1_000, channel: 0, match: 0 }), budgets, where, now))?.scope,
    'deployment',
  );
  assert.equal(
    (await seatBudgetRefusal(ledger({ deployment: 300, channel: 0, match: 0, person: 300 }), budgets, where, now))
      ?.scope,
    'person',
    "the host's day is spent",
  );
  assert.equal(
    await seatBudgetRefusal(ledger({ deployment: 999, channel: 99, match: 10_000, person: 299 }), budgets, where, now),
    null,
    'one token left in each daily budget; a match budget starts with its match',
  );
  const n = asked.length;
  assert.equal(
    await seatBudgetRefusal(
      ledger({ deployment: 9e9, channel: 9e9, match: 0, person: 9e9 }),
      { dailyTokens: 0, personDailyTokens: 0, channelDailyTokens: 0, matchTokens: 10 },
      where,
      now,
    ),
    null,
    'no daily budget: allowed',
  );
  assert.equal(asked.length, n, 'and the ledger is not read');
  const down = { spent: () => Promise.reject(new Error('database is down')) };
  assert.equal(
    await seatBudgetRefusal(down, budgets, where, now),
    null,
    'the gate guards each call while the ledger is away',
  );
});

test('usage survives closing and reopening the SQLite file', async () => {
  const db = tempDb();
  try {
    const s1 = await openSqliteStore(db.path);
    await s1.addLlmUsage({
      day: DAY,
      channelId: 'c',
      matchId: 'm',
      model: 'x',
      calls: 2,
      promptTokens: 70,
      completionTokens: 30,
    });
    await s1.close();
    const s2 = await openSqliteStore(db.path);
    try {
      assert.deepEqual(await s2.llmSpent({ day: DAY, channelId: 'c', matchId: 'm' }), {
        deployment: 100,
        channel: 100,
        match: 100,
        person: 0,
      });
      await s2.addLlmUsage({ day: DAY, channelId: 'c', matchId: 'm', model: 'x', calls: 1, promptTokens: 5 });
      assert.deepEqual(
        (await s2.listLlmUsage(DAY)).map((u) => [u.calls, u.tokens]),
        [[3, 105]],
      );
    } finally {
      await s2.close();
    }
  } finally {
    db.cleanup();
  }
});
