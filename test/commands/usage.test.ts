/**
 * The admin usage view: `stats view:usage` shows a platform admin, privately, today's LLM tokens
 * for the deployment, per channel and per model, with the budgets and what is left; anyone else gets
 * `not_admin` and no figure. Through the real catalogue (text grammar and typed options) on a real store.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { configureUsageBudgets } from '../../src/commands/usage-budgets.js';
import { formatUsage } from '../../src/commands/handlers-usage.js';
import type { Caller, Reply } from '../../src/commands/types.js';
import { arena, assertOk, bob, CHANNEL, type Arena } from './harness.js';
import { postText } from '../host/helpers.js';
import { plainOf, playerText } from '../../src/chat/player-text.js';

const ADMIN: Caller = { userId: 'test:root', displayName: 'Root', isAdmin: true };
const utcDay = (d: Date) => d.toISOString().slice(0, 10);
/** What a reader sees: the posts' text without the markers of untrusted text. */
const allText = (r: Reply) => plainOf([...r.public, ...r.private].map(postText).join('\n'));

describe('stats view:usage', () => {
  let a: Arena;
  before(async () => {
    a = await arena({ adminUserIds: [ADMIN.userId] });
    configureUsageBudgets({
      dailyTokens: 100_000,
      personDailyTokens: 20_000,
      channelDailyTokens: 30_000,
      matchTokens: 400_000,
    });
    // The same rows today and tomorrow (UTC), so a test running across midnight reads the same figures.
    const now = new Date();
    for (const day of [utcDay(now), utcDay(new Date(now.getTime() + 86_400_000))]) {
      const mal = 'discord:555';
      await a.store.addLlmUsage({
        day,
        channelId: 'discord:111',
        matchId: 'm1',
        personId: mal,
        model: 'gpt-small',
        calls: 4,
        promptTokens: 10_000,
        completionTokens: 2_000,
      });
      await a.store.addLlmUsage({
        day,
        channelId: 'discord:111',
        matchId: 'm1',
        personId: mal,
        model: 'gpt-judge',
        calls: 2,
        promptTokens: 6_000,
        completionTokens: 500,
      });
      await a.store.addLlmUsage({
        day,
        channelId: 'discord:111',
        matchId: 'm1',
        personId: mal,
        model: 'gpt-small',
        refused: 3,
      });
      await a.store.addLlmUsage({
        day,
        channelId: 'slack:C22',
        matchId: 'm2',
        personId: 'slack:U9',
        model: 'gpt-small',
        calls: 1,
        promptTokens: 1_500,
        completionTokens: 0,
      });
      await a.store.addLlmUsage({
        day,
        channelId: CHANNEL,
        matchId: 'm3',
        personId: mal,
        model: 'gpt-small',
        calls: 2,
        promptTokens: 700,
        completionTokens: 300,
      });
      // A model name written as markup: shown as text, never bold or a mention.
      await a.store.addLlmUsage({
        day,
        channelId: CHANNEL,
        matchId: 'm3',
        personId: mal,
        model: '**bold** <@everyone>',
        refused: 1,
      });
    }
  });
  after(async () => {
    configureUsageBudgets(null);
    await a.close();
  });

  test('an admin sees the day privately: deployment, per channel, per model, budgets and what is left', async () => {
    const r = assertOk(await a.run(ADMIN, 'stats view:usage'), 'stats view:usage');
    assert.equal(r.public.length, 0, 'nothing posted to the channel');
    assert.equal(r.private.length, 1);
    assert.equal(r.private[0]!.userId, ADMIN.userId);
    const text = allText(r);
    assert.match(text, /LLM usage today \(UTC \d{4}-\d{2}-\d{2}\)/);
    // 12,000 + 6,500 + 1,500 + 1,000 = 21,000 of 100,000.
    assert.match(text, /Deployment: 21,000 of 100,000 tokens \(79,000 left\) · 9 calls · 4 refused/);
    assert.match(text, /• discord:111: 18,500 of 30,000 tokens \(11,500 left\) · 6 calls · 3 refused · 1 match/);
    assert.match(text, /• slack:C22: 1,500 of 30,000 tokens \(28,500 left\) · 1 call · 1 match/);
    assert.match(text, /• gpt-small: 14,500 tokens \(prompt 12,200, completion 2,300\) · 7 calls · 3 refused/);
    assert.match(text, /• gpt-judge: 6,500 tokens \(prompt 6,000, completion 500\) · 2 calls/);
    assert.match(
      text,
      /Budgets: 100,000 a day for the deployment, 20,000 a day per host, 30,000 a day per channel, 400,000 per match/,
    );
    assert.ok(text.indexOf('discord:111') < text.indexOf('slack:C22'), 'channels by tokens, most first');
    // Per host: one host's matches in two channels are summed against the host budget.
    assert.match(text, /By host \(2 hosts\)/);
    assert.match(text, /• discord:555: 19,500 of 20,000 tokens \(500 left\) · 8 calls · 4 refused · 2 matches/);
    assert.match(text, /• slack:U9: 1,500 of 20,000 tokens/);
    const field = r.private[0]!.fields!.find((f) => f.name === 'By model')!.value;
    assert.ok(field.includes(playerText('**bold** <@everyone>')), 'a model name is marked as untrusted text');
  });

  test('the typed (Discord) path gives the same view', async () => {
    const r = assertOk(await a.runTyped(ADMIN, 'stats', { view: 'usage' }));
    assert.match(allText(r), /Deployment: 21,000 of 100,000/);
  });

  test("a platform admin who is not an operator sees only the channel it asks in, no other tenant's figures", async () => {
    const guildAdmin: Caller = { userId: 'test:mod', displayName: 'Mod', isAdmin: true };
    const text = allText(assertOk(await a.run(guildAdmin, 'stats view:usage')));
    assert.match(text, /LLM usage today in this channel/);
    assert.match(text, /This channel: 1,000 of 30,000 tokens \(29,000 left\) · 2 calls · 1 refused · 1 match/);
    assert.doesNotMatch(text, /discord:555|By host/, 'no host figures: a host plays in other servers too');
    assert.doesNotMatch(text, /discord:111|slack:C22|Deployment|gpt-judge|18,500|21,000/);
  });

  test('anyone else is refused with not_admin and sees no figure', async () => {
    for (const r of [await a.run(bob, 'stats view:usage'), await a.runTyped(bob, 'stats', { view: 'usage' })]) {
      assert.equal(r.error?.code, 'not_admin');
      assert.equal(r.public.length, 0);
      assert.doesNotMatch(allText(r), /21,000|gpt-small|discord:111/);
    }
  });

  test('plain `stats` is still the public preference view; a bad view is an option error', async () => {
    const r = assertOk(await a.run(bob, 'stats'));
    assert.equal(r.public.length, 1);
    assert.match(allText(r), /Preference data in this channel/);
    assert.doesNotMatch(allText(r), /LLM usage/);
    assert.equal((await a.run(ADMIN, 'stats view:money')).error?.code, 'invalid_option');
  });
});

test('formatUsage: no call yet, unlimited budgets, unknown budgets', () => {
  assert.match(
    postText(formatUsage([], null, '2025-01-01')),
    /No LLM call today: 0 tokens spent\.\nBudgets: not known in this process/,
  );
  const row = {
    day: '2025-01-01',
    channelId: null,
    matchId: null,
    personId: null,
    model: 'x',
    calls: 1,
    refused: 0,
    promptTokens: 3,
    completionTokens: 4,
    tokens: 7,
  };
  const text = postText(
    formatUsage([row], { dailyTokens: 0, personDailyTokens: 0, channelDailyTokens: 0, matchTokens: 0 }, '2025-01-01'),
  );
  assert.match(text, /Deployment: 7 tokens \(no budget\) · 1 call\./);
  assert.match(text, /• \(no channel\): 7 tokens · 1 call · 0 matches/);
  assert.match(
    text,
    /Budgets: no limit a day for the deployment, no limit a day per host, no limit a day per channel, no limit per match/,
  );
  assert.doesNotMatch(text, /By host/, 'no host section without hosts');
});

test('formatUsage with prices: the cost of the deployment, each channel, model and match; matches by tokens', () => {
  const day = '2025-01-01';
  const row = (
    channelId: string,
    matchId: string | null,
    model: string,
    calls: number,
    promptTokens: number,
    completionTokens: number,
  ) => ({
    day,
    channelId,
    matchId,
    personId: null,
    model,
    calls,
    refused: 0,
    promptTokens,
    completionTokens,
    tokens: promptTokens + completionTokens,
  });
  const rows = [
    row('discord:1', 'm1', 'small', 4, 10_000, 2_000),
    row('discord:1', 'm1', 'judge', 2, 6_000, 500),
    row('slack:C', 'm2', 'small', 1, 1_500, 0),
    row('slack:C', null, 'small', 1, 100, 0),
  ];
  const prices = { inputPerMillion: 0.15, outputPerMillion: 0.6 };
  const text = plainOf(postText(formatUsage(rows, null, day, undefined, [], prices)));
  // (17,600 × 0.15 + 2,500 × 0.60) / 1e6 = $0.00414
  assert.match(text, /Deployment: 20,100 tokens · 8 calls · ≈ \$0\.0041\./);
  assert.match(text, /• discord:1: 18,500 tokens · 6 calls · 1 match · ≈ \$0\.0039/);
  assert.match(text, /• judge: 6,500 tokens \(prompt 6,000, completion 500\) · 2 calls · ≈ \$0\.0012/);
  assert.match(
    text,
    /By match\n• m1 \(discord:1\): 18,500 tokens · 6 calls · ≈ \$0\.0039\n• m2 \(slack:C\): 1,500 tokens · 1 call · ≈ \$0\.0002/,
  );
  assert.match(text, /Costs are estimates at \$0\.15 \/ \$0\.6 per million input \/ output tokens/);
  // A platform admin's view of one channel: its matches without the channel name.
  const one = plainOf(postText(formatUsage(rows, null, day, 'discord:1', [], prices)));
  assert.match(one, /By match\n• m1: 18,500 tokens · 6 calls · ≈ \$0\.0039/);
  assert.doesNotMatch(one, /m2|slack/);
  // Without prices: no cost, and the view says how to get one.
  assert.match(postText(formatUsage(rows, null, day)), /No cost shown: set llm\.priceInputPerMillion/);
  assert.doesNotMatch(postText(formatUsage(rows, null, day)), /≈ \$/);
});

test("the config's adminUserIds see the usage view too (the same admins who may host any match)", async () => {
  const a = await arena({ adminUserIds: [bob.userId] });
  try {
    const r = assertOk(await a.run(bob, 'stats view:usage'));
    assert.equal(r.private[0]!.userId, bob.userId);
    assert.match(allText(r), /LLM usage today/);
  } finally {
    await a.close();
  }
});

test("formatUsage: what LLM seats' self-protection did, per model; a platform admin sees only its channel's", () => {
  const guard = [
    { day: '2025-01-01', channelId: 'c1', matchId: 'm1', model: 'small', redactions: 3, refusals: 1 },
    { day: '2025-01-01', channelId: 'c1', matchId: 'm2', model: 'small', redactions: 1, refusals: 0 },
    { day: '2025-01-01', channelId: 'c2', matchId: 'm3', model: 'big', redactions: 0, refusals: 2 },
  ];
  const all = plainOf(postText(formatUsage([], null, '2025-01-01', undefined, guard)));
  assert.match(
    all,
    /LLM seats protected\n• big: 0 private figures redacted · 2 actions refused \(gave value away\) · 1 match\n• small: 4 private figures redacted · 1 action refused \(gave value away\) · 2 matches/,
  );
  const mine = plainOf(postText(formatUsage([], null, '2025-01-01', 'c2', guard)));
  assert.match(mine, /• big: 0 private figures redacted · 2 actions refused/);
  assert.doesNotMatch(mine, /small/);
  assert.doesNotMatch(postText(formatUsage([], null, '2025-01-01')), /protected/, 'nothing to show: no field');
});
