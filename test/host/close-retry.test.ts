/**
 * A timer close whose append fails (a store error after the close was claimed) is retried: the round
 * still closes, once, instead of staying open until someone says `done` or the process restarts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStore } from '../../src/store/index.js';
import type { EventStore } from '../../src/store/types.js';
import { harness, person, publishedText, unwrap } from './helpers.js';

test('a timer close whose append throws is retried and closes the round once', async () => {
  const real = await openStore({ sqlitePath: ':memory:' });
  let failures = 1;
  // Fail the first `round_closed` append like a lost database connection would.
  const store: EventStore = Object.create(real, {
    append: {
      value: (...args: Parameters<EventStore['append']>) => {
        if (args[2].type === 'round_closed' && failures > 0) {
          failures -= 1;
          return Promise.reject(new Error('connection lost'));
        }
        return real.append(...args);
      },
    },
  });
  const h = await harness({ store, claimGraceMs: 5_000 });
  const alice = person('alice');
  const m = unwrap(await h.host.create('c1', 'test', alice, { task: 'single_trade', seed: 4, roundSeconds: 30 }));
  unwrap(await h.host.join('c1', alice, 'lab_0'));
  unwrap(await h.host.start('c1', alice));
  await h.clock.advance(30_000).catch(() => {});
  await h.host.idle().catch(() => {});
  assert.equal(failures, 0, 'the first close attempt hit the failing append');
  let closed = (await real.load(m.id)).filter((e) => e.body.type === 'round_closed');
  assert.equal(closed.length, 0, 'nothing was closed by the failed attempt');
  await h.clock.advance(5_000);
  await h.host.idle();
  closed = (await real.load(m.id)).filter((e) => e.body.type === 'round_closed');
  assert.equal(closed.length, 1, 'the retry closed the round exactly once');
  assert.match(publishedText(h), /Round 1\/3 closed/);
  await h.host.stop();
  await real.close();
});
