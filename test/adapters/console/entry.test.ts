/**
 * The console through the real entry point (`node --import tsx src/cli/main.ts`, as `npm start` runs it): a
 * piped script of commands plays a market_round match to the final leaderboard; the store holds it.
 * Then `npm run export` (both formats) on that database, and stdin ending mid-match.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { LedgerRowSchema } from '../../../src/present/ledger.js';
import { replay } from '../../../src/host/index.js';
import { openStore } from '../../../src/store/index.js';
import { spawnArena, spawnScript, tempDir } from './spawn.js';

const ARGS = (db: string) => ['--db', db, '--task', 'market_round', '--seed', '7', '--round-seconds', '0'];

describe('npm start with piped commands', () => {
  const dir = tempDir();
  const db = join(dir, 'arena.db');
  let matchId = '';

  test('plays a full match to the final leaderboard and exits 0', { timeout: 120_000 }, async () => {
    const p = spawnArena(ARGS(db));
    p.send(
      '# a comment line is ignored',
      'me',
      '/arena status',
      'pitch text:"j_0_0 needs its GPU-hours before the deadline" job:j_0_0',
      'offer to:lab_1 pay:1 msg:"a small gift"',
      'offer to:lab_9 pay:1',
      'fly away',
      'done',
      'done',
      'done',
      'done',
      'done',
      'done',
    );
    p.child.stdin.end();
    const { code } = await p.exited;
    const out = p.out();
    assert.equal(code, 0, `exit code; stderr:\n${p.err()}`);
    assert.match(out, /New match: market_round, seed 7/);
    assert.match(out, /\[#arena\] Match started: market_round/);
    // Public and private posts look different; errors are private.
    assert.match(out, /^\[#arena\] Lab A makes an offer to Lab B$/m);
    assert.match(out, /^ {4}\[private → you\] Lab A \(lab_0\) — round 1\/5, only you see this$/m);
    assert.match(out, /^ {4}\[private → you\] ✗ unknown_lab$/m);
    assert.match(out, /^ {4}\[private → you\] ✗ unknown_command$/m);
    // Your own offer shows no buttons to answer it (they go to its recipient, here a scripted seat: none).
    assert.doesNotMatch(out, /\[(Accept|Reject|Counter) o_1\]/);
    for (let r = 1; r <= 5; r++) assert.match(out, new RegExp(`Round ${r}/5 closed`));
    assert.match(out, /\[#arena\] Match over: final leaderboard/);
    assert.match(out, /The match is over/);
    assert.ok(!out.includes('\x1b['), 'no ANSI codes when stdout is not a TTY');
    const store = await openStore({ sqlitePath: db });
    try {
      assert.equal(await store.activeMatchInChannel('console:local'), null, 'the match is over in the store');
      const row = (await store.listUnfinished()).length;
      assert.equal(row, 0);
      const created = out.match(/Match started/g)?.length;
      assert.equal(created, 1);
      // Find the match id through the export's input: the newest match of the channel.
      const events = await findConsoleMatch(db);
      matchId = events.id;
      const m = replay(events.events);
      assert.equal(m?.phase, 'over');
      assert.equal(m?.state?.round, 5);
      assert.equal(events.events.filter((e) => e.body.type === 'round_closed').length, 5);
      // Bad input left no trace: two actions of the person only (pitch, offer), both valid; Lab B (scripted)
      // answered the offer at once: a direct message with its reason, then its decision.
      const actions = events.events.filter((e) => e.body.type === 'action');
      const mine = actions.filter((e) => (e.body as { userId: string }).userId !== 'scripted:lab_1');
      assert.equal(mine.length, 2);
      const answer = actions
        .filter((e) => (e.body as { userId: string }).userId === 'scripted:lab_1')
        .map((e) => (e.body as { action: { action_type: string } }).action.action_type);
      assert.deepEqual(answer.slice(0, 2)[0], 'send_message');
      assert.ok(['accept_offer', 'reject_offer', 'counter_offer'].includes(answer[1]!), `decision: ${answer[1]}`);
    } finally {
      await store.close();
    }
  });

  test(
    'npm run export writes the transcript (markdown) and the event log (JSON lines)',
    { timeout: 120_000 },
    async () => {
      assert.ok(matchId, 'needs the match of the previous test');
      const md = spawnScript('src/cli/export.ts', ['--db', db, '--match', matchId, '--format', 'transcript']);
      assert.equal((await md.exited).code, 0, md.err());
      assert.match(md.out(), new RegExp(`^# Match ${matchId}`));
      assert.match(md.out(), /- \*\*Lab A\*\* `send_offer`.*→ ✓ offer_created/);
      assert.match(md.out(), /#### Match over: final leaderboard/);
      const out = join(dir, 'events.jsonl');
      const jl = spawnScript('src/cli/export.ts', ['--db', db, '--match', matchId, '--format', 'jsonl', '--out', out]);
      assert.equal((await jl.exited).code, 0, jl.err());
      const lines = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { seq: number; matchId: string; body: { type: string } });
      assert.deepEqual(
        lines.map((l) => l.seq),
        lines.map((_, i) => i + 1),
      );
      assert.ok(lines.every((l) => l.matchId === matchId));
      assert.equal(lines[0]?.body.type, 'match_created');
      // The reward ledger: one validated JSON line per entry; each seat's amounts sum to its final total.
      const ledgerOut = join(dir, 'ledger.jsonl');
      const lg = spawnScript('src/cli/export.ts', [
        '--db',
        db,
        '--match',
        matchId,
        '--format',
        'ledger',
        '--out',
        ledgerOut,
      ]);
      assert.equal((await lg.exited).code, 0, lg.err());
      const rows = readFileSync(ledgerOut, 'utf8')
        .trim()
        .split('\n')
        .map((l) => LedgerRowSchema.parse(JSON.parse(l)));
      assert.ok(rows.length > 0, 'the match has ledger entries');
      const store = await openStore({ sqlitePath: db });
      const final = replay(await store.load(matchId))!;
      await store.close();
      for (const lab of final.state!.labIds) {
        const sum = rows.filter((r) => r.seat === lab).reduce((a, r) => a + r.amount, 0);
        assert.ok(
          Math.abs(sum - final.state!.seats[lab]!.cumulativeReward) < 1e-6,
          `${lab}: ledger ${sum} vs ${final.state!.seats[lab]!.cumulativeReward}`,
        );
      }
      assert.ok(rows.every((r) => r.matchId === matchId && r.reason.length > 0));
      const missing = spawnScript('src/cli/export.ts', ['--db', db, '--match', 'm_nope']);
      assert.equal((await missing.exited).code, 1);
      assert.match(missing.err(), /No match m_nope/);
    },
  );

  test('stdin ending mid-match exits 0 and keeps the match for the next start', { timeout: 120_000 }, async () => {
    const db2 = join(dir, 'partial.db');
    const p = spawnArena(ARGS(db2));
    p.send('done');
    p.child.stdin.end();
    assert.equal((await p.exited).code, 0, p.err());
    const found = await findConsoleMatch(db2);
    const m = replay(found.events);
    assert.equal(m?.phase, 'running');
    assert.equal(m?.state?.round, 1);
  });
});

/** The console channel's match in `db` (the active one, else the only one) with its events. */
async function findConsoleMatch(db: string) {
  const store = await openStore({ sqlitePath: db });
  try {
    const active = await store.activeMatchInChannel('console:local');
    const id = active?.id ?? (await onlyMatchId(db));
    return { id, events: await store.load(id) };
  } finally {
    await store.close();
  }
}

/** The store API lists unfinished matches only; a finished one is found in the SQLite file directly. */
async function onlyMatchId(db: string): Promise<string> {
  const { default: Database } = await import('better-sqlite3');
  const conn = new Database(db, { readonly: true });
  try {
    const rows = conn.prepare('SELECT id FROM matches').all() as { id: string }[];
    assert.equal(rows.length, 1);
    return rows[0]!.id;
  } finally {
    conn.close();
  }
}
