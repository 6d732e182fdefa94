import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

const run = (script: string, args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', script, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });

describe('CLIs', () => {
  test('eval prints the table and writes JSON rows; --plugin adds llm:<model> players', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-'));
    try {
      const out = join(dir, 'out.json');
      const plugin = join(dir, 'plugin.mjs');
      // A plugin agent that always waits (stands in for the LLM helper's factory).
      writeFileSync(
        plugin,
        "export function registerEvalAgents(register) { register((d) => d.model === 'fake' ? { act: async () => [{ action_type: 'wait' }] } : null); }\n",
      );
      const r = run('src/cli/eval.ts', [
        '--tasks',
        'single_trade',
        '--seeds',
        '0-2',
        '--policies',
        'rule_based_expert,llm:fake',
        '--plugin',
        plugin,
        '--json',
        out,
        '--breakdown',
      ]);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /mean reward columns per episode/);
      assert.match(r.stdout, /share of \|weighted reward\| per column/);
      assert.match(r.stdout, /rule_based_expert\s+single_trade\s+train\s+3/);
      assert.match(r.stdout, /through trades/);
      const rows = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>[];
      assert.equal(rows.length, 2);
      assert.deepEqual(
        Object.keys(rows[0]!).sort(),
        [
          'breakdown',
          'invalidPerEpisode',
          'max',
          'mean',
          'meanSteps',
          'min',
          'n',
          'policy',
          'split',
          'std',
          'task',
        ].sort(),
      );
      const b = rows[0]!.breakdown as Record<string, number>;
      assert.ok(
        Math.abs(b.normalized_reward! - (rows[0]!.mean as number)) < 1e-9,
        'the columns add up to the mean reward',
      );
      assert.equal(rows[1]!.policy, 'llm:fake');
      const bad = run('src/cli/eval.ts', ['--tasks', 'nope']);
      assert.equal(bad.status, 2);
      assert.match(bad.stderr, /unknown task nope/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('bench --opponents seats one policy everywhere else and rejects an unknown one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-'));
    try {
      const out = join(dir, 'bench.json');
      const args = [
        '--episodes',
        '2',
        '--warmup',
        '0',
        '--warmup-seconds',
        '0',
        '--trials',
        '1',
        '--tasks',
        'market_round',
        '--policies',
        'rule_based_expert',
      ];
      const r = run('src/cli/bench.ts', [...args, '--opponents', 'always_accept', '--json', out]);
      assert.equal(r.status, 0, r.stderr);
      const rows = JSON.parse(readFileSync(out, 'utf8')) as { opponents: string; steps: number }[];
      assert.deepEqual(
        rows.map((x) => [x.opponents, x.steps]),
        [['always_accept', 10]],
      );
      const bad = run('src/cli/bench.ts', [...args, '--opponents', 'nobody']);
      assert.equal(bad.status, 2);
      assert.match(bad.stderr, /unknown policy nobody/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('bench writes its rows', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-'));
    try {
      const out = join(dir, 'bench.json');
      const r = run('src/cli/bench.ts', [
        '--episodes',
        '3',
        '--warmup',
        '1',
        '--warmup-seconds',
        '0',
        '--trials',
        '2',
        '--tasks',
        'single_trade',
        '--json',
        out,
      ]);
      assert.equal(r.status, 0, r.stderr);
      const rows = JSON.parse(readFileSync(out, 'utf8')) as {
        policy: string;
        opponents: string;
        steps: number;
        episodes: number;
        stepsPerSecond: number;
      }[];
      assert.deepEqual(
        rows.map((x) => [x.policy, x.opponents]),
        [
          ['random_validish', 'archetypes'],
          ['rule_based_expert', 'archetypes'],
        ],
      );
      for (const x of rows) {
        assert.equal(x.episodes, 3);
        assert.equal(x.steps, 9, 'single_trade: 3 rounds, one step each');
        assert.ok(x.stepsPerSecond > 0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
