/**
 * The web page after an erasure (docs/PREFERENCE-DATA.md#consent-and-erasure): the bot rewrites the
 * person's texts in place, and the page, which caches each match's log, shows the tombstones from its next
 * request on, not the erased words.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { alice, playToEnd, startMatch, webHarness, type WebHarness } from './helpers.js';

describe('web page: an erased person’s words', () => {
  let h: WebHarness;
  let id = '';
  before(async () => {
    h = await webHarness({ ballotSeconds: 0 });
    id = await startMatch(h, false);
    await playToEnd(h);
  });
  after(() => h.close());

  test('shown before the erasure, gone after it', async () => {
    const page = async () => (await fetch(`${h.base}/matches/${id}`)).text();
    assert.match(await page(), /Round 1: we need capacity for our remaining jobs/);
    assert.equal((await h.run(alice, 'privacy erase:confirm')).error, undefined);
    const after = await page();
    assert.doesNotMatch(after, /Round 1: we need capacity for our remaining jobs/);
    assert.match(after, /\[erased text 1\]/);
  });
});
