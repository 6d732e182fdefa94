/**
 * Conformance tests of LLM token usage (table `llm_usage`, migration 0004), part of the suite in
 * conformance.ts, run on every backend. Two stores on one database stand in for two bot processes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KyselyEventStore } from '../../src/store/index.js';

type WithStores = (n: number, fn: (...stores: KyselyEventStore[]) => Promise<void>) => Promise<void>;

const DAY = '2025-01-01';
const NEXT = '2025-01-02';

/** Register the usage tests with the suite's `withStores`. */
export function runUsageConformance(withStores: WithStores): void {
  test('llm usage: sums per deployment and channel on a day, per match over every day', () =>
    withStores(1, async (s) => {
      assert.deepEqual(
        await s.llmSpent({ day: DAY, channelId: 'c1', matchId: 'm1' }),
        { deployment: 0, channel: 0, match: 0, person: 0 },
        'empty',
      );
      await s.addLlmUsage({
        day: DAY,
        channelId: 'c1',
        matchId: 'm1',
        model: 'small',
        calls: 1,
        promptTokens: 100,
        completionTokens: 20,
      });
      await s.addLlmUsage({
        day: DAY,
        channelId: 'c1',
        matchId: 'm1',
        model: 'judge',
        calls: 1,
        promptTokens: 300,
        completionTokens: 5,
      });
      await s.addLlmUsage({
        day: DAY,
        channelId: 'c2',
        matchId: 'm2',
        model: 'small',
        calls: 1,
        promptTokens: 50,
        completionTokens: 0,
      });
      await s.addLlmUsage({
        day: DAY,
        channelId: null,
        matchId: null,
        model: 'judge',
        calls: 1,
        promptTokens: 7,
        completionTokens: 3,
      });
      // The next day: m1 goes on (counts for the match, not for the first day's totals).
      await s.addLlmUsage({
        day: NEXT,
        channelId: 'c1',
        matchId: 'm1',
        model: 'small',
        calls: 1,
        promptTokens: 1000,
        completionTokens: 0,
      });
      await s.addLlmUsage({ day: DAY, channelId: 'c1', matchId: 'm1', model: 'small', refused: 1 });

      assert.deepEqual(await s.llmSpent({ day: DAY, channelId: 'c1', matchId: 'm1' }), {
        deployment: 120 + 305 + 50 + 10,
        channel: 425,
        match: 425 + 1000,
        person: 0,
      });
      assert.deepEqual(await s.llmSpent({ day: NEXT, channelId: 'c1', matchId: 'm2' }), {
        deployment: 1000,
        channel: 1000,
        match: 50,
        person: 0,
      });
      assert.deepEqual(
        await s.llmSpent({ day: DAY, channelId: null, matchId: null }),
        { deployment: 485, channel: 0, match: 0, person: 0 },
        'no channel, no match',
      );

      const rows = await s.listLlmUsage(DAY);
      assert.deepEqual(
        rows.map((r) => [
          r.channelId,
          r.matchId,
          r.model,
          r.calls,
          r.refused,
          r.promptTokens,
          r.completionTokens,
          r.tokens,
        ]),
        [
          [null, null, 'judge', 1, 0, 7, 3, 10],
          ['c1', 'm1', 'judge', 1, 0, 300, 5, 305],
          ['c1', 'm1', 'small', 1, 1, 100, 20, 120],
          ['c2', 'm2', 'small', 1, 0, 50, 0, 50],
        ],
      );
      assert.deepEqual(await s.listLlmUsage('2024-12-31'), []);
      await assert.rejects(s.addLlmUsage({ day: '1 Jan', channelId: null, matchId: null, model: 'x' }), TypeError);
      await assert.rejects(
        s.addLlmUsage({ day: DAY, channelId: null, matchId: null, model: 'x', promptTokens: -1 }),
        TypeError,
      );
      await assert.rejects(s.llmSpent({ day: '', channelId: null, matchId: null }), TypeError);
    }));

  test('llm usage: sums per person (a host) on a day, across channels; a row takes the host of its newest call', () =>
    withStores(2, async (s, t) => {
      await s.addLlmUsage({
        day: DAY,
        channelId: 'c1',
        matchId: 'm1',
        personId: 'discord:mal',
        model: 'small',
        calls: 1,
        promptTokens: 100,
      });
      await t.addLlmUsage({
        day: DAY,
        channelId: 'c2',
        matchId: 'm2',
        personId: 'discord:mal',
        model: 'small',
        calls: 1,
        promptTokens: 40,
      });
      await s.addLlmUsage({
        day: DAY,
        channelId: 'c3',
        matchId: 'm3',
        personId: 'discord:olga',
        model: 'small',
        calls: 1,
        promptTokens: 7,
      });
      await s.addLlmUsage({
        day: NEXT,
        channelId: 'c1',
        matchId: 'm1',
        personId: 'discord:mal',
        model: 'small',
        calls: 1,
        promptTokens: 1000,
      });
      assert.deepEqual(await t.llmSpent({ day: DAY, channelId: 'c1', matchId: null, personId: 'discord:mal' }), {
        deployment: 147,
        channel: 100,
        match: 0,
        person: 140,
      });
      assert.deepEqual(
        await t.llmSpent({ day: NEXT, channelId: null, matchId: null, personId: 'discord:mal' }),
        { deployment: 1000, channel: 0, match: 0, person: 1000 },
        'a new day',
      );
      assert.equal(
        (await s.llmSpent({ day: DAY, channelId: null, matchId: null, personId: 'discord:olga' })).person,
        7,
      );
      assert.equal(
        (await s.llmSpent({ day: DAY, channelId: null, matchId: null, personId: null })).person,
        0,
        'no person sums nothing',
      );
      // A row written before person ids (migration 0008: '') takes the host with its next call.
      await s.addLlmUsage({ day: DAY, channelId: 'c4', matchId: 'm4', model: 'small', calls: 1, promptTokens: 5 });
      await s.addLlmUsage({
        day: DAY,
        channelId: 'c4',
        matchId: 'm4',
        personId: 'discord:olga',
        model: 'small',
        calls: 1,
        promptTokens: 5,
      });
      assert.equal(
        (await t.llmSpent({ day: DAY, channelId: null, matchId: null, personId: 'discord:olga' })).person,
        17,
      );
      const rows = await t.listLlmUsage(DAY);
      assert.deepEqual(
        rows.map((r) => [r.matchId, r.personId]),
        [
          ['m1', 'discord:mal'],
          ['m2', 'discord:mal'],
          ['m3', 'discord:olga'],
          ['m4', 'discord:olga'],
        ],
      );
    }));

  test('llm usage: two stores adding at once to the same rows lose no increment (atomic upsert)', () =>
    withStores(2, async (a, b) => {
      const per = 25;
      const add = (s: KyselyEventStore, i: number) =>
        s.addLlmUsage({
          day: DAY,
          channelId: 'c',
          matchId: 'm',
          model: i % 2 ? 'odd' : 'even',
          calls: 1,
          promptTokens: i,
          completionTokens: 1,
        });
      await Promise.all([
        ...Array.from({ length: per }, (_, i) => add(a, i)),
        ...Array.from({ length: per }, (_, i) => add(b, i)),
      ]);
      const expected = 2 * Array.from({ length: per }, (_, i) => i + 1).reduce((x, y) => x + y, 0);
      assert.deepEqual(await b.llmSpent({ day: DAY, channelId: 'c', matchId: 'm' }), {
        deployment: expected,
        channel: expected,
        match: expected,
        person: 0,
      });
      const rows = await a.listLlmUsage(DAY);
      assert.deepEqual(
        rows.map((r) => [r.model, r.calls]),
        [
          ['even', 26],
          ['odd', 24],
        ],
      );
      assert.equal(
        rows.reduce((x, r) => x + r.tokens, 0),
        expected,
      );
    }));
}

/** Register the self-protection count tests (table `llm_guard`, migration 0006) with the suite's `withStores`. */
export function runGuardConformance(withStores: WithStores): void {
  test('llm guard: redactions and refusals summed per (day, channel, match, model); two stores lose no increment', () =>
    withStores(2, async (a, b) => {
      assert.deepEqual(await a.listLlmGuard(DAY), [], 'empty');
      const adds = Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? a : b).addLlmGuard({
          day: DAY,
          channelId: 'c1',
          matchId: 'm1',
          model: 'small',
          redactions: 2,
          refusals: i % 3 === 0 ? 1 : 0,
        }),
      );
      await Promise.all([
        ...adds,
        b.addLlmGuard({ day: DAY, channelId: null, matchId: null, model: 'small', redactions: 1 }),
        a.addLlmGuard({ day: NEXT, channelId: 'c1', matchId: 'm1', model: 'small', refusals: 5 }),
      ]);
      assert.deepEqual(
        (await b.listLlmGuard(DAY)).map((r) => [r.channelId, r.matchId, r.model, r.redactions, r.refusals]),
        [
          [null, null, 'small', 1, 0],
          ['c1', 'm1', 'small', 40, 7],
        ],
      );
      assert.deepEqual(
        (await a.listLlmGuard(NEXT)).map((r) => r.refusals),
        [5],
      );
      await assert.rejects(a.addLlmGuard({ day: 'today', channelId: null, matchId: null, model: 'x' }), TypeError);
      await assert.rejects(
        a.addLlmGuard({ day: DAY, channelId: null, matchId: null, model: 'x', redactions: 1.5 }),
        TypeError,
      );
      await assert.rejects(a.listLlmGuard(''), TypeError);
    }));
}
