/**
 * The web page in a real browser (Debian's chromium through puppeteer-core; one launch for the file): the
 * match list, a live match updated over server-sent events as commands are played through the host (an
 * offer, a pitch, a round close) without reload, a reconnect that resumes without gaps or duplicates, a
 * replay with its scrubber, the leaderboard, the preference page, the demo view; axe-core (WCAG 2 A/AA)
 * finds no violation on any of them. Set WEB_SCREENSHOTS=1 to (re)write docs/web/*.png from these pages.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import {
  alice,
  axeViolations,
  bob,
  launchBrowser,
  pitchRound,
  playToEnd,
  startMatch,
  webHarness,
  type WebHarness,
} from './helpers.js';
import { waitUntil } from '../support/wait.js';

const SHOTS = process.env.WEB_SCREENSHOTS === '1' ? 'docs/web' : null;

/** Seqs of the feed items on the page, in order. */
const feedSeqs = (page: Page) =>
  page.$$eval('#feed > li', (els) =>
    els.map((e) => Number((e as unknown as { dataset: { seq: string } }).dataset.seq)),
  );
const feedText = (page: Page) => page.$eval('#feed', (e) => (e as unknown as { textContent: string }).textContent);

describe('web page in a browser', () => {
  let h: WebHarness;
  let browser: Browser | null = null;
  let page: Page;
  let live: string;
  const errors: string[] = [];

  before(async () => {
    browser = await launchBrowser();
    if (!browser) return;
    h = await webHarness();
    page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
  });
  after(async () => {
    await browser?.close();
    if (h) await h.close();
  });

  /** axe finds nothing; optional screenshots at desktop and phone width. */
  const check = async (name: string) => {
    const v = await axeViolations(page);
    assert.deepEqual(v, [], `${name}: axe violations`);
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      await page.waitForFunction(
        () =>
          (globalThis as unknown as { document: { images: ArrayLike<{ complete: boolean }> } }).document.images
            .length === 0 ||
          Array.from(
            (globalThis as unknown as { document: { images: ArrayLike<{ complete: boolean }> } }).document.images,
          ).every((i) => i.complete),
      );
      await page.screenshot({ path: `${SHOTS}/${name}-desktop.png` as `${string}.png`, fullPage: false });
      // A phone-width copy on its own page (changing isMobile reloads a page).
      const phone = await browser!.newPage();
      await phone.setViewport({ width: 390, height: 844, isMobile: true, deviceScaleFactor: 2 });
      await phone.goto(page.url(), { waitUntil: 'load' });
      await new Promise((r) => setTimeout(r, 300));
      await phone.screenshot({ path: `${SHOTS}/${name}-phone.png` as `${string}.png`, fullPage: false });
      await phone.close();
    }
  };

  test('the match list: a live match with its badge, seats and link; filters', async (t) => {
    if (!browser) return t.skip('chromium not installed (apt-get install chromium)');
    live = await startMatch(h);
    await page.goto(`${h.base}/`, { waitUntil: 'networkidle0' });
    const row = await page.$eval(
      'table.matches tbody tr',
      (e) => (e as unknown as { textContent: string }).textContent,
    );
    assert.match(row, /LIVE/);
    assert.match(row, /market_round/);
    assert.match(row, /Alice <b>bold<\/b>/, 'a display name shows as text');
    assert.equal(await page.$$eval('b', (x) => x.length), 0, 'no markup from a display name');
    await check('matches');
    await page.select('select[name=status]', 'over');
    await Promise.all([page.waitForNavigation(), page.click('form.filters button')]);
    assert.match(page.url(), /status=over/);
    assert.equal(await page.$('table.matches'), null, 'no finished match yet');
  });

  test('a live match updates without reload: an offer, a pitch, a round close', async (t) => {
    if (!browser) return t.skip('chromium not installed (apt-get install chromium)');
    await page.goto(`${h.base}/matches/${live}`, { waitUntil: 'load' });
    await page.evaluate(() => ((globalThis as unknown as { __sameDocument: number }).__sameDocument = 1));
    await page.waitForFunction(
      () =>
        (
          globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }
        ).document.querySelector('.conn')?.textContent === '● live',
    );
    const m = await h.current();
    const theirs = Object.values(m.state!.blocks).find((b) => b.owner === 'lab_1' && b.status === 'available')!;
    assert.equal((await h.run(alice, `offer to:lab_1 want:${theirs.id} pay:4 msg:"swap?"`)).error, undefined);
    await page.waitForFunction(
      () =>
        /offers Lab B o_1/.test(
          (globalThis as unknown as { document: { body: { textContent: string } } }).document.body.textContent,
        ),
      { timeout: 10_000 },
    );
    assert.match(
      await page.$eval('#state', (e) => (e as unknown as { textContent: string }).textContent),
      /o_1.*4\.00 credits/s,
      'the open offer with its terms in the panel',
    );
    await pitchRound(h);
    await page.waitForFunction(
      () =>
        /Round 1\/5 closed/.test(
          (globalThis as unknown as { document: { body: { textContent: string } } }).document.body.textContent,
        ),
      { timeout: 10_000 },
    );
    const text = await feedText(page);
    assert.match(text, /Lab A pitched to the judge/);
    assert.match(text, /<script>alert\(1\)<\/script>/, 'the pitch shows its HTML as text');
    assert.match(
      await page.$eval('#state', (e) => (e as unknown as { textContent: string }).textContent),
      /Round 2 of 5/,
    );
    assert.equal(
      await page.evaluate(() => (globalThis as unknown as { __sameDocument?: number }).__sameDocument),
      1,
      'no reload',
    );
    const seqs = await feedSeqs(page);
    assert.deepEqual(
      seqs,
      [...new Set(seqs)].sort((a, b) => a - b),
      'items in log order, once each',
    );
    await check('match-live');
  });

  test('a dropped stream resumes from the last event: no gap, no duplicate', async (t) => {
    if (!browser) return t.skip('chromium not installed (apt-get install chromium)');
    const beforeDrop = await feedSeqs(page);
    h.web.hub.dropAll();
    // Played while the browser is disconnected (it reconnects after the stream's retry of 1 s).
    await h.run(bob, 'message text:"said while you were away"');
    await h.run(alice, 'message text:"and one more"');
    await page.waitForFunction(
      () =>
        /and one more/.test(
          (globalThis as unknown as { document: { body: { textContent: string } } }).document.body.textContent,
        ),
      { timeout: 15_000 },
    );
    await h.run(bob, 'message text:"after the reconnect"');
    await page.waitForFunction(
      () =>
        /after the reconnect/.test(
          (globalThis as unknown as { document: { body: { textContent: string } } }).document.body.textContent,
        ),
      { timeout: 10_000 },
    );
    const seqs = await feedSeqs(page);
    assert.deepEqual(seqs.slice(0, beforeDrop.length), beforeDrop);
    // The server's own rendering of the whole log: the same items, in the same order.
    const fresh = await browser.newPage();
    await fresh.goto(`${h.base}/matches/${live}`, { waitUntil: 'load' });
    assert.deepEqual(seqs, await feedSeqs(fresh), 'the live page holds exactly the items of a fresh load');
    await fresh.close();
    assert.equal(
      await page.evaluate(() => (globalThis as unknown as { __sameDocument?: number }).__sameDocument),
      1,
      'no reload',
    );
  });

  test('a replay: round by round with a keyboard-operable scrubber, ending with the winner', async (t) => {
    if (!browser) return t.skip('chromium not installed (apt-get install chromium)');
    await playToEnd(h);
    await waitUntil('the match is over in the store', async () => (await h.webStore.getMatch(live))?.status === 'over');
    await page.goto(`${h.base}/matches/${live}/replay`, { waitUntil: 'networkidle0' });
    assert.match(
      await page.$eval('.result', (e) => (e as unknown as { textContent: string }).textContent),
      /Winner: Lab [A-C]/,
    );
    const visible = () =>
      page.$$eval('.replay-round', (els) => els.filter((e) => !(e as unknown as { hidden: boolean }).hidden).length);
    assert.equal(await visible(), 6, 'lobby and five rounds');
    await page.focus('#scrub');
    await page.keyboard.press('Home');
    assert.equal(await visible(), 1, 'only the lobby');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.equal(await visible(), 3, 'up to round 2');
    await page.keyboard.press('End');
    assert.match(
      await page.$eval('main', (e) => (e as unknown as { textContent: string }).textContent),
      /Match over: final leaderboard/,
    );
    await check('replay');
  });

  test('the leaderboard: ratings with intervals, cutoff, filters, downloads', async (t) => {
    if (!browser) return t.skip('chromium not installed (apt-get install chromium)');
    await page.goto(`${h.base}/leaderboard`, { waitUntil: 'networkidle0' });
    const rows = await page.$$eval('table.leaderboard tbody tr', (els) =>
      els.map((e) => (e as unknown as { textContent: string }).textContent),
    );
    assert.equal(rows.length, 4, 'two people and the scripted seat, then people as one player');
    assert.match(rows[3]!, /People \(all 2 persons as one player\)/);
    assert.ok(
      rows.slice(0, 3).every((r) => /preliminary/.test(r)),
      'one match each: preliminary',
    );
    assert.match(
      await page.$eval('main', (e) => (e as unknown as { textContent: string }).textContent),
      /Last updated: \d{4}-\d\d-\d\d/,
    );
    const img = await page.$eval('img.chart', (e) => (e as unknown as { naturalWidth: number }).naturalWidth);
    assert.ok(img > 0, 'the ratings chart loaded');
    await check('leaderboard');
    await page.select('select[name=kind]', 'people');
    await Promise.all([page.waitForNavigation(), page.click('form.filters button')]);
    assert.equal((await page.$$('table.leaderboard tbody tr')).length, 3, 'two people and people as one player');
    const csv = await (await fetch(`${h.base}/leaderboard.csv?kind=people`)).text();
    assert.match(csv.split('\n')[0]!, /^rank,player,kind,rating,lo,hi,interval,preliminary,matches/);
    assert.equal(csv.trim().split('\n').length, 4);
    assert.match(csv.trim().split('\n')[3]!, /^,people \(all persons\),people,/);
    assert.doesNotMatch(csv, /Alice|test:alice/, 'people as pseudonyms in downloads');
    await page.goto(`${h.base}/leaderboard?min=2`, { waitUntil: 'load' });
    assert.equal(await page.$('table.leaderboard'), null, 'nobody has two matches yet');
  });

  test('the preference page and the demo view', async (t) => {
    if (!browser) return t.skip('chromium not installed (apt-get install chromium)');
    await page.goto(`${h.base}/preferences`, { waitUntil: 'networkidle0' });
    assert.match(
      await page.$eval('main', (e) => (e as unknown as { textContent: string }).textContent),
      /Preference data[\s\S]*All votes[\s\S]*LLM judge vs rule judge/,
    );
    await check('preferences');
    await page.goto(`${h.base}/demo`, { waitUntil: 'load' });
    // The newest match is over by now: the demo view says so, and shows no live stream beside it.
    assert.match(
      await page.$eval('h1', (e) => (e as unknown as { textContent: string }).textContent),
      /Last played: market_round finished/,
    );
    assert.equal(await page.$('[data-stream]'), null, 'a finished match opens no event stream');
    await check('demo');
    assert.deepEqual(
      errors.filter((e) => !/favicon/.test(e)),
      [],
      'no console errors (CSP included)',
    );
  });
});
