/**
 * Migration 0003 keeps the votes recorded under schema 0002 readable (`listLegacyVotes`) and replaces the
 * per-round key with the pairwise one, on SQLite and on PostgreSQL (with TEST_DATABASE_URL; without it the
 * PostgreSQL test is reported as skipped outside CI and fails under CI: test/support/postgres.ts).
 */
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import type { EventStore } from '../../src/store/index.js';
import { migrationsBefore, upgradeTests } from './upgrade.js';

const until0002 = migrationsBefore('0003');

/** Record one match with two old-style votes in a database at schema 0002. */
async function legacyVotes(db: Kysely<unknown>): Promise<void> {
  await sql`insert into matches (id, channel_id, platform, status, created_at) values ('m', 'c', 'console', 'over', '2025-01-01T00:00:00.000Z')`.execute(
    db,
  );
  await sql`insert into votes (match_id, round, voter_id, lab, created_at) values ('m', 0, 'discord:1', 'lab_1', '2025-01-01T00:00:01.000Z'), ('m', 1, 'discord:1', 'lab_0', '2025-01-01T00:00:02.000Z')`.execute(
    db,
  );
}

async function checkUpgraded(store: EventStore): Promise<void> {
  assert.deepEqual(await store.listLegacyVotes('m'), [
    { matchId: 'm', round: 0, voterId: 'discord:1', lab: 'lab_1', createdAt: '2025-01-01T00:00:01.000Z' },
    { matchId: 'm', round: 1, voterId: 'discord:1', lab: 'lab_0', createdAt: '2025-01-01T00:00:02.000Z' },
  ]);
  assert.deepEqual(await store.listVotes({ matchId: 'm' }), [], 'old rows are not pairwise votes');
  const v = {
    matchId: 'm',
    round: 0,
    ballotId: 'v_1',
    pair: 1,
    pitchA: 'p0_lab_0',
    pitchB: 'p0_lab_1',
    choice: 'a' as const,
    shownFirst: 'p0_lab_0',
    voterId: 'discord:1',
    seated: false,
    createdAt: '2025-01-01T00:00:03.000Z',
    anonymous: true,
  };
  assert.ok((await store.recordVote(v)).ok, 'the same voter and round can vote on a pair: the per-round key is gone');
  assert.ok((await store.recordVote({ ...v, pair: 2, pitchB: 'p0_lab_2' })).ok, 'and on a second pair of the round');
  assert.equal((await store.recordVote(v)).ok, false, 'the pairwise key holds');
}

upgradeTests('0003 keeps 0002 votes readable and replaces the per-round key', until0002, legacyVotes, checkUpgraded);
