/**
 * The production build as `npm start` runs it (scripts/run.mjs → dist/bin/main.js, rebuilt first when a
 * source is newer): a piped single_trade match plays to the end, and the console process never loads a chat
 * platform, the chart renderer, the LLM SDK or the PostgreSQL driver (they load only when used).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from './spawn.js';

function runCompiled(dir: string, input: string, seed: number) {
  const packages = join(dir, `packages-${seed}.txt`);
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ARENA_PACKAGES_OUT: packages };
  for (const k of [
    'LOG_LEVEL',
    'DATABASE_URL',
    'ARENA_CONFIG',
    'OPENAI_API_KEY',
    'ARENA_LLM_BASE_URL',
    'ARENA_LLM_API_KEY',
  ])
    delete env[k];
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      resolve('test/support/packages-hook.mjs'),
      resolve('scripts/run.mjs'),
      'main',
      '--db',
      join(dir, `a-${seed}.db`),
      '--task',
      'single_trade',
      '--seed',
      String(seed),
      '--round-seconds',
      '0',
    ],
    // In `dir`: the final charts go to ./data/charts of the working directory, never into the checkout.
    { cwd: dir, input, encoding: 'utf8', env, timeout: 280_000 },
  );
  return { ...r, packages: readFileSync(packages, 'utf8').split('\n') };
}

test('npm start (compiled) plays a match to the end, charts included', { timeout: 300_000 }, () => {
  const r = runCompiled(tempDir(), 'me\nstatus\ndone\ndone\ndone\n', 3);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /New match: single_trade, seed 3/);
  assert.match(r.stdout, /Round 3\/3 closed/);
  assert.match(r.stdout, /standings\.png/, "the final post's standings chart was rendered by the bundled build");
});

test('the console at its prompt has loaded no platform, chart, rating or LLM package', { timeout: 300_000 }, () => {
  const r = runCompiled(tempDir(), 'me\nquit\n', 4);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /\[private → you\] Budget/);
  for (const heavy of [
    'discord.js',
    '@slack/bolt',
    'vega',
    'vega-lite',
    '@resvg/resvg-js',
    'openai',
    'pg',
    'openskill',
    'fastify',
    'rate-limiter-flexible',
  ]) {
    assert.ok(!r.packages.includes(heavy), `the console loaded ${heavy}; loaded: ${r.packages.join(', ')}`);
  }
  assert.ok(r.packages.includes('better-sqlite3'), 'the SQLite driver is loaded (the hook saw the packages)');
});
