/**
 * The Python examples (standard library only) against the real server: play.py plays an episode through
 * the client module (arena_client.py); rollout.py plays episodes in parallel sessions and writes TRL
 * prompt/completion rows, validated here: every row's shape, its prompt's observation against the
 * original's contract, its completion as an action the engine accepts, and its rewards against the
 * in-process gym replaying the same actions.
 *
 * python3 is required, not optional: without it these tests FAIL (never skip), so a CI machine without
 * it cannot pass silently (.ci/run installs Debian's python3 when it is missing).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { ArenaEnv } from '../../../src/engine/gym.js';
import { ActionSchema } from '../../../src/engine/actions.js';
import { mustParse, Observation } from './original-contract.js';
import { startServer, type Harness } from './harness.js';

const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });

let h: Harness;
let dir: string;
before(async () => {
  h = await startServer();
  dir = mkdtempSync(join(tmpdir(), 'arena-rollout-'));
});
after(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

function needPython(): void {
  assert.equal(
    python.status,
    0,
    `python3 is required for the Python client tests (install Debian's python3): ${python.error?.message ?? python.stderr}`,
  );
}

/** Run a script without blocking the event loop (the server runs in this process). */
function run(script: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn('python3', [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const Message = z.strictObject({ role: z.enum(['system', 'user', 'assistant']), content: z.string().min(1) });
const Row = z.strictObject({
  prompt: z.tuple([Message.extend({ role: z.literal('system') }), Message.extend({ role: z.literal('user') })]),
  completion: z.tuple([Message.extend({ role: z.literal('assistant') })]),
  reward: z.number(),
  return: z.number(),
  task: z.literal('market_round'),
  seed: z.number().int(),
  episode: z.number().int().min(0),
  step: z.number().int().min(0),
  done: z.boolean(),
  code: z.string(),
});

describe('the Python client and examples', () => {
  for (const format of ['native', 'original']) {
    test(`play.py --format ${format} plays an episode through arena_client.py and prints its total reward`, async () => {
      needPython();
      const r = await run('examples/python/play.py', [
        '--url',
        h.url,
        '--task',
        'market_round',
        '--seed',
        '7',
        '--format',
        format,
      ]);
      assert.equal(r.code, 0, r.stderr);
      const steps = Number(/^steps (\d+)$/m.exec(r.stdout)?.[1]);
      const total = Number(/^total reward (-?\d+\.\d+)$/m.exec(r.stdout)?.[1]);
      const cumulative = Number(/^cumulative reward (-?\d+\.\d+)$/m.exec(r.stdout)?.[1]);
      const env = new ArenaEnv();
      env.reset({ task: 'market_round', seed: 7 });
      assert.equal(steps, env.state.params.maxRounds, r.stdout);
      assert.ok(Number.isFinite(total), r.stdout);
      assert.ok(Math.abs(total - cumulative) < 1e-3, 'the step rewards add up to the cumulative reward');
      assert.match(r.stdout, /allocate_to_job -> job_allocated/, 'the policy allocated a block');
      assert.equal(h.store.size, 0, 'the example deleted its session');
    });
  }

  test('rollout.py: 6 episodes in 3 parallel sessions → TRL prompt/completion rows that match the gym', async () => {
    needPython();
    const out = join(dir, 'rows.jsonl');
    const r = await run('examples/python/rollout.py', [
      '--url',
      h.url,
      '--task',
      'market_round',
      '--episodes',
      '6',
      '--parallel',
      '3',
      '--seed',
      '100',
      '--out',
      out,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^episodes 6 rows \d+ workers 3$/m);
    assert.equal(h.store.size, 0, 'every worker deleted its session');
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l, i) => mustParse(Row, JSON.parse(l), `row ${i}`));
    const episodes = new Map<number, typeof rows>();
    for (const row of rows) episodes.set(row.episode, [...(episodes.get(row.episode) ?? []), row]);
    assert.deepEqual([...episodes.keys()].sort(), [0, 1, 2, 3, 4, 5]);
    for (const [index, ep] of episodes) {
      const seed = ep[0]!.seed;
      assert.equal(seed, 100 + index);
      assert.deepEqual(
        ep.map((x) => x.step),
        ep.map((_, i) => i),
      );
      const env = new ArenaEnv();
      env.reset({ task: 'market_round', seed });
      let sum = 0;
      for (const row of ep) {
        const user = row.prompt[1].content;
        assert.ok(user.startsWith('Observation:\n'));
        const obs = mustParse(
          Observation,
          JSON.parse(user.slice('Observation:\n'.length)),
          `episode ${index} step ${row.step} prompt`,
        );
        assert.equal(obs.task_id, `market_round-${seed}`);
        assert.equal(obs.round_index, env.state.round);
        const action = JSON.parse(row.completion[0].content) as unknown;
        assert.ok(ActionSchema.safeParse(action).success, row.completion[0].content);
        const local = env.step(action);
        assert.equal(
          row.reward,
          local.reward,
          `episode ${index} step ${row.step}: the gym's reward for the same action`,
        );
        assert.equal(row.code, local.info.code);
        assert.equal(row.done, local.done);
        sum += row.reward;
      }
      assert.equal(env.done, true);
      assert.ok(
        Math.abs(sum - ep[0]!.return) < 1e-9 && Math.abs(sum - env.state.seats.lab_0!.cumulativeReward) < 1e-9,
        `episode ${index}: return = Σ reward = cumulative reward`,
      );
    }
  });
});
