/**
 * The judge off the match lock, across processes: two bot processes (race-postgres-worker.ts with a
 * stand-in model judge that answers only when the test says so) on one PostgreSQL schema. Both round timers fire at
 * once: one process claims the close, marks the round `round_judging` and waits for the model without
 * holding the lock. Meanwhile the other process answers a read at once and refuses an action with
 * `round_closed`; the round is closed exactly once, with nothing between `round_judging` and
 * `round_closed`. Then the claimant is killed while it judges: the other process takes the close over after
 * the claim grace and closes the round, once.
 *
 * Order is checked on the log (what the database holds when each answer came back), never by timing an
 * answer. Needs TEST_DATABASE_URL (`source .ci/postgres.sh`).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openPostgresStore, type EventStore } from '../../src/store/index.js';
import type { Caller } from '../../src/commands/types.js';
import { Proc, race } from './race-postgres-procs.js';
import { MatchTrail } from './race-postgres-steps.js';
import { freshSchema, pgAdmin, withPostgres } from '../support/postgres.js';
import { waitUntil } from '../support/wait.js';

/** How long a process waits before taking over a close whose claimant is gone (ms). */
const GRACE_MS = 8_000;
const ROUNDS = 3;

const alice: Caller = { userId: 'pg:alice', displayName: 'Alice', isAdmin: false };
const bob: Caller = { userId: 'pg:bob', displayName: 'Bob', isAdmin: false };
const bodies = (t: MatchTrail) => t.events.map((e) => e.ev.body.type);

withPostgres('the judge off the lock across two processes on PostgreSQL', (url) => {
  describe('the judge off the lock across two processes on one PostgreSQL database', () => {
    const schema = freshSchema('arena_t_judge');
    let store: EventStore;
    let A: Proc;
    let B: Proc;

    before(async () => {
      store = await openPostgresStore({ connectionString: url, schema, maxConnections: 2 });
      const extra = ['judge', String(GRACE_MS)];
      [A, B] = await Promise.all([Proc.start('A', url, schema, extra), Proc.start('B', url, schema, extra)]);
    });

    after(async () => {
      try {
        await Promise.all([A?.quit(), B?.quit()]);
      } finally {
        await store?.close();
        await pgAdmin(`drop schema if exists ${schema} cascade`);
      }
    });

    /** A running market_round match with Alice (via A) and Bob (via B); both pitch each round through `pitch`. */
    async function fresh(channel: string): Promise<MatchTrail> {
      for (const [p, who, text] of [
        [A, alice, 'new task:market_round seed:11 round_seconds:0'],
        [A, alice, 'join lab:lab_0'],
        [B, bob, 'join lab:lab_1'],
        [A, alice, 'start'],
      ] as const) {
        const d = await p.run({ t: 'run', channel, user: who, text });
        assert.equal(d.error, undefined, `${text}: ${JSON.stringify(d.error)}`);
      }
      const rec = await store.activeMatchInChannel(channel);
      assert.ok(rec);
      const t = new MatchTrail(store, rec.id, channel);
      await t.sync();
      return t;
    }

    test(`both timers fire while the model judges (${ROUNDS} rounds): reads answer, actions are refused, each round closed once`, async () => {
      const t = await fresh('judge_race');
      for (let r = 0; r < ROUNDS; r++) {
        const before = (await t.sync()).lastSeq;
        const asked = new Map([
          [A, A.judgeCalls],
          [B, B.judgeCalls],
        ]);
        const askedBefore = (p: Proc) => asked.get(p) ?? 0;
        // Both processes' round timers fire together; the database picks the claimant.
        const [da, db] = await race(
          A,
          { t: 'close', channel: t.channel, round: r },
          B,
          { t: 'close', channel: t.channel, round: r },
          { gate: 'none' },
        );
        assert.equal([da, db].filter((d) => d.closed).length, 1, `one process claimed round ${r}'s close`);
        const claimant = da.closed ? A : B;
        const other = claimant === A ? B : A;
        let m = await t.sync();
        assert.equal(m.judging?.round, r, 'the round is with the judge');
        assert.equal(t.since(before).filter((e) => e.ev.body.type === 'round_judging').length, 1, 'marked once');
        // While the model judges: the other process reads (answered, with the round still being judged in the
        // log when the answer came back), and an action there is refused with round_closed.
        const read = await other.run({ t: 'run', channel: t.channel, user: bob, text: 'status' });
        assert.equal(read.error, undefined);
        assert.equal(read.publicPosts, 1);
        m = await t.sync();
        assert.equal(m.judging?.round, r, 'the read was answered while the model had not answered');
        const who = other === B ? bob : alice;
        const late = await other.run({ t: 'run', channel: t.channel, user: who, text: 'message text:"while judging"' });
        assert.equal(late.error?.code, 'round_closed', JSON.stringify(late));
        assert.match(
          late.error?.message ?? '',
          /is closed and its pitches are with the judge, so nothing was recorded/,
        );
        await waitUntil('the claimant to ask its model', () => A.judgeCalls + B.judgeCalls === r + 1);
        assert.equal(claimant.judgeCalls - askedBefore(claimant), 1, 'only the claimant asked its model');
        claimant.answerJudge();
        await waitUntil(`round ${r} closed`, async () => !(await t.sync()).judging, { timeoutMs: 20_000 });
        const added = t.since(before).map((e) => e.ev.body.type);
        assert.deepEqual(
          added,
          ['round_judging', 'round_closed'],
          `round ${r}: the mark, then the close; nothing between`,
        );
        assert.equal((await t.sync()).state?.round, r + 1);
      }
      const closes = t.events.flatMap((e) => (e.ev.body.type === 'round_closed' ? [e.ev.body.round] : []));
      assert.deepEqual(
        closes,
        Array.from({ length: ROUNDS }, (_, i) => i),
        'each round closed exactly once, in order',
      );
    });

    test('the claimant dies while the model judges: the other process closes the round after the grace, once', async () => {
      const t = await fresh('judge_crash');
      const before = (await t.sync()).lastSeq;
      const d = await A.run({ t: 'close', channel: t.channel, round: 0 });
      assert.equal(d.closed, true);
      assert.equal((await t.sync()).judging?.round, 0);
      await A.kill();
      // B learns of the judging round on its next command and arms the takeover at the mark's time + the grace.
      const calls = B.judgeCalls;
      const read = await B.run({ t: 'run', channel: t.channel, user: bob, text: 'status' });
      assert.equal(read.error, undefined);
      await waitUntil('the takeover to ask its model', () => B.judgeCalls > calls, { timeoutMs: 30_000 });
      assert.equal((await t.sync()).judging?.round, 0, 'no second mark');
      B.answerJudge();
      await waitUntil('the takeover', async () => !(await t.sync()).judging, { timeoutMs: 30_000 });
      assert.deepEqual(
        t.since(before).map((e) => e.ev.body.type),
        ['round_judging', 'round_closed'],
      );
      assert.equal(bodies(t).filter((x) => x === 'round_closed').length, 1);
      assert.equal(t.match?.state?.round, 1);
    });
  });
});
