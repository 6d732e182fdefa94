/**
 * The ratings and preference routes render once per version of the results and normalised query
 * (src/web/render-cache.ts, versions.ts), and a finished match or a closed round makes them render again;
 * rendering routes have their own, lower rate limit (`web.renderRequestsPerMinute`). Renders are counted
 * by the cache, not timed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { alice, bob, pitchRound, playToEnd, startMatch, webHarness, type WebHarness } from './helpers.js';

const get = async (h: WebHarness, path: string) => {
  const r = await fetch(`${h.base}${path}`);
  return { status: r.status, body: Buffer.from(await r.arrayBuffer()), retryAfter: r.headers.get('retry-after') };
};

describe('rendered pages and charts are cached by the version of their results', () => {
  let h: WebHarness;
  before(async () => {
    h = await webHarness();
    await startMatch(h, false);
    await playToEnd(h);
  });
  after(() => h.close());

  test('the ratings chart renders once per version and filter; a finished match renders it again', async () => {
    const renders = () => ctxRenders(h);
    const first = await get(h, '/leaderboard/ratings.png');
    assert.equal(first.status, 200);
    const after1 = renders();
    const again = await get(h, '/leaderboard/ratings.png');
    const junk = await get(h, '/leaderboard/ratings.png?junk=1&min=1');
    assert.equal(
      renders(),
      after1,
      'the same chart (an unknown key and the default min change nothing) is not drawn again',
    );
    assert.deepEqual(again.body, first.body);
    assert.deepEqual(junk.body, first.body);
    assert.equal((await get(h, '/leaderboard/ratings.png?kind=people')).status, 200);
    assert.ok(renders() > after1, 'another filter is another chart');

    const page = (await get(h, '/leaderboard')).body.toString();
    assert.match(page, /over 1 counted match /);
    await h.run(alice, 'new task:market_round round_seconds:0 votes:off');
    await h.run(alice, 'join lab:lab_0');
    await h.run(bob, 'join lab:lab_1');
    await h.run(alice, 'start');
    const before2 = renders();
    assert.equal((await get(h, '/leaderboard')).body.toString(), page, 'a running match changes no rating');
    assert.equal(renders(), before2);
    await playToEnd(h);
    assert.match(
      (await get(h, '/leaderboard')).body.toString(),
      /over 2 counted matches/,
      'the second finished match is counted at once',
    );
    const second = await get(h, '/leaderboard/ratings.png');
    assert.notDeepEqual(second.body, first.body, 'its chart is drawn again');
  });

  test('the preference page is computed once per version; a round closed in a running match is a new version', async () => {
    const p1 = (await get(h, '/preferences')).body.toString();
    const n = ctxRenders(h);
    assert.equal((await get(h, '/preferences')).body.toString(), p1);
    assert.equal(ctxRenders(h), n, 'nothing changed: nothing computed');
    await startMatch(h, true);
    const n2 = (await get(h, '/preferences'), ctxRenders(h));
    await get(h, '/preferences');
    assert.equal(ctxRenders(h), n2);
    await pitchRound(h);
    await get(h, '/preferences');
    assert.ok(ctxRenders(h) > n2, 'the closed round (and its ballot) made a new version');
  });
});

/** Renders the page's cache made so far. */
function ctxRenders(h: WebHarness): number {
  return h.web.renders.renders;
}

describe('rendering routes have a lower rate limit than the other pages', () => {
  let h: WebHarness;
  before(async () => {
    h = await webHarness({ web: { renderRequestsPerMinute: 12 } });
  });
  after(() => h.close());

  test('12 a minute, at most 2 in 10 s: the third rendering request at once is 429 with Retry-After; the match list still answers', async () => {
    assert.equal((await get(h, '/leaderboard')).status, 200);
    assert.equal((await get(h, '/preferences')).status, 200);
    const third = await get(h, '/leaderboard/ratings.png');
    assert.equal(third.status, 429);
    assert.match(
      third.body.toString(),
      /Too many chart, ratings and preference requests from your address; try again in \d+ s\./,
    );
    assert.ok(Number(third.retryAfter) >= 1);
    for (let i = 0; i < 5; i++)
      assert.equal(
        (await get(h, '/')).status,
        200,
        'pages that do not render are limited by web.requestsPerMinute only',
      );
  });
});
