/**
 * `npm run bench -- --original <checkout>`: the original arena timed around each run of ours, and the
 * ratio measured in the same run. A stand-in checkout (a tiny Python package with the three modules
 * scripts/bench-original.py imports) plays the original's part, so the real script runs under python3.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { parseOriginalRun, ratiosAgainst } from '../../src/eval/original-bench.js';

const run = (args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/bench.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });

/** A checkout whose env ends every episode after `steps` steps (or raises at reset when `broken`). */
function standIn(dir: string, steps: number, broken = false): string {
  const pkg = join(dir, 'gpu_budget_arena');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, '__init__.py'), '');
  writeFileSync(
    join(pkg, 'models.py'),
    'class ResetConfig:\n    def __init__(self, task_type, seed):\n        self.task_type, self.seed = task_type, seed\n',
  );
  writeFileSync(join(pkg, 'baselines.py'), 'def random_validish_policy(obs):\n    return {"action_type": "wait"}\n');
  writeFileSync(
    join(pkg, 'env.py'),
    [
      'class Obs:',
      '    def __init__(self, done):',
      '        self.done = done',
      'class GpuBudgetNegotiationEnv:',
      '    def reset(self, config):',
      broken ? '        raise RuntimeError("stand-in broken")' : '        self.n = 0',
      '        return Obs(False)',
      '    def step(self, action):',
      '        self.n += 1',
      `        return Obs(self.n >= ${steps})`,
      '',
    ].join('\n'),
  );
  return dir;
}

const TINY = [
  '--episodes',
  '2',
  '--warmup',
  '0',
  '--warmup-seconds',
  '0',
  '--trials',
  '1',
  '--tasks',
  'single_trade',
  '--policies',
  'random_validish',
];

describe('bench against the original, same run', () => {
  test('parses the script output and pools ratios against the runs around each of ours', () => {
    const out =
      'single_trade: 1200 steps in 0.26 s = 4690 steps/s\nmarket_round: 2000 steps in 0.65 s = 3069 steps/s\ntotal: 2565 steps/s\n';
    assert.deepEqual(parseOriginalRun(out), { stepsPerSecond: 2565, lines: out.trim().split('\n') });
    assert.equal(parseOriginalRun('Traceback (most recent call last):\n  ...'), null);
    const r = ratiosAgainst([30_000, 33_000], [4000, 2000, 4000]);
    assert.deepEqual(r.each, [10, 11]);
    assert.equal(r.median, 10.5);
    assert.throws(() => ratiosAgainst([1, 2], [1, 2]), /need 3 original runs/);
  });

  test('without --original only random_validish gets a ratio, to the fixed figure (the original times only its own random_validish)', () => {
    const r = run([...TINY.slice(0, -1), 'random_validish,rule_based_expert', '--baseline', '1000']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      r.stdout,
      /^total random_validish \(single_trade\): \d+ steps in [\d.]+ s = \d+ steps\/s, [\d.]+× the original's 1000 steps\/s \(a fixed figure; --original <checkout> measures it now\)$/m,
    );
    assert.match(r.stdout, /^total rule_based_expert \(single_trade\): \d+ steps in [\d.]+ s = \d+ steps\/s$/m);
  });

  test('--original times the stand-in before and after each run of ours and prints the ratios', () => {
    const dir = mkdtempSync(join(tmpdir(), 'orig-'));
    try {
      const json = join(dir, 'bench.json');
      const r = run([
        ...TINY,
        '--original',
        standIn(dir, 3),
        '--pairs',
        '2',
        '--original-episodes',
        '3',
        '--json',
        json,
      ]);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout.match(/^original run \d: single_trade: 9 steps in/gm)?.length, 3, r.stdout);
      assert.match(r.stdout, /the mean of its runs 2 and 3, before and after/);
      const ratio =
        /ratio random_validish \/ the original's random_validish, same minutes: ([\d.]+)×, ([\d.]+)×; median ([\d.]+)×/.exec(
          r.stdout,
        );
      assert.ok(ratio, r.stdout);
      const [a, b, median] = ratio.slice(1).map(Number) as [number, number, number];
      assert.ok(Math.abs(median - (a + b) / 2) < 0.011, `median of two is their mean: ${ratio[0]}`);
      const saved = JSON.parse(readFileSync(json, 'utf8')) as { runs: { steps: number }[][]; original: number[] };
      assert.equal(saved.original.length, 3);
      assert.deepEqual(
        saved.runs.map((rows) => rows.map((x) => x.steps)),
        [[6], [6]],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a folder that is no checkout is refused (2); a failing original script stops the bench (1)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'orig-'));
    try {
      const none = run([...TINY, '--original', dir]);
      assert.equal(none.status, 2);
      assert.match(none.stderr, /not a checkout of the original arena/);
      const broken = run([...TINY, '--original', standIn(dir, 3, true)]);
      assert.equal(broken.status, 1);
      assert.match(broken.stderr, /the original's benchmark failed[\s\S]*stand-in broken/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
