/**
 * The share rule for the web page's event streams (config `web.maxStreamsPerAddress`, default 1/16 of
 * `web.maxStreams`): the page built from the configuration; one address gets its share and then 429
 * while other addresses still get streams, until 16 addresses together fill the page (then 503).
 * Addresses are 127.0.0.x (all loopback on Linux); streams are counted by the hub, not timed.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/app/config/index.js';
import { alice, webHarness, type WebHarness } from './helpers.js';
import { waitUntil } from '../support/wait.js';

let h: WebHarness;
const held: http.ClientRequest[] = [];
before(async () => {
  const cfg = loadConfig(undefined, { ARENA_CONFIG: '', ARENA_WEB_MAX_STREAMS: '32' });
  assert.ok(cfg.ok, JSON.stringify(cfg));
  h = await webHarness({
    web: { maxStreams: cfg.config.web.maxStreams, maxStreamsPerAddress: cfg.config.web.maxStreamsPerAddress },
  });
});
after(async () => {
  for (const r of held) r.destroy();
  await h.close();
});

/** Open a stream from `localAddress`: its status (a 200 stays open until the test ends). */
function stream(url: string, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { localAddress }, (res) => {
      if (res.statusCode === 200) held.push(req);
      else res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
  });
}

describe('web event streams: one address holds at most 1/16 of them', () => {
  test('32 streams: 2 per address; the 16 addresses it takes to fill the page each get theirs', async () => {
    await h.run(alice, 'new task:market_round round_seconds:0');
    const url = `${h.base}/matches/${(await h.current()).id}/events`;
    assert.deepEqual([await stream(url, '127.0.0.2'), await stream(url, '127.0.0.2')], [200, 200]);
    await waitUntil('two streams open', () => h.web.hub.open === 2);
    assert.equal(await stream(url, '127.0.0.2'), 429, 'a third from one address');
    for (let a = 3; a <= 17; a++)
      assert.deepEqual(
        [await stream(url, `127.0.0.${a}`), await stream(url, `127.0.0.${a}`)],
        [200, 200],
        `address 127.0.0.${a}`,
      );
    await waitUntil('32 streams open', () => h.web.hub.open === 32);
    assert.equal(await stream(url, '127.0.0.18'), 503, 'full only once 16 addresses hold their share');
  });
});
