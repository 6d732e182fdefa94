#!/usr/bin/env node
// `npm run bench:fuzz [-- <runs per task>]`: the engine's property test (test/engine/property.test.ts) with
// many more random action sequences than CI runs (default 33,334 per task = 100,002), then the figure.
import { spawnSync } from 'node:child_process';

const perTask = Number(process.argv[2] ?? 33334);
if (!Number.isInteger(perTask) || perTask < 1) {
  console.error('usage: npm run bench:fuzz [-- <runs per task>]');
  process.exit(2);
}
const t0 = Date.now();
const r = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', 'test/engine/property.test.ts'],
  {
    stdio: 'inherit',
    env: { ...process.env, ARENA_FUZZ_RUNS_PER_TASK: String(perTask), NO_COLOR: '1' },
  },
);
const secs = ((Date.now() - t0) / 1000).toFixed(0);
console.log(
  `\nfuzz: ${(perTask * 3).toLocaleString('en-US')} random action sequences (3 tasks × ${perTask.toLocaleString('en-US')}, ≤ 20 steps each): ${r.status === 0 ? '0 invariant violations' : 'FAILED (see above)'} in ${secs} s`,
);
process.exit(r.status ?? 1);
