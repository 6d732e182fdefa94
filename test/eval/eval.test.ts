import { describe, test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, parseSeeds } from '../../src/eval/evaluate.js';
import { runAgentEpisode, runPolicyEpisode, HOLDOUT_SEED_OFFSET } from '../../src/eval/runner.js';
import { summarize } from '../../src/eval/stats.js';
import { clearAgentFactories, registerAgentFactory, resolvePlayer } from '../../src/eval/players.js';
import { feasibility } from '../../src/eval/feasibility.js';
import { renderTable } from '../../src/eval/table.js';
import { getPolicy } from '../../src/engine/policies/index.js';
import { rng } from '../../src/engine/index.js';
import type { SeatAgent } from '../../src/agents/seat.js';

describe('evaluate', () => {
  test('row statistics match a hand computation from the per-episode rewards', async () => {
    const players = ['rule_based_expert', 'random_validish'].map((n) => {
      const r = resolvePlayer(n);
      assert.ok(r.ok);
      return r.player;
    });
    const { rows, episodes } = await evaluate({
      players,
      tasks: ['single_trade', 'market_round'],
      seeds: [0, 1, 2, 3, 4],
      holdout: false,
    });
    assert.equal(rows.length, 4);
    for (const row of rows) {
      const eps = episodes[`${row.policy}|${row.task}`]!;
      assert.equal(eps.length, 5);
      const xs = eps.map((e) => e.reward);
      const mean = (xs[0]! + xs[1]! + xs[2]! + xs[3]! + xs[4]!) / 5;
      const variance = xs.map((x) => (x - mean) * (x - mean)).reduce((a, b) => a + b, 0) / 5;
      assert.ok(Math.abs(row.mean - mean) < 1e-12);
      assert.ok(Math.abs(row.std - Math.sqrt(variance)) < 1e-12);
      assert.equal(row.min, Math.min(...xs));
      assert.equal(row.max, Math.max(...xs));
      assert.equal(row.n, 5);
      assert.equal(row.split, 'train');
      assert.equal(row.meanSteps, eps.reduce((a, e) => a + e.steps, 0) / 5);
      assert.equal(row.invalidPerEpisode, eps.reduce((a, e) => a + e.invalidActions, 0) / 5);
    }
    assert.ok(
      rows.some((r) => r.std > 0),
      'rewards vary across seeds',
    );
  });

  test('summarize: population std, empty input', () => {
    assert.deepEqual(summarize([]), { n: 0, mean: 0, std: 0, min: 0, max: 0 });
    const s = summarize([1, 3]);
    assert.equal(s.mean, 2);
    assert.equal(s.std, 1);
  });

  test('episodes are deterministic; the holdout split offsets seeds and uses holdout parameters', () => {
    const p = getPolicy('rule_based_expert');
    const a = runPolicyEpisode(p, { task: 'coalition_market', seed: 3 });
    assert.deepEqual(runPolicyEpisode(p, { task: 'coalition_market', seed: 3 }), a);
    assert.equal(a.invalidActions, 0, 'the expert never plays an invalid action');
    assert.ok(a.rounds >= 8 && a.steps > 0);
    const h = runPolicyEpisode(p, { task: 'coalition_market', seed: 3, holdout: true });
    assert.equal(h.seed, HOLDOUT_SEED_OFFSET + 3);
    assert.equal(h.holdout, true);
  });

  test('an async agent plays like the scripted policy it wraps; a failing agent just waits', async () => {
    const policy = getPolicy('no_negotiation_allocator');
    const calls: number[] = [];
    const agent: SeatAgent = {
      act: async (obs, ctx) => {
        calls.push(ctx.round);
        const acts = policy(obs, { rng: rng(0, obs.round, 'x'), holdout: false });
        const checks = ctx.validate?.(acts) ?? [];
        assert.ok(
          checks.every((c) => c.ok),
          'the dry run accepts the policy’s actions',
        );
        return acts;
      },
    };
    const viaAgent = await runAgentEpisode(agent, { task: 'market_round', seed: 2 });
    const viaPolicy = runPolicyEpisode(policy, { task: 'market_round', seed: 2 });
    assert.equal(viaAgent.reward, viaPolicy.reward);
    assert.deepEqual(calls, [0, 1, 2, 3, 4]);
    const broken: SeatAgent = { act: async () => Promise.reject(new Error('model down')) };
    const r = await runAgentEpisode(broken, { task: 'single_trade', seed: 1 });
    assert.equal(r.steps, 0);
    assert.equal(r.rounds, 3);
  });
});

describe('players', () => {
  afterEach(() => clearAgentFactories());
  test('scripted names, unknown names, and llm:<model> through a registered factory', () => {
    assert.ok(resolvePlayer('selfish').ok);
    const unknown = resolvePlayer('nope');
    assert.ok(!unknown.ok && unknown.code === 'unknown_policy');
    const noFactory = resolvePlayer('llm:m1');
    assert.ok(!noFactory.ok && noFactory.code === 'no_agent_factory');
    registerAgentFactory((d) => (d.kind === 'llm' && d.model === 'm1' ? { act: async () => [] } : null));
    const r = resolvePlayer('llm:m1');
    assert.ok(r.ok && r.player.kind === 'agent');
    assert.ok(!resolvePlayer('llm:m2').ok);
  });
});

describe('helpers', () => {
  test('parseSeeds reads ranges and lists and rejects garbage', () => {
    assert.deepEqual(parseSeeds('0-3'), { ok: true, seeds: [0, 1, 2, 3] });
    assert.deepEqual(parseSeeds('5, 1,2-3,2'), { ok: true, seeds: [1, 2, 3, 5] });
    for (const bad of ['', 'a', '3-1', '-1', '0-200000']) assert.equal(parseSeeds(bad).ok, false, bad);
  });

  test('every generated job is feasible through trades', () => {
    for (const task of ['single_trade', 'market_round', 'coalition_market'] as const) {
      const f = feasibility(task, [0, 1, 2, 3, 4, 5]);
      assert.equal(f.marketShare, 1);
      assert.ok(f.ownShare > 0 && f.ownShare <= 1);
    }
  });

  test('renderTable aligns columns', () => {
    const t = renderTable(
      ['name', 'x'],
      [
        ['a', 1.5],
        ['long name', 10],
      ],
    ).split('\n');
    assert.equal(t.length, 4);
    assert.equal(new Set(t.map((l) => l.length)).size <= 2, true);
    assert.ok(t[2]!.endsWith('1.5000') && t[3]!.endsWith('    10'));
  });
});
