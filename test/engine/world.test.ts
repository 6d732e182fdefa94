/**
 * createMatch, config validation, world generation, feasibility and the shock schedule (docs/RULES.md §0–§1, §5).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createMatch, labIdsFor, MatchConfigSchema, TASK_NAMES, worldParams } from '../../src/engine/index.js';
import type { Block, Job } from '../../src/engine/index.js';
import { makeFeasible, servableByReliability } from '../../src/engine/feasibility.js';
import { assertInvariants, money } from './helpers.js';

describe('config', () => {
  test('defaults and validation', () => {
    const s = createMatch({ task: 'single_trade', seed: 0 });
    assert.deepEqual(s.config, {
      task: 'single_trade',
      seed: 0,
      holdout: false,
      scripted: {},
      maxActionsPerRound: 12,
      rules: 4,
    });
    // A v3 config (replay of stored matches) keeps its exact v3 form: no rules key.
    assert.deepEqual(createMatch({ task: 'single_trade', seed: 0, rules: 3 }).config, {
      task: 'single_trade',
      seed: 0,
      holdout: false,
      scripted: {},
      maxActionsPerRound: 12,
    });
    const bad: unknown[] = [
      { task: 'nope', seed: 1 },
      { task: 'single_trade', seed: -1 },
      { task: 'single_trade', seed: 1.5 },
      { task: 'single_trade', seed: 1, scripted: { lab_5: 'selfish' } },
      { task: 'single_trade', seed: 1, scripted: { lab_1: 'villain' } },
      { task: 'single_trade', seed: 1, maxActionsPerRound: 0 },
      { task: 'single_trade', seed: 1, rules: 2 },
    ];
    for (const b of bad) assert.throws(() => createMatch(b as never), { name: 'ZodError' });
    assert.equal(
      MatchConfigSchema.safeParse({ task: 'market_round', seed: 3, scripted: { lab_2: 'selfish' } }).success,
      true,
    );
  });
  test('scripted seats are stored in seat order', () => {
    const s = createMatch({ task: 'market_round', seed: 2, scripted: { lab_2: 'selfish', lab_1: 'cooperative' } });
    assert.deepEqual(Object.keys(s.config.scripted), ['lab_1', 'lab_2']);
  });
});

describe('world generation', () => {
  test('sizes, ids and ranges per task (§1)', () => {
    for (const task of TASK_NAMES) {
      for (let seed = 0; seed < 40; seed++) {
        const s = createMatch({ task, seed });
        const p = worldParams(task, seed);
        assert.deepEqual(s.params, p);
        assert.deepEqual(s.labIds, labIdsFor(task, seed));
        assert.equal(s.labIds.length, p.labCount);
        assert.equal(Object.keys(s.blocks).length, p.labCount * p.blocksPerLab);
        assert.equal(Object.keys(s.jobs).length, p.labCount * p.jobsPerLab);
        s.labIds.forEach((lab, i) => {
          const l = s.labs[lab]!;
          assert.equal(l.publicName, `Lab ${'ABCDE'[i]}`);
          assert.ok(l.budget >= 70 && l.budget <= 130 && l.reputation >= 0.35 && l.reputation <= 0.85);
        });
        for (const b of Object.values(s.blocks)) {
          assert.match(b.id, /^b_\d_\d$/);
          assert.ok([1, 2, 4].includes(b.gpuCount) && [1, 2, 3].includes(b.duration));
          assert.equal(b.gpuHours, b.gpuCount * b.duration);
          assert.ok(b.reliability >= 0.72 && b.reliability <= 0.99 && b.energyCost >= 1.5 && b.energyCost <= 6);
        }
        const minDeadline = task === 'coalition_market' ? 2 : 1;
        for (const j of Object.values(s.jobs)) {
          assert.ok([2, 3, 4, 6, 8].includes(j.gpuHoursRequired));
          assert.ok(
            j.deadlineRound >= minDeadline && j.deadlineRound <= p.maxRounds - 1,
            `${j.id} deadline ${j.deadlineRound}`,
          );
          assert.ok(j.baseValue >= 30 && j.baseValue <= 95 && j.urgencyMultiplier >= 1 && j.urgencyMultiplier <= 1.8);
        }
        assert.equal(s.ledger.initialMoney, Math.round(money(s) * 100) / 100);
        assertInvariants(s);
      }
    }
  });
  test('coalition_market seats 4 or 5 labs and 8–10 rounds, both seeded', () => {
    const labs = new Set<number>();
    const rounds = new Set<number>();
    for (let seed = 0; seed < 60; seed++) {
      const p = worldParams('coalition_market', seed);
      labs.add(p.labCount);
      rounds.add(p.maxRounds);
    }
    assert.deepEqual([...labs].sort(), [4, 5]);
    assert.deepEqual([...rounds].sort(), [10, 8, 9].sort());
    assert.equal(worldParams('single_trade', 5).maxRounds, 3);
    assert.equal(worldParams('market_round', 5).labCount, 3);
  });
  test('every generated job is feasible from the market (§1 guarantee)', () => {
    for (const task of TASK_NAMES) {
      for (let seed = 0; seed < 300; seed++) {
        const s = createMatch({ task, seed });
        const blocks = Object.values(s.blocks);
        for (const j of Object.values(s.jobs)) {
          const hours = blocks.filter((b) => b.reliability >= j.minReliability).reduce((a, b) => a + b.gpuHours, 0);
          assert.ok(hours >= j.gpuHoursRequired, `${task}/${seed} ${j.id}: ${hours} < ${j.gpuHoursRequired}`);
        }
      }
    }
  });
  test('shock schedule: easy none; medium one at round 2 or 3; hard three distinct rounds and kinds in [1, rounds − 2]', () => {
    const kinds = new Set<string>();
    for (let seed = 0; seed < 100; seed++) {
      assert.deepEqual(createMatch({ task: 'single_trade', seed }).shockSchedule, []);
      const m = createMatch({ task: 'market_round', seed }).shockSchedule;
      assert.equal(m.length, 1);
      assert.ok([2, 3].includes(m[0]!.round));
      kinds.add(m[0]!.kind);
      const h = createMatch({ task: 'coalition_market', seed });
      const sh = h.shockSchedule;
      assert.equal(sh.length, 3);
      assert.equal(new Set(sh.map((x) => x.round)).size, 3);
      assert.equal(new Set(sh.map((x) => x.kind)).size, 3);
      for (const x of sh) assert.ok(x.round >= 1 && x.round <= h.params.maxRounds - 2);
      assert.deepEqual(
        sh.map((x) => x.round),
        [...sh.map((x) => x.round)].sort((a, b) => a - b),
      );
    }
    assert.equal(kinds.size, 7);
  });
});

describe('makeFeasible', () => {
  const block = (id: string, gpuHours: number, reliability: number): Block => ({
    id,
    owner: 'lab_0',
    gpuCount: gpuHours,
    duration: 1,
    gpuHours,
    reliability,
    energyCost: 2,
    status: 'available',
    reservedFor: null,
    committedTo: null,
    usedFor: null,
  });
  const job = (gpuHoursRequired: number, minReliability: number): Job => ({
    id: 'j',
    owner: 'lab_0',
    gpuHoursRequired,
    deadlineRound: 1,
    baseValue: 50,
    urgencyMultiplier: 1,
    minReliability,
    partialCreditAllowed: false,
    allocatedHours: 0,
    allocatedBlockIds: [],
    energyCost: 0,
    outcome: 'pending',
    realisedValue: null,
    surge: false,
    shockAffected: false,
  });
  const market = servableByReliability([
    block('a', 2, 0.95),
    block('b', 2, 0.8),
    block('c', 4, 0.75),
    { ...block('d', 8, 0.99), status: 'used' },
  ]);
  test('unchanged when feasible', () => {
    const j = job(4, 0.8);
    assert.equal(makeFeasible(j, market), j);
  });
  test('lowers the minimum reliability to where the best blocks cover the hours', () => {
    assert.equal(makeFeasible(job(6, 0.9), market).minReliability, 0.75);
    assert.equal(makeFeasible(job(4, 0.9), market).minReliability, 0.8);
  });
  test('lowers the hours to what the market has (used blocks do not count)', () => {
    const j = makeFeasible(job(8, 0.9), market);
    assert.deepEqual([j.gpuHoursRequired, j.minReliability], [8, 0.75]);
    const small = servableByReliability([block('a', 2, 0.9), block('b', 1, 0.9)]);
    assert.equal(makeFeasible(job(8, 0.7), small).gpuHoursRequired, 3);
  });
});
