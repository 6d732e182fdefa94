/**
 * The web page after one match with votes: a market_round of two people (who name themselves in their
 * pitches) and a scripted seat; spectators vote on every pair, one of them on the web through a personal
 * link, where the pair shows no lab, player, job or block. Then the leaderboard shows every rating as
 * preliminary with an interval of positive width, the people aggregate, and the ranking of `leaderboard` in
 * chat; the preference page shows the numbers of `stats` in chat (shares with Clopper–Pearson intervals,
 * "too few pairs" for kappa). WEB_SCREENSHOTS=1 writes docs/web/leaderboard-one-match.png and
 * docs/web/preferences-one-match.png (full pages).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Caller } from '../../src/chat/types.js';
import { configureVoteLinks } from '../../src/web/links/vote-link.js';
import { eligiblePairs } from '../../src/voting/ballots/index.js';
import {
  alice,
  bob,
  carol,
  CHANNEL,
  launchBrowser,
  LINK_SECRET,
  startMatch,
  webHarness,
  type WebHarness,
} from './helpers.js';

const dave: Caller = { userId: 'test:dave', displayName: 'Dave', isAdmin: false };
const erin: Caller = { userId: 'test:erin', displayName: 'Erin', isAdmin: false };
const CHOICES = ['a', 'b', 'a', 'tie', 'b', 'both_bad', 'a'];
/** Plain text of an HTML page (tags dropped, entities of the escaper decoded). */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ');

describe('the web page after one match with votes', () => {
  let h: WebHarness;
  let webPair = '';

  before(async () => {
    h = await webHarness({ ballotSeconds: 0, perMinute: 10_000 });
    configureVoteLinks({ publicUrl: h.base, secret: LINK_SECRET, ttlSeconds: 600 });
    await startMatch(h);
    let k = 0;
    for (let round = 0; (await h.host.current(CHANNEL))?.phase === 'running'; round++) {
      const m = await h.current();
      for (const [who, lab, name] of [
        [alice, 'lab_0', 'Lab A'],
        [bob, 'lab_1', 'Lab B'],
      ] as const) {
        const job = Object.values(m.state!.jobs).find((j) => j.owner === lab && j.outcome === 'pending');
        await h.run(
          who,
          `pitch text:"We at ${name} (${who === alice ? 'Alice' : 'Bob'} here) need ${job?.id ?? 'capacity'} covered by round ${round + 2}."${job ? ` job:${job.id}` : ''}`,
        );
      }
      await h.run(alice, 'done');
      await h.run(bob, 'done');
      const after = (await h.host.current(CHANNEL)) ?? null;
      const b = after?.ballots.find((x) => x.closed === null);
      if (!b) continue;
      if (round === 0) webPair = await voteOnTheWeb();
      for (const who of [carol, dave, erin]) {
        const done = new Set(
          (await h.hostStore.listVotes({ matchId: after!.id, ballotId: b.id, voterId: who.userId })).map((v) => v.pair),
        );
        for (const pair of eligiblePairs(b, null))
          if (!done.has(pair))
            await h.run(who, `vote ballot:${b.id} pair:${pair} choice:${CHOICES[k++ % CHOICES.length]}`);
      }
    }
  });
  after(async () => {
    configureVoteLinks(null);
    await h.close();
  });

  /** Carol's first pair on the web through her link; returns the page's pair section as text. */
  async function voteOnTheWeb(): Promise<string> {
    const r = await h.run(carol, 'vote');
    const link = /(http:\/\/127\.0\.0\.1:\d+\/vote\/link\/[A-Za-z0-9_.-]+)/.exec(
      r.private.map((p) => p.text).join('\n'),
    )![1]!;
    const res = await fetch(link, { redirect: 'manual' });
    assert.equal(res.status, 303);
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    const page = await (await fetch(`${h.base}/vote`, { headers: { cookie } })).text();
    const section = /<section class="pair"[\s\S]*?<\/section>/.exec(page)![0];
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(section)![1]!;
    const voted = await fetch(`${h.base}/vote`, {
      method: 'POST',
      headers: { cookie, origin: h.base, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        match: field('match'),
        ballot: field('ballot'),
        pair: field('pair'),
        choice: 'a',
      }).toString(),
    });
    assert.equal(voted.status, 200);
    return textOf(section);
  }

  test('the web ballot names no author; the vote is stored as anonymous', async () => {
    assert.match(webPair, /Pitch A[\s\S]*Pitch B/);
    assert.doesNotMatch(webPair, /Lab [ABC]|Alice|Bob|lab_\d|\bj_\d|\bb_\d/i, webPair);
    assert.match(webPair, /We at \[own lab\] \(\[name\] here\) need \[own job 1\] covered by round 2/);
    const votes = await h.webStore.listVotes();
    assert.ok(votes.length >= 10);
    assert.ok(votes.every((v) => v.anonymous === true));
    assert.ok(
      votes.some((v) => v.voterId === carol.userId && v.ballotId === 'v_1'),
      "carol's web vote",
    );
  });

  test('leaderboard: preliminary ratings with intervals of positive width, people as one player, the chat ranking', async () => {
    const html = await (await fetch(`${h.base}/leaderboard`)).text();
    const rows = [
      ...html.matchAll(
        /<tr><td>(\d+)<\/td><td>([^<]*)(<span class="badge">preliminary<\/span>)?<\/td><td>[^<]+<\/td><td class="num">(\d+)<\/td><td class="num">(\d+)–(\d+)<\/td>/g,
      ),
    ];
    assert.equal(rows.length, 3);
    for (const r of rows) {
      assert.ok(r[3], `${r[2]} is preliminary`);
      assert.ok(Number(r[6]) > Number(r[5]), `${r[2]}: ${r[5]}–${r[6]} has positive width`);
    }
    assert.match(textOf(html), /People \(all 2 persons as one player\) preliminary people \d+ \d+–\d+ 1/);
    const chat = (await h.run(carol, 'leaderboard')).public[0]!.text;
    const order = [...chat.matchAll(/^\d+\. (.+?) \((?:person|LLM|scripted)\) \*\*(\d+)\*\* \[(\d+), (\d+)\]/gm)].map(
      (m) => `${m[2]}|${m[3]}|${m[4]}`,
    );
    assert.deepEqual(
      rows.map((r) => `${r[4]}|${r[5]}|${r[6]}`),
      order,
      'the same ranking and numbers as the chat leaderboard',
    );
  });

  test('preferences: the numbers of `stats` in chat, with Clopper–Pearson intervals and "too few pairs" for kappa', async () => {
    const page = textOf(await (await fetch(`${h.base}/preferences`)).text());
    const chat = (await h.run(carol, 'stats')).public[0]!.text;
    const line = /judge vs people \(majority\): (order agreement .*)$/m.exec(chat)![1]!;
    assert.match(
      line,
      /order agreement \d+% \(95% CI \d+%–\d+%\) on \d+ decisive of \d+ pairs; kappa: too few pairs \(\d+\)/,
    );
    const [, share, ci] = /order agreement (\d+%) \(95% CI (\d+%–\d+%)\)/.exec(line)!;
    assert.match(
      page,
      new RegExp(`All judges \\d+ \\d+ ${share} ${ci} too few pairs \\(\\d+\\)`),
      'the web table shows the same share, interval and kappa note',
    );
    assert.match(page, /All \d+ votes were on anonymous pairs/);
    assert.match(page, /by 3 voters/);
    assert.match(chat, /position bias: \d+% \(95% CI \d+%–\d+%\) of \d+ decisive votes/);
  });

  test('screenshots of both pages (WEB_SCREENSHOTS=1)', async (t) => {
    if (process.env.WEB_SCREENSHOTS !== '1') return t.skip('set WEB_SCREENSHOTS=1 to write docs/web/*-one-match.png');
    const browser = await launchBrowser();
    if (!browser) return t.skip('chromium not installed (apt-get install chromium)');
    try {
      mkdirSync('docs/web', { recursive: true });
      const page = await browser.newPage();
      await page.setViewport({ width: 1280, height: 900 });
      for (const name of ['leaderboard', 'preferences']) {
        await page.goto(`${h.base}/${name}`, { waitUntil: 'networkidle0' });
        await page.screenshot({ path: `docs/web/${name}-one-match.png`, fullPage: true });
      }
    } finally {
      await browser.close();
    }
  });
});
