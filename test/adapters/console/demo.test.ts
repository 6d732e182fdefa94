/** `npm run demo` (src/cli/demo.ts) and bad command-line options of the entry points. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnArena, spawnScript } from './spawn.js';

test('npm run demo plays a whole scripted match (rule_based_expert on lab_0) and prints the channel transcript', { timeout: 120_000 }, async () => {
  const p = spawnScript('src/cli/demo.ts', ['--task', 'market_round', '--seed', '3']);
  const { code } = await p.exited;
  assert.equal(code, 0, p.err());
  const out = p.out();
  assert.match(out, /^# GPU Arena demo: market_round, seed 3/);
  assert.match(out, /> \/arena seat lab:lab_0 agent:scripted policy:rule_based_expert/);
  assert.match(out, /Lab A \(scripted: rule_based_expert\)/);
  for (let r = 1; r <= 5; r++) assert.match(out, new RegExp(`Round ${r}/5 closed`));
  assert.match(out, /\[#arena\] Match over: final leaderboard/);
  assert.ok(!out.includes('[private'), 'no person seats, so nothing private');
});

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
