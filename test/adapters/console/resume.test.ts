/**
 * Crash recovery through the real entry point: SIGKILL the console in the middle of a match, start it
 * again on the same database with `--resume`, and the match continues from the same round with the same events (none
 * lost, none added by the restart), then plays to the end.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { replay } from '../../../src/host/index.js';
import type { StoredEvent } from '../../../src/match/types.js';
import { openStore } from '../../../src/store/index.js';
import { spawnArena, tempDir } from './spawn.js';

const ARGS = (db: string) => ['--db', db, '--task', 'market_round', '--seed', '7', '--round-seconds', '0'];

async function consoleLog(db: string): Promise<{ id: string; events: StoredEvent[] }> {
  const store = await openStore({ sqlitePath: db });
  try {
    const active = await store.activeMatchInChannel('console:local');
    assert.ok(active, 'the console match is still unfinished in the store');
    return { id: active.id, events: await store.load(active.id) };
  } finally {
    await store.close();
  }
}

test(
  'SIGKILL mid-match, restart on the same DB: same match, same round, no event lost, plays to the end',
  { timeout: 180_000 },
  async () => {
    const db = join(tempDir(), 'arena.db');
    const first = spawnArena(ARGS(db));
    first.send('offer to:lab_1 pay:1 msg:"before the crash"', 'done', 'done');
    await first.waitFor(/Round 3\/5 is open/);
    first.send('message text:"last words before the crash"');
    await first.waitFor(/\*\*Lab A:\*\* last words before the crash|Lab A: last words before the crash/);
    first.child.kill('SIGKILL');
    const killed = await first.exited;
    assert.equal(killed.signal, 'SIGKILL');

    const before = await consoleLog(db);
    const m = replay(before.events);
    assert.equal(m?.phase, 'running');
    assert.equal(m?.state?.round, 2, 'two rounds closed before the kill');
    assert.ok(
      before.events.some(
        (e) => e.body.type === 'action' && JSON.stringify(e.body.action).includes('last words before the crash'),
      ),
      'the last acknowledged action is stored',
    );

    // Resuming is explicit: the same arguments would start a new seed-7 match (readme-example.test.ts).
    const second = spawnArena(['--db', db, '--resume']);
    await second.waitFor(/Resumed match/);
    const afterRestart = await consoleLog(db);
    assert.equal(afterRestart.id, before.id, 'the same match');
    assert.equal(afterRestart.events.length, before.events.length, 'restart adds no event');
    assert.match(
      second.out(),
      new RegExp(
        `Resumed match ${before.id} \\(market_round, seed 7\\) at round 3/5; ${before.events.length} events in its log`,
      ),
    );
    assert.ok(!/New match/.test(second.out()), 'no new match was created');

    second.send('done', 'done', 'done');
    second.child.stdin.end();
    const { code } = await second.exited;
    assert.equal(code, 0, second.err());
    assert.match(second.out(), /Match over: final leaderboard/);

    const store = await openStore({ sqlitePath: db });
    try {
      assert.equal(await store.activeMatchInChannel('console:local'), null);
      const all = await store.load(before.id);
      assert.deepEqual(
        all.slice(0, before.events.length),
        before.events,
        'every event from before the kill is still there, unchanged',
      );
      assert.equal(all.filter((e) => e.body.type === 'round_closed').length, 5);
      assert.equal(all.filter((e) => e.body.type === 'match_created').length, 1);
      assert.equal(replay(all)?.phase, 'over');
    } finally {
      await store.close();
    }
  },
);
