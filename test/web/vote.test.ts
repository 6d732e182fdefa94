/**
 * Web votes through signed links, in a real browser: the bot's `vote` reply carries a personal link; the
 * page serves that person's pairs blind and records a keyboard-only vote as the same vote row a chat vote
 * makes (so a second vote on the pair, in chat or on the web, is a duplicate); a forged, expired or reused
 * link is refused; a vote on one's own pitch is refused. axe-core finds no violation on the vote page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { configureVoteLinks, newVoteClaims, signVoteToken } from '../../src/web/links/vote-link.js';
import {
  alice,
  axeViolations,
  carol,
  launchBrowser,
  LINK_SECRET,
  pitchRound,
  startMatch,
  webHarness,
  type WebHarness,
} from './helpers.js';

type Doc = { document: { body: { textContent: string }; activeElement: { textContent: string } | null } };
const bodyText = (page: Page) => page.evaluate(() => (globalThis as unknown as Doc).document.body.textContent);

describe('web votes through signed links', () => {
  let h: WebHarness;
  let browser: Browser | null = null;
  let id: string;

  before(async () => {
    browser = await launchBrowser();
    if (!browser) return;
    h = await webHarness();
    configureVoteLinks({ publicUrl: h.base, secret: LINK_SECRET, ttlSeconds: 600 });
    id = await startMatch(h);
    await pitchRound(h);
  });
  after(async () => {
    configureVoteLinks(null);
    await browser?.close();
    if (h) await h.close();
  });

  /** The link in the bot's `vote` reply to `who`. */
  const linkFor = async (who: typeof carol): Promise<string> => {
    const r = await h.run(who, 'vote');
    assert.equal(r.error, undefined);
    const text = r.private.map((p) => p.text).join('\n');
    const m = /(http:\/\/127\.0\.0\.1:\d+\/vote\/link\/[A-Za-z0-9_.-]+)/.exec(text);
    assert.ok(m, `a web link in the vote reply: ${text}`);
    return m[1]!;
  };
  /** A fresh browser profile (its own cookies) on `url`. */
  const open = async (url: string): Promise<{ page: Page; status: number; close: () => Promise<void> }> => {
    const ctx = await browser!.createBrowserContext();
    const page = await ctx.newPage();
    const res = await page.goto(url, { waitUntil: 'load' });
    return { page, status: res?.status() ?? 0, close: () => ctx.close() };
  };

  test('a spectator votes with the keyboard only; the row is the chat vote row', async (t) => {
    if (!browser) return t.skip('chromium not installed (apt-get install chromium)');
    const link = await linkFor(carol);
    const { page, status, close } = await open(link);
    try {
      assert.equal(status, 200);
      assert.match(page.url(), /\/vote$/, 'the link sets the session and redirects');
      assert.match(await bodyText(page), /Voting as Carol[\s\S]*Pitch A[\s\S]*Pitch B/);
      assert.doesNotMatch(await bodyText(page), /Lab A \(|Lab B \(/, 'authors hidden before the vote');
      assert.deepEqual(await axeViolations(page), [], 'axe on the vote page');
      if (process.env.WEB_SCREENSHOTS === '1') {
        await page.setViewport({ width: 1280, height: 900 });
        await page.screenshot({ path: 'docs/web/vote-desktop.png' });
        await page.setViewport({ width: 390, height: 844, deviceScaleFactor: 2 });
        await page.screenshot({ path: 'docs/web/vote-phone.png' });
        await page.setViewport({ width: 1280, height: 900 });
      }
      // Keyboard only: Tab to "A is better", Enter.
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press('Tab');
        if (
          (await page.evaluate(() => (globalThis as unknown as Doc).document.activeElement?.textContent)) ===
          'A is better'
        )
          break;
      }
      assert.equal(
        await page.evaluate(() => (globalThis as unknown as Doc).document.activeElement?.textContent),
        'A is better',
      );
      await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
      const after = await bodyText(page);
      assert.match(after, /Vote recorded: ballot v_1, pair 1/);
      assert.match(after, /Pitch A was Lab [A-C]/, 'authors shown after the vote');
      const rows = await h.webStore.listVotes({ matchId: id, voterId: carol.userId });
      assert.equal(rows.length, 1);
      assert.equal(rows[0]!.seated, false);
      assert.equal(rows[0]!.pair, 1);
      // Same rule as chat: one vote per person per pair, whichever way it was cast.
      const chat = await h.run(carol, 'vote ballot:v_1 pair:1 choice:b');
      assert.equal(chat.error?.code, 'duplicate_vote');
      const again = await page.evaluate(
        async () =>
          (
            await fetch('/vote', {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body:
                'match=' +
                encodeURIComponent(
                  (
                    globalThis as unknown as { document: { querySelector(s: string): { value: string } | null } }
                  ).document.querySelector('input[name=match]')?.value ?? '',
                ) +
                '&ballot=v_1&pair=1&choice=b',
            })
          ).status,
      );
      assert.ok(again === 409 || again === 400, `a second web vote on the pair is refused (${again})`);
      assert.equal((await h.webStore.listVotes({ matchId: id, voterId: carol.userId })).length, 1);
    } finally {
      await close();
    }
    // The same link again (another browser): refused, it works once.
    const reused = await open(link);
    try {
      assert.equal(reused.status, 410);
      assert.match(await bodyText(reused.page), /already used/);
    } finally {
      await reused.close();
    }
  });

  test('forged and expired links are refused', async (t) => {
    if (!browser) return t.skip('chromium not installed (apt-get install chromium)');
    const good = await linkFor(carol);
    const [prefix, token] = good.split('/vote/link/') as [string, string];
    const [body, sig] = token.split('.') as [string, string];
    const flipped = `${body}.${sig.startsWith('A') ? 'B' : 'A'}${sig.slice(1)}`;
    const otherKey = signVoteToken(newVoteClaims(carol, 'test:web', Date.now(), 600), 'some-other-secret-0123456789');
    const expired = signVoteToken(newVoteClaims(carol, 'test:web', Date.now() - 3_600_000, 600), LINK_SECRET);
    for (const [what, tok, code, text] of [
      ['a changed signature', flipped, 403, /not valid/],
      ['another key', otherKey, 403, /not valid/],
      ['garbage', 'not-a-token', 403, /not a valid voting link/],
      ['an expired link', expired, 410, /expired/],
    ] as const) {
      const r = await open(`${prefix}/vote/link/${tok}`);
      try {
        assert.equal(r.status, code, what);
        assert.match(await bodyText(r.page), text, what);
        assert.doesNotMatch(r.page.url(), /\/vote$/, `${what}: no session`);
      } finally {
        await r.close();
      }
    }
    const noSession = await open(`${prefix}/vote`);
    try {
      assert.equal(noSession.status, 401);
    } finally {
      await noSession.close();
    }
  });

  test('a seated player is never served, and cannot vote on, a pair with their own pitch', async (t) => {
    if (!browser) return t.skip('chromium not installed (apt-get install chromium)');
    const m = await h.current();
    const b = m.ballots.find((x) => x.closed === null)!;
    const own = b.pairs.findIndex(([x, y]) => x === 'p0_lab_0' || y === 'p0_lab_0') + 1;
    assert.ok(own > 0);
    const r = await open(await linkFor(alice));
    try {
      const served = await r.page.evaluate(
        () =>
          (
            globalThis as unknown as { document: { querySelector(s: string): { value: string } | null } }
          ).document.querySelector('input[name=pair]')?.value ?? null,
      );
      assert.notEqual(served, String(own), 'never served a pair with her own pitch');
      const res = await r.page.evaluate(
        async (matchId: string, pair: number) => {
          const x = await fetch('/vote', {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: `match=${matchId}&ballot=v_1&pair=${pair}&choice=a`,
          });
          return { status: x.status, text: await x.text() };
        },
        id,
        own,
      );
      assert.equal(res.status, 409);
      assert.match(res.text, /your own seat&#39;s pitch/);
      assert.equal((await h.webStore.listVotes({ matchId: id, voterId: alice.userId })).length, 0);
    } finally {
      await r.close();
    }
  });
});
