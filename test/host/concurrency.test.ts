import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Reply } from '../../src/commands/types.js';
import { labIdsFor } from '../../src/engine/index.js';
import type { MatchState } from '../../src/engine/types.js';
import { ruleJudge } from '../../src/engine/judge/rule-judge.js';
import { FakeClock, type HostResult } from '../../src/host/index.js';
import { openStore } from '../../src/store/index.js';
import { harness, person, publicText, replayed, spied, tempDb, unwrap, until } from './helpers.js';

/** A coalition_market seed with 5 seats. */
function fiveSeatSeed(): number {
  for (let seed = 0; seed < 100; seed++) if (labIdsFor('coalition_market', seed).length === 5) return seed;
  throw new Error('no 5-seat seed');
}

describe('round host concurrency', () => {
  test('200 concurrent actions from different seats: each logged exactly once, serial order, replay equal', async () => {
    const { host, store } = await harness();
    const seed = fiveSeatSeed();
    const people = [0, 1, 2, 3].map((i) => person(`p${i}`));
    unwrap(await host.create('cc', 'console', people[0]!, { task: 'coalition_market', seed, roundSeconds: 0 }));
    for (const p of people) unwrap(await host.join('cc', p));
    const { match } = unwrap(await host.start('cc', people[0]!));

    const calls = Array.from({ length: 200 }, (_, k) => {
      const p = people[k % people.length]!;
      return host.act('cc', p, { action_type: 'send_message', message: `note number ${k} from ${p.displayName}` });
    });
    const results = await Promise.all(calls);
    for (const r of results) assert.ok(r.ok, 'every command is accepted');
    const codes = results.map((r) => (r.ok ? r.value.result.code : ''));
    // 4 seats × 12 actions per round succeed; the rest hit the engine's per-round limit (and are logged).
    assert.equal(codes.filter((c) => c === 'message_sent').length, 48);
    assert.equal(codes.filter((c) => c === 'action_limit').length, 152);

    const events = await store.load(match.id);
    assert.deepEqual(
      events.map((e) => e.seq),
      events.map((_, i) => i + 1),
      'seq 1, 2, 3, … without gaps',
    );
    const actions = events.filter((e) => e.body.type === 'action');
    assert.equal(actions.length, 200);
    const texts = actions.map((e) => (e.body.type === 'action' ? (e.body.action as { message: string }).message : ''));
    assert.equal(new Set(texts).size, 200, 'each action exactly once');
    for (const e of actions) {
      if (e.body.type !== 'action') continue;
      const who = (e.body.action as { message: string }).message.split(' from ')[1];
      assert.equal(e.body.userId, `test:${who}`, 'logged under its own seat');
    }
    const live = await host.current('cc');
    const fromLog = await replayed(store, match.id);
    assert.equal(JSON.stringify(fromLog), JSON.stringify(live), 'replay of the log = the live match');
    await host.stop();
  });

  test('two hosts ("processes") on one store file: nothing lost, each round closed once', async () => {
    const db = tempDb();
    const clock = new FakeClock();
    const storeA = await openStore({ sqlitePath: db.path });
    const storeB = await openStore({ sqlitePath: db.path });
    const spyA = spied(storeA);
    const spyB = spied(storeB);
    // A judge both processes share whose answer the test holds back, so two closers overlap for real.
    let open: () => void = () => {};
    let gate: Promise<void> = Promise.resolve();
    let judgeCalls = 0;
    const judge = {
      id: 'gated',
      judge: async (state: MatchState) => {
        judgeCalls++;
        await gate;
        return ruleJudge.judge(state);
      },
    };
    try {
      const A = await harness({ store: spyA.store, clock, judge });
      const B = await harness({ store: spyB.store, clock, judge });
      const [alice, bob, carol] = [person('alice'), person('bob'), person('carol')];
      unwrap(await A.host.create('ch', 'console', alice, { task: 'market_round', seed: 21, roundSeconds: 30 }));
      unwrap(await B.host.join('ch', bob));
      unwrap(await A.host.join('ch', alice));
      unwrap(await B.host.join('ch', carol));
      const { match } = unwrap(await B.host.start('ch', alice));
      const racers = [
        { p: alice, h: A.host },
        { p: bob, h: B.host },
        { p: carol, h: A.host },
        { p: carol, h: B.host },
      ];
      const acts = await Promise.all(
        Array.from({ length: 40 }, (_, k) => {
          const { p, h } = racers[k % racers.length]!;
          return h.act('ch', p, { action_type: 'send_message', message: `race message ${k}` });
        }),
      );
      assert.ok(acts.every((r) => r.ok));
      assert.ok(
        spyA.conflicts() + spyB.conflicts() > 0,
        'the processes really raced (appends conflicted and were retried)',
      );
      let events = await storeA.load(match.id);
      assert.equal(new Set(events.filter((e) => e.body.type === 'action').map((e) => JSON.stringify(e.body))).size, 40);

      // Everyone says done at once through both hosts: the round closes once.
      const dones = await Promise.all([
        A.host.done('ch', alice),
        B.host.done('ch', bob),
        A.host.done('ch', carol),
        B.host.done('ch', carol),
      ]);
      const closes = dones
        .map((r: HostResult<{ closed: Reply | null }>) => (r.ok ? r.value.closed : null))
        .filter((c) => c !== null);
      assert.equal(closes.length, 1, 'exactly one caller got the close');
      assert.match(publicText(closes[0]), /Round 1\/5 closed/);

      // Round 2 closes by timer; both hosts have a timer armed for it, and both fire while judging.
      gate = new Promise<void>((r) => (open = r));
      judgeCalls = 0;
      await clock.advance(30_000);
      await until(() => spyA.lostClaims() + spyB.lostClaims() > 0);
      assert.equal(spyA.lostClaims() + spyB.lostClaims(), 1, 'the second closer lost the claim');
      open();
      await Promise.all([A.host.idle(), B.host.idle()]);
      assert.equal(judgeCalls, 1, 'only the claimant asked the judge');
      await clock.advance(60_000); // past the claim grace period too
      await Promise.all([A.host.idle(), B.host.idle()]);
      // The judge works off the lock: the claimant says the round is being judged, then posts its results; each once.
      const all = [...A.published, ...B.published].map((p) => publicText(p.reply));
      assert.equal(
        all.filter((t) => /Round 2\/5 closed: the judge is deciding/.test(t)).length,
        1,
        'the judging notice is posted once',
      );
      assert.equal(
        all.filter((t) => /Round 2\/5 closed(?!: the judge is deciding)/.test(t)).length,
        1,
        'the timer close is posted once',
      );
      events = await storeA.load(match.id);
      const closed = events
        .filter((e) => e.body.type === 'round_closed')
        .map((e) => (e.body.type === 'round_closed' ? e.body.round : -1));
      assert.deepEqual(closed.slice(0, 2), [0, 1], 'rounds 0 and 1 closed once each');
      assert.equal(new Set(closed).size, closed.length, 'no round closed twice');

      const a = await A.host.current('ch');
      const b = await B.host.current('ch');
      assert.equal(JSON.stringify(a), JSON.stringify(b), 'both processes converge on the same match');
      assert.equal(JSON.stringify(await replayed(storeB, match.id)), JSON.stringify(a));
      await A.host.stop();
      await B.host.stop();
    } finally {
      await storeA.close();
      await storeB.close();
      db.cleanup();
    }
  });
});
