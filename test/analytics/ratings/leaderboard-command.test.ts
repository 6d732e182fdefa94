/**
 * `leaderboard` after a few matches of people against scripted seats (single_trade, 3 rounds, played
 * through the catalogue on a real round host): people vs models with intervals, the kind filter, a chart,
 * and matches that do not count (ended by the host, a person leaving in round 1).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { alice, arena, bob, type Arena } from '../../commands/harness.js';
import { postText as rawText } from '../../host/helpers.js';
import { plainOf } from '../../../src/chat/player-text.js';
import type { Post } from '../../../src/chat/types.js';
import { dataNotice } from '../../../src/match/data-policy.js';

/** What a reader sees: names are untrusted text (marked; plainOf drops the markers). */
const postText = (p: Post) => plainOf(rawText(p));

describe('leaderboard command', () => {
  let a: Arena;
  before(async () => {
    // Fixed seeds give fixed worlds; this deployment counts such practice matches (config data.includeSeeded).
    a = await arena({ data: { includeSeeded: true, notice: dataNotice() } });
    const play = async (who: typeof alice, seed: number) => {
      await a.run(who, `new task:single_trade seed:${seed} round_seconds:0`);
      await a.run(who, 'join');
      await a.run(who, 'start');
      for (let i = 0; i < 3; i++) await a.run(who, 'done');
    };
    for (const seed of [1, 2, 3]) await play(alice, seed);
    for (const seed of [4, 5]) await play(bob, seed);
    // Does not count: ended by the host in round 1.
    await a.run(alice, 'new task:single_trade seed:9 round_seconds:0');
    await a.run(alice, 'join');
    await a.run(alice, 'start');
    await a.run(alice, 'end');
    // Does not count: the only person left (finish) before round 1 closed.
    await a.run(bob, 'new task:single_trade seed:10 round_seconds:0');
    await a.run(bob, 'join');
    await a.run(bob, 'start');
    await a.run(bob, 'finish');
  });
  after(() => a.close());

  test('shows people and models with intervals, matches played, and people vs models', async () => {
    const r = await a.run(bob, 'leaderboard');
    assert.equal(r.error, undefined);
    const [post] = r.public;
    assert.ok(post);
    const text = postText(post);
    assert.match(post.title ?? '', /Leaderboard \(all tasks, everyone\): 5 matches/);
    // Fewer than 20 matches each: every rating is preliminary, with the model's interval.
    assert.match(text, /Alice \(person\) \*\*\d+\*\* \[\d+, \d+\] · preliminary · 3 matches/);
    assert.match(text, /Bob \(person\) \*\*\d+\*\* \[\d+, \d+\] · preliminary · 2 matches/);
    assert.match(text, /\(scripted\) \*\*\d+\*\* \[\d+, \d+\]/);
    assert.match(text, /2 finished matches did not count/);
    assert.match(text, /Ranked by the interval’s lower bound/);
    const vs = post.fields?.find((f) => f.name.startsWith('People as one player'))?.value ?? '';
    assert.match(
      vs,
      /^People \(all 2 persons as one player\) \*\*\d+\*\* \[\d+, \d+\] · preliminary · 5 matches with a model or policy$/m,
    );
    assert.match(vs, /^vs \S+ \(scripted\) \d+% \[\d+%, \d+%\] \(\d+ pairs? in \d+ match(es)?\)$/m);
    assert.equal(post.charts?.[0]?.kind, 'ratings');
    const ranked = (text.match(/^\d+\. /gm) ?? []).length;
    assert.equal(
      post.charts?.[0]?.rows.length,
      ranked + 1,
      'the chart shows the rows of the table and the people aggregate',
    );
    // The chart lists the players in the table's order (its rank numbers lead the labels).
    assert.deepEqual(
      post.charts![0]!.rows.slice(0, ranked).map((x) => String(x['player']).split('.')[0]),
      [...Array(ranked).keys()].map((i) => String(i + 1)),
    );
  });

  test('kind:people shows only people; task filter; a bad kind is a private error', async () => {
    const people = await a.run(alice, 'leaderboard kind:people');
    const text = postText(people.public[0]!);
    assert.doesNotMatch(text, /\(scripted\) \*\*/);
    assert.match(text, /Alice/);
    const other = await a.run(alice, 'leaderboard task:coalition_market');
    assert.match(postText(other.public[0]!), /No counted match yet/);
    const bad = await a.run(alice, 'leaderboard kind:robots');
    assert.equal(bad.public.length, 0);
    assert.ok(bad.error);
  });

  test('chart: needs a running match, then shows its standings', async () => {
    // Without auto-done: after the first close the person must still be in a running match.
    await a.close();
    a = await arena({ autoDone: false });
    const none = await a.run(alice, 'chart');
    assert.ok(none.error, 'no match in the channel');
    await a.run(alice, 'new task:single_trade seed:11 round_seconds:0');
    await a.run(alice, 'join');
    await a.run(alice, 'start');
    const early = await a.run(alice, 'chart');
    assert.match(postText(early.public[0]!), /No round has closed yet/);
    await a.run(alice, 'done');
    const r = await a.run(alice, 'chart');
    const req = r.public[0]?.charts?.[0];
    assert.equal(req?.kind, 'standings');
    assert.deepEqual(new Set(req!.rows.map((x) => x['round'])), new Set([1]));
    assert.ok(req!.rows.some((x) => String(x['seat']).includes('Alice')));
    assert.ok(
      req!.rows.every((x) => !String(x['seat']).includes('scripted:')),
      'policies stay hidden while the match runs',
    );
  });

  test('by default a host-seeded match is practice: the leaderboard and stats leave it out and say why', async () => {
    const d = await arena();
    try {
      await d.run(alice, 'new task:single_trade seed:1 round_seconds:0');
      await d.run(alice, 'join');
      await d.run(alice, 'start');
      for (let i = 0; i < 3; i++) await d.run(alice, 'done');
      const lb = postText((await d.run(bob, 'leaderboard')).public[0]!);
      assert.match(lb, /No counted match yet/);
      assert.match(
        lb,
        /1 finished match did not count: 1 seeded by the host \(practice; config data\.includeSeeded counts them\)\./,
      );
      const stats = postText((await d.run(bob, 'stats')).public[0]!);
      assert.match(stats, /Preference data from 0 matches/);
      assert.match(stats, /1 match seeded by the host \(practice\) left out/);
    } finally {
      await d.close();
    }
  });
});
