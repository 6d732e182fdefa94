/**
 * The EventStore conformance suite, run unchanged against every backend (sqlite.test.ts, postgres.test.ts).
 * Each test gets a fresh, empty database from the backend and opens one or more stores on it; two stores on
 * one database are two connections, standing in for two bot processes.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { MatchEventBody } from '../../src/match/types.js';
import { KyselyEventStore, MIGRATIONS, StoreError, type EventStore } from '../../src/store/index.js';
import { runVoteConformance } from './conformance-votes.js';
import { runGuardConformance, runUsageConformance } from './conformance-usage.js';

/** What a backend gives the suite. */
export interface ConformanceBackend {
  /** Make a new, empty database; returns a key that `open` understands (SQLite: file path; PG: schema). */
  create(): Promise<string>;
  /** Open a store (new connection, migrations run) on the database `key`. */
  open(key: string): Promise<KyselyEventStore>;
  /** Remove what `create` made. */
  destroy(key: string): Promise<void>;
}

/** Deterministic timestamps: second `i` of 2025-01-01 UTC. */
const at = (i: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString();
const done = (lab: string): MatchEventBody => ({ type: 'seat_done', lab });
const labOf = (body: MatchEventBody) => (body.type === 'seat_done' ? body.lab : `(${body.type})`);

/** Append `body` at the end of the log whatever others do: retry on conflict from the reported lastSeq. */
async function appendRetrying(
  store: EventStore,
  matchId: string,
  body: MatchEventBody,
  state: { expected: number; conflicts: number },
) {
  for (let attempt = 0; attempt < 10_000; attempt++) {
    const r = await store.append(matchId, state.expected, body, at(0));
    if (r.ok) {
      state.expected = r.event.seq;
      return;
    }
    assert.equal(r.code, 'conflict', `unexpected ${r.code}`);
    if (r.code === 'conflict') state.expected = r.lastSeq;
    state.conflicts++;
  }
  assert.fail('append never succeeded');
}

/**
 * `total` payloads appended by `workersPerStore` concurrent workers on each store; checks that the log is
 * exactly seqs 1..total with every payload once. Returns how many conflicts the workers hit.
 */
async function raceAppends(
  stores: EventStore[],
  matchId: string,
  total: number,
  workersPerStore: number,
): Promise<number> {
  let next = 0;
  let conflicts = 0;
  const worker = async (store: EventStore) => {
    const state = { expected: 0, conflicts: 0 };
    while (next < total) {
      const i = next++;
      await appendRetrying(store, matchId, done(`p${i}`), state);
    }
    conflicts += state.conflicts;
  };
  await Promise.all(stores.flatMap((s) => Array.from({ length: workersPerStore }, () => worker(s))));
  const log = await stores[0]!.load(matchId);
  assert.deepEqual(
    log.map((e) => e.seq),
    Array.from({ length: total }, (_, i) => i + 1),
    'seqs 1..N without gaps',
  );
  assert.deepEqual(
    log.map((e) => labOf(e.body)).sort(),
    Array.from({ length: total }, (_, i) => `p${i}`).sort(),
    'each payload exactly once',
  );
  return conflicts;
}

/** Register the suite under `describe(name)`. */
export function runConformance(name: string, backend: ConformanceBackend): void {
  /** Fresh database, `n` stores on it; everything closed and removed afterwards. */
  async function withStores(n: number, fn: (...stores: KyselyEventStore[]) => Promise<void>): Promise<void> {
    const key = await backend.create();
    const stores: KyselyEventStore[] = [];
    try {
      for (let i = 0; i < n; i++) stores.push(await backend.open(key));
      await fn(...stores);
    } finally {
      for (const s of stores) await s.close();
      await backend.destroy(key);
    }
  }
  const newMatch = (s: EventStore, id: string, channelId = `ch-${id}`, i = 0) =>
    s.createMatch({ id, channelId, platform: 'console', createdAt: at(i) });

  describe(`EventStore conformance: ${name}`, () => {
    test('create, get, list unfinished, and status moves only forward', () =>
      withStores(1, async (s) => {
        const r = await newMatch(s, 'm1', 'c1', 1);
        assert.deepEqual(r, {
          ok: true,
          match: { id: 'm1', channelId: 'c1', platform: 'console', status: 'lobby', createdAt: at(1) },
        });
        assert.ok((await newMatch(s, 'm2', 'c2', 2)).ok);
        assert.ok((await newMatch(s, 'm3', 'c3', 3)).ok);
        assert.deepEqual(await newMatch(s, 'm1', 'c9'), { ok: false, code: 'duplicate_match' });
        assert.equal((await s.getMatch('m2'))?.channelId, 'c2');
        assert.equal(await s.getMatch('nope'), null);

        assert.equal(await s.setMatchStatus('m1', 'running'), true);
        assert.equal(await s.setMatchStatus('m1', 'running'), true, 'already there');
        assert.equal(await s.setMatchStatus('m1', 'lobby'), false, 'no way back to the lobby');
        assert.equal(await s.setMatchStatus('m2', 'over'), true, 'a lobby may be closed');
        assert.equal(await s.setMatchStatus('m2', 'running'), false, 'over is final');
        assert.equal(await s.setMatchStatus('nope', 'over'), false);
        assert.equal((await s.getMatch('m1'))?.status, 'running');
        assert.equal((await s.getMatch('m2'))?.status, 'over');
        assert.deepEqual(
          (await s.listUnfinished()).map((m) => [m.id, m.status]),
          [
            ['m1', 'running'],
            ['m3', 'lobby'],
          ],
        );
      }));

    test('one lobby/running match per channel, also when two stores race', () =>
      withStores(2, async (a, b) => {
        assert.ok((await newMatch(a, 'm1', 'chan')).ok);
        assert.deepEqual(await newMatch(b, 'm2', 'chan'), { ok: false, code: 'channel_busy', activeMatchId: 'm1' });
        assert.equal((await b.activeMatchInChannel('chan'))?.id, 'm1');
        assert.equal(await a.activeMatchInChannel('other'), null);
        await a.setMatchStatus('m1', 'running');
        assert.equal((await b.activeMatchInChannel('chan'))?.id, 'm1', 'running counts as active');
        await a.setMatchStatus('m1', 'over');
        assert.equal(await b.activeMatchInChannel('chan'), null);
        assert.ok((await newMatch(b, 'm2', 'chan')).ok, 'a finished match frees the channel');
        assert.equal((await a.activeMatchInChannel('chan'))?.id, 'm2');

        // Ten creates racing on a fresh channel from two connections: exactly one wins.
        const tries = Array.from({ length: 10 }, (_, i) => newMatch(i % 2 ? a : b, `r${i}`, 'race'));
        const results = await Promise.all(tries);
        assert.equal(results.filter((r) => r.ok).length, 1);
        const winner = (await a.activeMatchInChannel('race'))?.id;
        for (const r of results)
          if (!r.ok) assert.deepEqual(r, { ok: false, code: 'channel_busy', activeMatchId: winner });
      }));

    test('append and load: seq order, afterSeq, lastSeq, matches kept apart', () =>
      withStores(1, async (s) => {
        await newMatch(s, 'a');
        await newMatch(s, 'b');
        for (let i = 0; i < 5; i++) {
          const r = await s.append('a', i, done(`a${i}`), at(i));
          assert.deepEqual(r, { ok: true, event: { matchId: 'a', seq: i + 1, at: at(i), body: done(`a${i}`) } });
        }
        assert.ok((await s.append('b', 0, done('b0'), at(9))).ok);
        const log = await s.load('a');
        assert.deepEqual(
          log.map((e) => [e.seq, labOf(e.body), e.at]),
          [0, 1, 2, 3, 4].map((i) => [i + 1, `a${i}`, at(i)]),
        );
        assert.deepEqual(
          (await s.load('a', 3)).map((e) => e.seq),
          [4, 5],
        );
        assert.deepEqual(await s.load('a', 5), []);
        assert.deepEqual(
          (await s.load('b')).map((e) => labOf(e.body)),
          ['b0'],
        );
        assert.deepEqual(await s.load('nope'), []);
        assert.equal(await s.lastSeq('a'), 5);
        assert.equal(await s.lastSeq('nope'), 0);
      }));

    test('stale or ahead expectedSeq is a conflict that stores nothing; bad input is refused', () =>
      withStores(1, async (s) => {
        await newMatch(s, 'm');
        assert.ok((await s.append('m', 0, done('x'), at(1))).ok);
        assert.ok((await s.append('m', 1, done('y'), at(2))).ok);
        assert.deepEqual(await s.append('m', 1, done('stale'), at(3)), { ok: false, code: 'conflict', lastSeq: 2 });
        assert.deepEqual(await s.append('m', 0, done('stale'), at(3)), { ok: false, code: 'conflict', lastSeq: 2 });
        assert.deepEqual(
          await s.append('m', 5, done('gap'), at(3)),
          { ok: false, code: 'conflict', lastSeq: 2 },
          'no gaps',
        );
        assert.deepEqual(await s.append('nope', 0, done('x'), at(3)), { ok: false, code: 'unknown_match' });
        assert.deepEqual(await s.append('nope', 4, done('x'), at(3)), { ok: false, code: 'unknown_match' });

        const bad = { type: 'seat_done' } as unknown as MatchEventBody;
        const badBody = await s.append('m', 2, bad, at(3));
        assert.equal(!badBody.ok && badBody.code, 'invalid_event');
        const badAt = await s.append('m', 2, done('z'), 'yesterday');
        assert.equal(!badAt.ok && badAt.code, 'invalid_event');
        const badSeq = await s.append('m', -1, done('z'), at(3));
        assert.equal(!badSeq.ok && badSeq.code, 'invalid_event');
        assert.deepEqual(
          (await s.load('m')).map((e) => labOf(e.body)),
          ['x', 'y'],
          'nothing else stored',
        );

        // What is stored is the parsed body: keys outside the schema are dropped on the way in.
        const extra = { type: 'seat_done', lab: 'w', sneaky: 1 } as unknown as MatchEventBody;
        const r = await s.append('m', 2, extra, at(4));
        assert.deepEqual(r.ok && r.event.body, done('w'));
        assert.deepEqual((await s.load('m', 2))[0]?.body, done('w'));
      }));

    test('200 appends racing from 8 workers with retry: seqs 1..200, each payload once', () =>
      withStores(1, async (s) => {
        await newMatch(s, 'm');
        const conflicts = await raceAppends([s], 'm', 200, 8);
        assert.ok(conflicts > 0, 'the workers did race (all 8 start from expectedSeq 0)');
      }));

    test('two stores (two connections) racing on one match: 200 appends, no gaps, no duplicates', () =>
      withStores(2, async (a, b) => {
        await newMatch(a, 'm');
        const conflicts = await raceAppends([a, b], 'm', 200, 4);
        assert.ok(conflicts > 0);
        assert.deepEqual(await b.load('m'), await a.load('m'), 'both connections read the same log');
      }));

    test('tryClaim: exactly one winner across connections; a round closes exactly once', () =>
      withStores(2, async (a, b) => {
        const claims = await Promise.all(
          Array.from({ length: 16 }, (_, i) => (i % 2 ? a : b).tryClaim('round_close:m:3')),
        );
        assert.equal(claims.filter(Boolean).length, 1);
        assert.equal(await a.tryClaim('round_close:m:3'), false, 'stays claimed');
        assert.equal(await b.tryClaim('round_close:m:4'), true, 'other keys are independent');

        await newMatch(a, 'm');
        const closeRound = async (s: EventStore) => {
          if (!(await s.tryClaim('round_close:m:0'))) return;
          await appendRetrying(
            s,
            'm',
            { type: 'round_closed', round: 0, reason: 'timer', judge: null },
            { expected: 0, conflicts: 0 },
          );
        };
        await Promise.all([closeRound(a), closeRound(b), closeRound(a), closeRound(b)]);
        assert.deepEqual(
          (await b.load('m')).map((e) => e.body.type),
          ['round_closed'],
        );
      }));

    test('pruneClaims: forgets only old claims in its namespace; a forgotten key can be claimed again', () =>
      withStores(2, async (a, b) => {
        for (const k of ['slack:trigger:1', 'slack:event:2', 'slackx:3', 'round_close:m:0', 'SLACK:4'])
          assert.equal(await a.tryClaim(k), true);
        const hourAgo = new Date(Date.now() - 3_600_000);
        assert.equal(await b.pruneClaims('slack:', hourAgo), 0, 'claims made just now are younger than the cutoff');
        assert.equal(await a.tryClaim('slack:trigger:1'), false, 'still claimed');
        const later = new Date(Date.now() + 60_000);
        assert.equal(await b.pruneClaims('slack:', later), 2);
        assert.equal(await b.pruneClaims('slack:', later), 0, 'nothing left to prune');
        assert.equal(await a.tryClaim('slack:trigger:1'), true, 'claimable again');
        assert.equal(await a.tryClaim('slack:event:2'), true);
        for (const k of ['slackx:3', 'round_close:m:0', 'SLACK:4'])
          assert.equal(await b.tryClaim(k), false, `${k} is another namespace and stays`);
        for (const bad of ['', 'slack', 'slack%:', '%:', 'a_%:'])
          await assert.rejects(a.pruneClaims(bad, later), TypeError, JSON.stringify(bad));
        await assert.rejects(a.pruneClaims('slack:', new Date(Number.NaN)), TypeError);
        assert.equal(await a.tryClaim('round_close:m:0'), false, 'a refused call removed nothing');
      }));

    test('close and reopen: everything reads back; migrations are not applied twice', async () => {
      const key = await backend.create();
      try {
        const s1 = await backend.open(key);
        await newMatch(s1, 'm', 'c', 1);
        await s1.setMatchStatus('m', 'running');
        for (let i = 0; i < 3; i++) await s1.append('m', i, done(`l${i}`), at(i));
        await s1.tryClaim('k');
        await s1.recordVote({
          matchId: 'm',
          round: 0,
          ballotId: 'v_1',
          pair: 1,
          pitchA: 'p0_lab_0',
          pitchB: 'p0_lab_1',
          choice: 'a',
          shownFirst: 'p0_lab_1',
          voterId: 'u1',
          seated: false,
          createdAt: at(5),
          anonymous: true,
        });
        const before = await s1.load('m');
        await s1.close();

        const s2 = await backend.open(key);
        try {
          assert.deepEqual(await s2.listUnfinished(), [
            { id: 'm', channelId: 'c', platform: 'console', status: 'running', createdAt: at(1) },
          ]);
          assert.deepEqual(await s2.load('m'), before);
          assert.equal(before.length, 3);
          assert.equal(await s2.tryClaim('k'), false);
          assert.equal((await s2.listVotes({ matchId: 'm' })).length, 1);
          assert.ok((await s2.append('m', 3, done('after'), at(9))).ok, 'appending carries on');
          const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(s2.db);
          assert.deepEqual(
            applied.rows.map((r) => r.name),
            Object.keys(MIGRATIONS),
          );
        } finally {
          await s2.close();
        }
      } finally {
        await backend.destroy(key);
      }
    });

    test('a corrupt stored event is a StoreError corrupt_event, not a crash', () =>
      withStores(1, async (s) => {
        await newMatch(s, 'm');
        assert.ok((await s.append('m', 0, done('ok'), at(1))).ok);
        await s.db
          .insertInto('events')
          .values({ match_id: 'm', seq: 2, at: at(2), body: '{"type":"seat_done",' })
          .execute();
        await s.db
          .insertInto('events')
          .values({ match_id: 'm', seq: 3, at: at(3), body: '{"type":"bogus"}' })
          .execute();
        const isCorrupt = (seq: number) => (err: unknown) =>
          err instanceof StoreError &&
          err.code === 'corrupt_event' &&
          err.detail.seq === seq &&
          err.detail.matchId === 'm';
        await assert.rejects(s.load('m'), isCorrupt(2), 'not JSON');
        await assert.rejects(s.load('m', 2), isCorrupt(3), 'JSON that fails MatchEventSchema');
        assert.deepEqual(await s.load('m', 3), [], 'rows after the corrupt ones still load');
        assert.ok((await s.append('m', 3, done('next'), at(4))).ok, 'and the log goes on');
      }));

    runVoteConformance(withStores);
    runUsageConformance(withStores);
    runGuardConformance(withStores);
  });
}
