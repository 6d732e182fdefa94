#!/usr/bin/env node
// Runs every test/**/*.test.ts with Node's own test runner through tsx.
// Node 20 cannot expand globs in --test, so the files are listed here.
// Usage: npm test [-- <substring filter>...]
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const filters = process.argv.slice(2);
const files = walk('test')
  .sort()
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// Spec output for people; a TAP copy to read the totals from for the closing summary line.
const tap = join(mkdtempSync(join(tmpdir(), 'arena-tests-')), 'results.tap');
const args = [
  '--import',
  'tsx',
  '--test',
  '--test-concurrency=2',
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  '--test-reporter=tap',
  `--test-reporter-destination=${tap}`,
  ...files,
];
const r = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, NO_COLOR: '1' } });
const totals = existsSync(tap) ? readFileSync(tap, 'utf8') : '';
const count = (key) => Number(totals.match(new RegExp(`^# ${key} (\\d+)$`, 'm'))?.[1] ?? 0);
console.log(
  `\ntests: ${count('pass')} passed, ${count('fail') + count('cancelled')} failed, ${count('skipped')} skipped`,
);
process.exit(r.status ?? 1);
