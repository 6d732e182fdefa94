/**
 * The web page by default (config data.includeSeeded off): a match its host seeded is practice, so the
 * leaderboard counts no match and the preference page and its export leave it out, saying so.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADMIN_TOKEN, playToEnd, startMatch, webHarness, type WebHarness } from './helpers.js';

describe('web page: host-seeded matches left out by default', () => {
  let h: WebHarness;
  before(async () => {
    // ballotSeconds 0: the last ballot closes with the match, so the preference page reads it at once.
    h = await webHarness({ includeSeeded: false, ballotSeconds: 0 });
    await startMatch(h, true);
    await playToEnd(h);
  });
  after(() => h.close());

  test('the leaderboard counts no match; the preference page and its export leave the practice match out', async () => {
    const json = (await (await fetch(`${h.base}/leaderboard.json`)).json()) as { rows: unknown[] };
    assert.equal(json.rows.length, 0);
    const page = await (await fetch(`${h.base}/preferences`)).text();
    assert.match(page, /1 match seeded by the host \(practice\) left out \(config data\.includeSeeded counts them\)/);
    const exp = await fetch(`${h.base}/preferences/export?format=jsonl&source=judge`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    assert.equal(exp.status, 200);
    assert.equal(await exp.text(), '');
  });
});
