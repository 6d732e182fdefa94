/**
 * Issue "Every point explained" (item 6), console side, through the real entry point with piped stdin (and
 * one in-process run for Ctrl-C at an interactive prompt): no lobby screen once the console has seated and
 * started you (1); help lists what works here, with `quit` (2); real error reasons (3); single quotes (4);
 * typo suggestions (5); `quit`, Ctrl-C and the end of input say where the match is saved and how to resume
 * it, or that nothing is kept with `--db :memory:`, which writes no file at all (6); no buttons to answer
 * your own offer (7).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { runConsole } from '../../../src/adapters/console/session.js';
import { openStore } from '../../../src/store/index.js';
import { spawnArena, tempDir } from './spawn.js';

const ARGS = (db: string) => ['--db', db, '--task', 'market_round', '--seed', '7', '--round-seconds', '0'];

/** Every file under `dir`, recursively. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));

test(
  'a new user’s session: no lobby, help for here, real reasons, quotes, suggestions, no own-offer buttons, quit says where it is saved',
  { timeout: 120_000 },
  async () => {
    const db = join(tempDir(), 'arena.db');
    const p = spawnArena(ARGS(db));
    p.send(
      'help',
      'offer to:lab_1 pay:-50',
      'offer to:lab_1 pay:500',
      'message text:""',
      `pitch text:"${'x'.repeat(3000)}"`, // (a longer line is refused whole by the console's cap: input.test.ts)
      "message text:'hello there'",
      "message text:don't",
      'stauts',
      'offer to:lab_1 pay:1 message:"hi"',
      'offer to:lab_1 pay:1 msg:"hi"',
      'help quit',
      'quit',
    );
    const { code } = await p.exited;
    const out = p.out();
    assert.equal(code, 0, p.err());
    const [opening = '', afterHelp = ''] = out.split(/^> help$/m);
    // 1: the console seated and started you: nothing of the lobby is shown.
    for (const lobbyText of ['Take a seat', '[Join]', '[Start (host)]', 'Lobby:', 'is taken by you'])
      assert.ok(!opening.includes(lobbyText), `the opening shows ${lobbyText}:\n${opening}`);
    assert.match(opening, /^New match: market_round, seed 7/m);
    assert.match(opening, /^\[#arena\] Match started: market_round/m);
    assert.match(opening, /^\[#arena\] Round 1\/5 is open/m);
    assert.match(
      opening,
      /Votes are on: after each round anyone here can compare the pitches blind/,
      'the research notice of `new` is kept',
    );
    // 2: help lists what works in a running console match, with quit, and never "(host) (host)".
    const help = afterHelp.split(/^> /m)[0] ?? '';
    const listed = [...help.matchAll(/\[private → you\] • `([a-z_]+)/g)].map((m) => m[1]);
    assert.deepEqual(listed, [
      'help',
      'status',
      'me',
      'offer',
      'accept',
      'reject',
      'counter',
      'pitch',
      'reserve',
      'release',
      'coalition',
      'allocate',
      'message',
      'done',
      'finish',
      'end',
      'vote',
      'stats',
      'leaderboard',
      'privacy',
      'chart',
      'quit',
    ]);
    assert.ok(!help.includes('(host) (host)'));
    assert.match(help, /• `end` — End the match now \(host\)$/m);
    // 3: the real reasons; a long value is clipped.
    assert.match(out, /`pay` must be ≥ 0 \(you wrote `-50`\)/);
    assert.match(out, /`pay` 500 is more than your budget \d+\.\d\d credits\./);
    assert.match(out, /`text` must not be empty/);
    assert.doesNotMatch(out, /no valid value for `(pay|text)`/);
    assert.match(out, /`text` is too long: `x{40}…\(3,000 characters; at most 1,200\)`/);
    assert.equal(
      out.match(/x{41,}/g)?.length,
      1,
      'the 5,000-character pitch is printed once: the echo of the input line, not in the error',
    );
    // 4: single quotes, and an apostrophe inside a word.
    assert.match(out, /^\[#arena\] Lab A: hello there$/m);
    assert.match(out, /^\[#arena\] Lab A: don't$/m);
    assert.doesNotMatch(out, /bad_token/);
    // 5: suggestions.
    assert.match(out, /Unknown command `stauts`\. Did you mean `status`\?/);
    assert.match(out, /`offer` has no option `message`\. Did you mean `msg`\?/);
    // 7: your own offer shows no Accept/Reject buttons.
    assert.match(out, /^\[#arena\] Lab A makes an offer to Lab B$/m);
    assert.doesNotMatch(out, /\[(Accept|Reject|Counter) o_1\]/);
    // 6: help quit and quit say where the match is saved and how to resume it.
    assert.match(
      out,
      new RegExp(
        `\`quit\` \\(or \`exit\`, or Ctrl-C\\) leaves the console and says where the match is saved \\(${db}\\) and the command that resumes it \\(\`npm start -- --db ${db} --resume <match id>\`\\)`,
      ),
    );
    const store = await openStore({ sqlitePath: db });
    try {
      const id = (await store.activeMatchInChannel('console:local'))?.id;
      assert.ok(id);
      assert.ok(
        out.includes(
          `Bye. Saved in ${db} — \`npm start -- --db ${db} --resume ${id}\` resumes match ${id} at round 1/5.`,
        ),
        out.slice(-400),
      );
    } finally {
      await store.close();
    }
  },
);

test(
  'SIGINT says where the match is saved and exits 0; the end of input says it too',
  { timeout: 120_000 },
  async () => {
    const db = join(tempDir(), 'arena.db');
    const p = spawnArena(ARGS(db));
    await p.waitFor(/Round 1\/5 is open/);
    p.send('status');
    await p.waitFor(/Leaderboard/);
    p.child.kill('SIGINT');
    const { code, signal } = await p.exited;
    assert.deepEqual({ code, signal }, { code: 0, signal: null }, p.err());
    const id =
      /^Bye\. Saved in .*arena\.db — `npm start -- --db .*arena\.db --resume (m_[0-9a-f]+)` resumes match \1 at round 1\/5\.$/m.exec(
        p.out(),
      )?.[1];
    assert.ok(id, p.out());

    // The command it printed resumes the match (the same arguments as before would start a new one).
    const again = spawnArena(['--db', db, '--resume', id]);
    again.send('done');
    again.child.stdin.end();
    assert.equal((await again.exited).code, 0);
    assert.match(again.out(), /Resumed match m_/);
    assert.match(again.out(), /^Bye\. Saved in .* resumes match m_[0-9a-f]+ at round 2\/5\.$/m);
  },
);

test(
  '--db :memory: says truthfully that nothing is kept and writes no file at all (charts are named, not written)',
  { timeout: 120_000 },
  async () => {
    const cwd = tempDir();
    const p = spawnArena(['--db', ':memory:', '--task', 'single_trade', '--seed', '5', '--round-seconds', '0'], cwd);
    p.send('done', 'chart', 'quit');
    const { code } = await p.exited;
    const out = p.out();
    assert.equal(code, 0, p.err());
    assert.match(out, /`quit` or Ctrl-C leaves; with --db :memory: nothing is kept\./);
    assert.match(out, /^\[#arena\] chart: .+ — not written: with --db :memory: the console writes no files/m);
    assert.match(out, /^Bye\. Nothing is kept: the database is :memory:, so match m_[0-9a-f]+ ends with this process/m);
    assert.doesNotMatch(out, /Saved in|the match is saved|resumes (it|match)/);
    assert.deepEqual(filesUnder(cwd), [], 'no file was written (no database, no chart PNG)');
  },
);

test('Ctrl-C at an interactive prompt leaves like quit and says what is kept', { timeout: 60_000 }, async () => {
  const store = await openStore({ sqlitePath: ':memory:' });
  try {
    const input = new PassThrough();
    let out = '';
    const output = new Writable({ write: (c: Buffer, _e, cb) => ((out += String(c)), cb()) });
    const run = runConsole({
      store,
      input,
      output,
      interactive: true,
      color: false,
      task: 'single_trade',
      seed: 5,
      roundSeconds: 0,
      keeping: null,
      chartsDir: null,
    });
    while (!out.includes('arena> ')) await new Promise((r) => setTimeout(r, 20));
    input.write('\x03');
    assert.equal(await run, 0);
    assert.match(out, /Bye\. Nothing is kept: the database is :memory:/);
  } finally {
    await store.close();
  }
});
