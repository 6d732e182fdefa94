/**
 * A ballot survives a crash of the real process: the console with votes on, a round with three
 * pitches (the person and two `pitch_only` seats) opens a ballot; the person votes on the one pair without
 * their own pitch; SIGKILL; a restart on the same database keeps the ballot and the vote (a repeat is
 * refused, no second row), and the ballot closes with the next round, as it would have without the crash.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openStore } from '../../../src/store/index.js';
import { spawnScript, tempDir } from './spawn.js';

const ARGS = (db: string) => [
  '--db',
  db,
  '--task',
  'market_round',
  '--seed',
  '7',
  '--round-seconds',
  '0',
  '--seat',
  'lab_1=scripted:pitch_only',
  '--seat',
  'lab_2=scripted:pitch_only',
];

const spawnWithVotes = (db: string) => spawnScript('src/cli/main.ts', ARGS(db), { ARENA_VOTES: 'true' });

async function stored(db: string) {
  const store = await openStore({ sqlitePath: db });
  try {
    const [match] = await store.listMatches();
    assert.ok(match, 'the console match is in the store');
    return { match, events: await store.load(match.id), votes: await store.listVotes({ matchId: match.id }) };
  } finally {
    await store.close();
  }
}

test(
  'SIGKILL mid-ballot, restart: the ballot and its vote are intact, a repeat is refused, it closes with the next round',
  { timeout: 180_000 },
  async () => {
    const db = join(tempDir(), 'arena.db');
    const first = spawnWithVotes(db);
    await first.waitFor(/Round 1\/5 is open/);
    first.send('pitch text:"j_0_0 still needs GPU-hours before its deadline" job:j_0_0', 'done');
    await first.waitFor(/Round 2\/5 is open/);
    const opened = (await stored(db)).events.filter((e) => e.body.type === 'ballot_opened');
    assert.equal(opened.length, 1, 'round 1 closed with three pitches: one ballot');
    const ballot = opened[0]!.body;
    assert.ok(ballot.type === 'ballot_opened');
    assert.equal(ballot.pitches.length, 3);
    const pair = ballot.pairs.findIndex(([a, b]) => !a.endsWith('lab_0') && !b.endsWith('lab_0')) + 1;
    assert.ok(pair > 0, 'one pair without the person’s own pitch');
    first.send(`vote ballot:${ballot.ballotId} pair:${pair} choice:a`);
    await first.waitFor(/✓ Vote recorded: ballot v_1, pair /);
    first.child.kill('SIGKILL');
    assert.equal((await first.exited).signal, 'SIGKILL');

    const before = await stored(db);
    assert.equal(before.votes.length, 1, 'the vote was stored before the kill');
    assert.ok(!before.events.some((e) => e.body.type === 'ballot_closed'), 'the ballot is still open');

    const second = spawnScript('src/cli/main.ts', ['--db', db, '--resume'], { ARENA_VOTES: 'true' });
    await second.waitFor(/Resumed match/);
    second.send(`vote ballot:${ballot.ballotId} pair:${pair} choice:b`);
    await second.waitFor(/duplicate_vote/);
    const afterRepeat = await stored(db);
    assert.deepEqual(afterRepeat.votes, before.votes, 'the repeat added no row and changed nothing');
    assert.equal(afterRepeat.events.length, before.events.length, 'the restart and the refused repeat add no event');

    second.send('done');
    await second.waitFor(/Round 3\/5 is open/);
    const after = await stored(db);
    const closed = after.events.filter((e) => e.body.type === 'ballot_closed');
    assert.deepEqual(
      closed.map((e) => (e.body.type === 'ballot_closed' ? [e.body.ballotId, e.body.reason] : null)),
      [[ballot.ballotId, 'next_round']],
    );
    second.child.kill('SIGTERM');
    await second.exited;
  },
);
