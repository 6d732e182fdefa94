/**
 * The private inbox and the rate limits of migration 0005 (scale-out), on SQLite and — when
 * TEST_DATABASE_URL is set — PostgreSQL. Two stores on one database stand in for two bot processes: a post
 * held by one is taken by the other, and of many takes racing on both, each post goes to exactly one.
 * Without TEST_DATABASE_URL the PostgreSQL half is reported as skipped (and fails under CI, as
 * postgres.test.ts does).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { INBOX_KEEP_PER_USER, type KyselyEventStore } from '../../src/store/index.js';
import { inboxAdd, inboxTake } from '../../src/store/inbox.js';
import { onBothStores, type PairBackend } from '../support/store-pair.js';

const post = (userId: string, text: string) => ({ userId, text });
const texts = (xs: unknown[]) => xs.map((x) => (x as { text: string }).text);

function suite(backend: PairBackend): void {
  describe(`private inbox and rate limits: ${backend.name}`, () => {
    test('a post held by one process is taken by another, oldest first, once', async () => {
      const { a, b, close } = await backend.pair();
      try {
        await a.inboxAdd('discord:1', 'c1', [post('discord:1', 'first'), post('discord:1', 'second')]);
        await a.inboxAdd('discord:1', 'c1', [post('discord:1', 'third')]);
        await a.inboxAdd('discord:2', 'c1', [post('discord:2', 'other person')]);
        assert.deepEqual(texts(await b.inboxTake('discord:1', 'c1')), ['first', 'second', 'third']);
        assert.deepEqual(await a.inboxTake('discord:1', 'c1'), [], 'taken once: nothing left');
        assert.deepEqual(texts(await a.inboxTake('discord:2', 'c1')), ['other person'], 'another person is untouched');
        // A reopened store (a restart) still has what was held.
        await a.inboxAdd('discord:3', 'c1', [post('discord:3', 'kept over a restart')]);
      } finally {
        await close();
      }
    });

    test("posts are held per person AND channel: a take in one channel leaves the other channel's posts", async () => {
      const { a, b, close } = await backend.pair();
      try {
        await a.inboxAdd('discord:1', 'chan-A', [post('discord:1', 'Lab A offers you o_1')]);
        await a.inboxAdd('discord:1', 'chan-B', [post('discord:1', 'round 2 results in B')]);
        assert.deepEqual(
          texts(await b.inboxTake('discord:1', 'chan-B')),
          ['round 2 results in B'],
          "only channel B's post in channel B",
        );
        assert.deepEqual(await b.inboxTake('discord:1', 'chan-B'), []);
        assert.deepEqual(
          texts(await a.inboxTake('discord:1', 'chan-A')),
          ['Lab A offers you o_1'],
          "channel A's post waits for channel A",
        );
        // Rows from before channels were kept (channel '') are never shown anywhere.
        await a.db
          .insertInto('private_inbox')
          .values({
            id: 'legacy-1',
            user_id: 'discord:1',
            channel_id: '',
            sort_key: '0',
            created_at: new Date().toISOString(),
            body: JSON.stringify(post('discord:1', 'legacy')),
          })
          .execute();
        assert.deepEqual(await a.inboxTake('discord:1', 'chan-A'), []);
        await assert.rejects(a.inboxTake('discord:1', ''), TypeError);
        // The bound is per person and channel: a busy channel does not push another channel's posts out.
        for (let i = 0; i < INBOX_KEEP_PER_USER + 3; i++)
          await a.inboxAdd('discord:1', 'chan-B', [post('discord:1', `b${i}`)]);
        await a.inboxAdd('discord:1', 'chan-A', [post('discord:1', 'still here')]);
        for (let i = 0; i < 3; i++) await a.inboxAdd('discord:1', 'chan-B', [post('discord:1', `b-more${i}`)]);
        assert.deepEqual(texts(await b.inboxTake('discord:1', 'chan-A')), ['still here']);
        assert.equal((await b.inboxTake('discord:1', 'chan-B')).length, INBOX_KEEP_PER_USER);
      } finally {
        await close();
      }
    });

    test(`bounded: the newest ${INBOX_KEEP_PER_USER} posts per person, none past the age limit`, async () => {
      const { a, b, close } = await backend.pair();
      try {
        for (let i = 0; i < INBOX_KEEP_PER_USER + 5; i++)
          await a.inboxAdd('discord:1', 'c1', [post('discord:1', `p${i}`)]);
        const got = texts(await b.inboxTake('discord:1', 'c1'));
        assert.equal(got.length, INBOX_KEEP_PER_USER);
        assert.equal(got[0], 'p5', 'the oldest went first');
        assert.equal(got.at(-1), `p${INBOX_KEEP_PER_USER + 4}`);
        // Age: a post added two days ago is neither returned nor kept; adding anything prunes it.
        const old = new Date(Date.now() - 48 * 3600_000);
        await inboxAdd(a.db, 'discord:9', 'c1', [post('discord:9', 'stale')], { now: old });
        await inboxAdd(a.db, 'discord:8', 'c1', [post('discord:8', 'fresh')]);
        assert.deepEqual(await inboxTake(b.db, 'discord:9', 'c1'), [], 'expired posts are gone');
        const rows = await a.db.selectFrom('private_inbox').select('user_id').execute();
        assert.deepEqual(
          rows.map((r) => r.user_id),
          ['discord:8'],
        );
        await assert.rejects(a.inboxAdd('', 'c1', [post('', 'x')]), TypeError);
      } finally {
        await close();
      }
    });

    test('takes racing on two processes, with adds in between: every post is taken exactly once', async () => {
      const { a, b, close } = await backend.pair();
      try {
        const users = Array.from({ length: 12 }, (_, i) => `discord:${100 + i}`);
        const added: string[] = [];
        const taken: string[] = [];
        const take = async (s: KyselyEventStore, u: string) => taken.push(...texts(await s.inboxTake(u, 'c1')));
        // Three waves: adds on both stores, then takes of every person from both stores at once.
        for (let wave = 0; wave < 3; wave++) {
          await Promise.all(
            users.flatMap((u, i) => {
              const batch = [post(u, `${u}/${wave}/a`), post(u, `${u}/${wave}/b`)];
              added.push(...texts(batch));
              return [(i % 2 ? a : b).inboxAdd(u, 'c1', batch)];
            }),
          );
          await Promise.all(users.flatMap((u) => [take(a, u), take(b, u), take(a, u), take(b, u)]));
        }
        assert.equal(new Set(taken).size, taken.length, 'no post was shown twice');
        assert.deepEqual([...taken].sort(), [...added].sort(), 'no post was lost');
      } finally {
        await close();
      }
    });

    test('the vote rate limit: shared by every process on PostgreSQL, per process on SQLite', async () => {
      const { a, b, close } = await backend.pair();
      try {
        const la = a.rateLimit('vote_test', { points: 3, durationSeconds: 60 });
        const lb = b.rateLimit('vote_test', { points: 3, durationSeconds: 60 });
        const shared = backend.name === 'postgres';
        assert.equal(la.scope, shared ? 'shared' : 'process');
        const got = [
          await la.consume('discord:1'),
          await lb.consume('discord:1'),
          await la.consume('discord:1'),
          await lb.consume('discord:1'),
        ];
        const refused = got.filter((g) => !g.ok);
        if (shared) {
          assert.deepEqual(
            got.map((g) => g.ok),
            [true, true, true, false],
            'the 4th point across both processes is refused',
          );
          assert.ok(!refused[0]!.ok && refused[0]!.msBeforeNext > 0 && refused[0]!.msBeforeNext <= 60_000);
        } else {
          assert.equal(refused.length, 0, 'two points per process, each within its own limit of 3');
        }
        assert.equal((await la.consume('discord:2')).ok, true, 'another person has their own count');
        assert.throws(() => a.rateLimit('Bad Name', { points: 1, durationSeconds: 1 }), TypeError);
      } finally {
        await close();
      }
    });
  });
}

onBothStores('private inbox and rate limits: postgres', 'arena_inbox', suite);
