/** `npm run demo` (src/cli/demo.ts) and bad command-line options of the entry points. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { spawnArena, spawnScript, tempDir } from './spawn.js';

test(
  'npm run demo plays a whole scripted match (rule_based_expert on lab_0) and prints the channel transcript',
  { timeout: 120_000 },
  async () => {
    const charts = tempDir();
    const p = spawnScript('src/cli/demo.ts', ['--task', 'market_round', '--seed', '3', '--charts', charts]);
    const { code } = await p.exited;
    assert.equal(code, 0, p.err());
    const out = p.out();
    assert.match(out, /^# GPU Arena demo: market_round, seed 3/);
    assert.match(out, /> \/arena seat lab:lab_0 agent:scripted policy:rule_based_expert/);
    assert.match(out, /Lab A \(scripted: rule_based_expert\)/);
    for (let r = 1; r <= 5; r++) assert.match(out, new RegExp(`Round ${r}/5 closed`));
    assert.match(out, /\[#arena\] Match over: final leaderboard/);
    assert.ok(!out.includes('[private'), 'no person seats, so nothing private');
    // A story, not action names: terms, pitches in their words, the judge's checked claims, how each seat scored.
    assert.match(out, /offered Lab [A-C] o_\d+: .+ for .+/);
    assert.match(out, /pitched: “/);
    assert.match(out, /The judge's check of the round \d pitches|Pitches:/);
    assert.match(out, /How each seat scored:\n\s+Lab [A-C]: [+−]\d\.\d{4} = jobs/);
    assert.doesNotMatch(out, /\b(send_offer|allocate_to_job|make_pitch|reserve_capacity)\b/, 'no bare action names');
    // Piped: no pacing (the whole match prints at once), and the final charts are written where asked.
    const paths = [...out.matchAll(/^chart: (.+\.png)$/gm)].map((m) => m[1]!);
    assert.equal(paths.length, 2);
    for (const path of paths) assert.ok(existsSync(path), path);
    rmSync(charts, { recursive: true, force: true });
  },
);

test('bad options exit 2 with a message naming the option', { timeout: 120_000 }, async () => {
  const seed = spawnArena(['--seed', 'abc', '--db', ':memory:']);
  assert.equal((await seed.exited).code, 2);
  assert.match(seed.err(), /--seed/);
  const task = spawnArena(['--task', 'huge', '--db', ':memory:']);
  assert.equal((await task.exited).code, 2);
  assert.match(task.err(), /--task/);
  const platform = spawnArena(['--platform', 'teams', '--db', ':memory:']);
  assert.equal((await platform.exited).code, 2);
  assert.match(platform.err(), /--platform/);
});
