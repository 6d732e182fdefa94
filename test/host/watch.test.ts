import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { harness, person, postText, unwrap } from './helpers.js';

const host = person('host');

describe('a match to watch in a channel', () => {
  test('every seat an agent and a round timer: one round per timer, told in words, to the end', async () => {
    const h = await harness();
    unwrap(await h.host.create('w1', 'console', host, { task: 'market_round', seed: 3, roundSeconds: 20 }));
    const started = unwrap(await h.host.start('w1', host));
    assert.equal(started.match.state!.round, 0, 'the first round waits for its timer');
    await h.clock.advance(19_000);
    await h.host.idle();
    assert.equal(h.published.length, 0, 'nothing before the timer');
    await h.clock.advance(1_000);
    await h.host.idle();
    assert.equal((await h.host.current('w1'))!.state!.round, 1, 'one round per 20 s');
    for (let i = 0; i < 6; i++) {
      await h.clock.advance(20_000);
      await h.host.idle();
    }
    const text = h.published
      .flatMap((x) => x.reply.public)
      .map(postText)
      .join('\n');
    assert.match(text, /Match over: final leaderboard/);
    assert.match(text, /How each seat scored/);
    assert.match(text, /(offered|put \d+ blocks? to work|pitched: )/);
    await h.host.stop();
  });
});
