import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FakeClock } from '../../src/host/index.js';
import { openStore } from '../../src/store/index.js';
import { harness, person, publishedText, tempDb, unwrap } from './helpers.js';

const alice = person('alice');
const bob = person('bob');

describe('round host restart', () => {
  test('a new host restores unfinished matches, re-arms the timer, closes an overdue round at once', async () => {
    const db = tempDb();
    const clock = new FakeClock();
    try {
      // Process 1: a running match with a 60 s timer, a lobby in another channel.
      const store1 = await openStore({ sqlitePath: db.path });
      const one = await harness({ store: store1, clock });
      unwrap(await one.host.create('r1', 'console', alice, { task: 'market_round', seed: 8, roundSeconds: 60 }));
      unwrap(await one.host.join('r1', alice));
      unwrap(await one.host.join('r1', bob));
      const t0 = clock.now();
      unwrap(await one.host.start('r1', alice));
      unwrap(
        await one.host.act('r1', alice, { action_type: 'send_message', message: 'acknowledged before the crash' }),
      );
      unwrap(await one.host.done('r1', alice));
      unwrap(await one.host.create('r2', 'console', bob, { task: 'single_trade', seed: 2 }));
      const before = await one.host.current('r1');
      await one.host.stop();
      await store1.close();

      // Process 2 after a restart: everything acknowledged is there, and the timer still runs.
      await clock.advance(10_000);
      const store2 = await openStore({ sqlitePath: db.path });
      const two = await harness({ store: store2, clock });
      assert.equal(await two.host.restore(), 2, 'the running match and the lobby');
      const after = await two.host.current('r1');
      assert.equal(JSON.stringify(after), JSON.stringify(before), 'state identical to before the restart');
      assert.deepEqual(after?.done, ['lab_0']);
      assert.equal(after?.state?.messages.at(-1)?.text, 'acknowledged before the crash');
      assert.equal((await two.host.current('r2'))?.phase, 'lobby');
      await clock.advance(49_000);
      await two.host.idle();
      assert.equal(two.published.length, 0, 'not before the deadline');
      await clock.advance(1_000);
      await two.host.idle();
      assert.equal(two.published.length, 1, 'the re-armed timer closed the round at t0 + 60 s');
      assert.equal(clock.now(), t0 + 60_000);
      assert.match(publishedText(two), /Round 1\/5 closed: the round timer ran out/);
      await two.host.stop();
      await store2.close();

      // Process 3 starts long after round 2's deadline: that round closes immediately on restore.
      await clock.advance(300_000);
      const store3 = await openStore({ sqlitePath: db.path });
      const three = await harness({ store: store3, clock });
      assert.equal(await three.host.restore(), 2);
      await three.host.idle();
      assert.equal(three.published.length, 1);
      assert.match(publishedText(three), /Round 2\/5 closed: the round timer ran out/);
      const now = await three.host.current('r1');
      assert.equal(now?.state?.round, 2);
      assert.equal(now?.roundDeadline, clock.now() + 60_000, 'the next round runs a full timer from its opening');
      await three.host.stop();
      await store3.close();
    } finally {
      db.cleanup();
    }
  });

  test('restore finishes a close the crash interrupted (every seat done, no round_closed yet)', async () => {
    const { host, store, clock } = await harness();
    unwrap(await host.create('r3', 'console', alice, { task: 'single_trade', seed: 4, roundSeconds: 0 }));
    unwrap(await host.join('r3', alice));
    const { match } = unwrap(await host.start('r3', alice));
    await host.stop();
    // Simulate a crash right after the seat_done was stored.
    const ok = await store.append(
      match.id,
      match.lastSeq,
      { type: 'seat_done', lab: 'lab_0' },
      new Date(clock.now()).toISOString(),
    );
    assert.ok(ok.ok);
    const again = await harness({ store, clock });
    assert.equal(await again.host.restore(), 1);
    await again.host.idle();
    assert.match(publishedText(again), /Round 1\/3 closed: every seat is done/);
    assert.equal((await again.host.current('r3'))?.state?.round, 1);
    await again.host.stop();
  });
});
