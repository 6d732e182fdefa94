/**
 * Conformance tests of pairwise votes, match listings and deployment secrets (part of the suite in
 * conformance.ts, run on every backend). Two stores on one database stand in for two bot processes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KyselyEventStore, VoteRecord } from '../../src/store/index.js';

type WithStores = (n: number, fn: (...stores: KyselyEventStore[]) => Promise<void>) => Promise<void>;

const at = (i: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString();

const vote = (over: Partial<VoteRecord> = {}): VoteRecord => ({
  matchId: 'm',
  round: 0,
  ballotId: 'v_1',
  pair: 1,
  pitchA: 'p0_lab_0',
  pitchB: 'p0_lab_1',
  choice: 'a',
  shownFirst: 'p0_lab_1',
  voterId: 'discord:1',
  seated: false,
  createdAt: at(1),
  anonymous: true,
  ...over,
});

const newMatch = async (s: KyselyEventStore, id: string, channelId: string, i: number) => {
  const r = await s.createMatch({ id, channelId, platform: 'console', createdAt: at(i) });
  assert.ok(r.ok, `createMatch ${id}`);
};

/** Register the vote/listing/secret tests with the suite's `withStores`. */
export function runVoteConformance(withStores: WithStores): void {
  test('votes: one per (match, pair, voter); the choice and shown order are kept', () =>
    withStores(1, async (s) => {
      await newMatch(s, 'm', 'c', 0);
      assert.deepEqual(await s.recordVote(vote()), { ok: true, vote: vote() });
      assert.deepEqual(
        await s.recordVote(vote({ choice: 'b', createdAt: at(2) })),
        { ok: false, code: 'duplicate_vote' },
        'same pair, same voter',
      );
      assert.ok((await s.recordVote(vote({ voterId: 'discord:2', choice: 'tie', seated: true }))).ok, 'another voter');
      const other = vote({
        pair: 2,
        pitchA: 'p0_lab_0',
        pitchB: 'p0_lab_2',
        shownFirst: 'p0_lab_0',
        choice: 'both_bad',
        createdAt: at(3),
      });
      assert.ok((await s.recordVote(other)).ok, 'another pair');
      const stored = await s.listVotes({ matchId: 'm' });
      assert.equal(stored.length, 3);
      assert.deepEqual(
        stored.find((v) => v.voterId === 'discord:2'),
        vote({ voterId: 'discord:2', choice: 'tie', seated: true }),
      );
      assert.deepEqual(
        stored.find((v) => v.pair === 2),
        other,
      );
    }));

  test('votes: the anonymous flag reads back as stored (true, false, null for a vote cast before it existed)', () =>
    withStores(1, async (s) => {
      await newMatch(s, 'm', 'c', 0);
      for (const [i, anonymous] of ([true, false, null] as const).entries())
        assert.ok((await s.recordVote(vote({ voterId: `discord:${i}`, anonymous }))).ok);
      assert.deepEqual(
        (await s.listVotes({ matchId: 'm' })).map((v) => [v.voterId, v.anonymous]),
        [
          ['discord:0', true],
          ['discord:1', false],
          ['discord:2', null],
        ],
      );
    }));

  test('votes: refused without a row when the match is unknown or the pair is not canonical', () =>
    withStores(1, async (s) => {
      await newMatch(s, 'm', 'c', 0);
      assert.deepEqual(await s.recordVote(vote({ matchId: 'nope' })), { ok: false, code: 'unknown_match' });
      const swapped = await s.recordVote(vote({ pitchA: 'p0_lab_1', pitchB: 'p0_lab_0' }));
      assert.equal(swapped.ok ? 'ok' : swapped.code, 'invalid_vote');
      const shown = await s.recordVote(vote({ shownFirst: 'p0_lab_9' }));
      assert.equal(shown.ok ? 'ok' : shown.code, 'invalid_vote');
      assert.deepEqual(await s.listVotes(), []);
    }));

  test('votes: the same vote raced from two processes is stored once', () =>
    withStores(2, async (a, b) => {
      await newMatch(a, 'm', 'c', 0);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).recordVote(vote({ createdAt: at(i) }))),
      );
      assert.equal(results.filter((r) => r.ok).length, 1);
      assert.equal(results.filter((r) => !r.ok && r.code === 'duplicate_vote').length, 19);
      assert.equal((await b.listVotes({ matchId: 'm' })).length, 1);
    }));

  test('listVotes filters by match, round, ballot, voter and time; ordered by match, round, time', () =>
    withStores(1, async (s) => {
      await newMatch(s, 'm', 'c', 0);
      await newMatch(s, 'n', 'd', 1);
      await s.recordVote(
        vote({
          round: 1,
          ballotId: 'v_2',
          pitchA: 'p1_lab_0',
          pitchB: 'p1_lab_1',
          shownFirst: 'p1_lab_0',
          createdAt: at(5),
        }),
      );
      await s.recordVote(vote({ createdAt: at(4) }));
      await s.recordVote(vote({ matchId: 'n', voterId: 'slack:U1', createdAt: at(9) }));
      const key = (v: VoteRecord) => `${v.matchId}/${v.round}/${v.voterId}`;
      assert.deepEqual((await s.listVotes()).map(key), ['m/0/discord:1', 'm/1/discord:1', 'n/0/slack:U1']);
      assert.deepEqual(
        (await s.listVotes({ matchId: 'm', round: 1 })).map((v) => v.ballotId),
        ['v_2'],
      );
      assert.deepEqual((await s.listVotes({ ballotId: 'v_1' })).map(key), ['m/0/discord:1', 'n/0/slack:U1']);
      assert.deepEqual((await s.listVotes({ voterId: 'slack:U1' })).map(key), ['n/0/slack:U1']);
      assert.deepEqual((await s.listVotes({ since: at(5) })).map(key), ['m/1/discord:1', 'n/0/slack:U1']);
    }));

  test('listMatches filters by status, channel, platform and creation time, oldest first', () =>
    withStores(1, async (s) => {
      await newMatch(s, 'm2', 'c2', 2);
      await newMatch(s, 'm1', 'c1', 1);
      await s.setMatchStatus('m1', 'over');
      await newMatch(s, 'm3', 'c1', 3);
      const ids = (rs: { id: string }[]) => rs.map((r) => r.id);
      assert.deepEqual(ids(await s.listMatches()), ['m1', 'm2', 'm3']);
      assert.deepEqual(ids(await s.listMatches({ status: 'over' })), ['m1']);
      assert.deepEqual(ids(await s.listMatches({ channelId: 'c1' })), ['m1', 'm3']);
      assert.deepEqual(ids(await s.listMatches({ since: at(2), platform: 'console' })), ['m2', 'm3']);
      assert.deepEqual(ids(await s.listMatches({ platform: 'slack' })), []);
    }));

  test('secret: generated once, the same value for every process; bad names refused', () =>
    withStores(2, async (a, b) => {
      let calls = 0;
      const gen = (v: string) => () => {
        calls++;
        return v;
      };
      const values = await Promise.all([
        a.secret('pseudonym', gen('first')),
        b.secret('pseudonym', gen('second')),
        a.secret('pseudonym', gen('third')),
      ]);
      assert.equal(new Set(values).size, 1, 'every caller reads the one stored value');
      assert.ok(calls >= 1);
      assert.equal(await b.secret('pseudonym', gen('later')), values[0]);
      assert.notEqual(await a.secret('other', gen('x')), undefined);
      await assert.rejects(a.secret('Bad Name', gen('y')), TypeError);
    }));
}
