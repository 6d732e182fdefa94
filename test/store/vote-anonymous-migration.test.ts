/**
 * Migration 0009 adds the anonymous flag to votes: a vote recorded before it reads back with `anonymous:
 * null` (its voter saw the raw texts; analytics resolves it from them), new votes keep true or false. On
 * SQLite and (when TEST_DATABASE_URL is set) PostgreSQL.
 */
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { migrationsBefore, upgradeTests } from './upgrade.js';

upgradeTests(
  '0009 keeps earlier votes with an unknown flag and stores the flag of new ones',
  migrationsBefore('0009'),
  async (db) => {
    await sql`insert into matches (id, channel_id, platform, status, created_at) values ('m', 'c', 'console', 'over', '2025-01-01T00:00:00.000Z')`.execute(
      db,
    );
    await sql`insert into votes (match_id, round, ballot_id, pair, pitch_a, pitch_b, choice, shown_first, voter_id, seated, created_at)
      values ('m', 0, 'v_1', 1, 'p0_lab_0', 'p0_lab_1', 'a', 'p0_lab_0', 'discord:1', 0, '2025-01-01T00:00:01.000Z')`.execute(
      db,
    );
  },
  async (store) => {
    const base = {
      matchId: 'm',
      round: 0,
      ballotId: 'v_1',
      pitchA: 'p0_lab_0',
      shownFirst: 'p0_lab_0',
      choice: 'b' as const,
      seated: true,
      createdAt: '2025-01-01T00:00:02.000Z',
    };
    assert.ok(
      (await store.recordVote({ ...base, pair: 2, pitchB: 'p0_lab_2', voterId: 'discord:2', anonymous: true })).ok,
    );
    assert.ok(
      (await store.recordVote({ ...base, pair: 3, pitchB: 'p0_lab_3', voterId: 'discord:3', anonymous: false })).ok,
    );
    assert.deepEqual(
      (await store.listVotes({ matchId: 'm' })).map((v) => [v.voterId, v.anonymous]),
      [
        ['discord:1', null],
        ['discord:2', true],
        ['discord:3', false],
      ],
    );
  },
);
