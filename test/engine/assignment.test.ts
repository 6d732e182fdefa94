/**
 * The best assignment (rules v4, docs/RULES.md §3.2; src/engine/assignment.ts): a position's value is the
 * most any assignment of its usable blocks to its pending jobs earns (jobs × credit + spare resale value),
 * checked against brute force over every assignment of small random positions; it is never below the
 * greedy value of rules v3, and the case that motivated it (a trade that completes a job, valued as a loss
 * by the greedy assignment) is now a gain.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Job } from '../../src/engine/types.js';
import {
  type ValuedBlock,
  SPARE_HOUR_VALUE,
  jobValue,
  positionParts,
  positionValue,
  tradeGain,
} from '../../src/engine/valuation.js';

/** Every assignment of the usable blocks (each to a job it qualifies for, or spare): the best value. */
function bruteForce(jobs: readonly Job[], blocks: readonly ValuedBlock[], budget: number): number {
  const free = blocks.filter((b) => b.status === 'available' || b.status === 'reserved');
  const pending = jobs.filter((j) => j.outcome === 'pending');
  const got = pending.map(() => 0);
  let best = -Infinity;
  const walk = (k: number, spare: number): void => {
    if (k === free.length) {
      let v = spare;
      pending.forEach((j, p) => {
        const need = j.gpuHoursRequired - j.allocatedHours;
        const credit =
          got[p]! >= need ? 1 : j.partialCreditAllowed ? (j.allocatedHours + got[p]!) / j.gpuHoursRequired : 0;
        v += jobValue(j) * credit;
      });
      best = Math.max(best, v);
      return;
    }
    const b = free[k]!;
    walk(k + 1, spare + SPARE_HOUR_VALUE * b.gpuHours * b.reliability);
    pending.forEach((j, p) => {
      if (b.reliability < j.minReliability) return;
      got[p]! += b.gpuHours;
      walk(k + 1, spare);
      got[p]! -= b.gpuHours;
    });
  };
  walk(0, 0);
  return best + budget;
}

let n = 0;
const block: fc.Arbitrary<ValuedBlock> = fc
  .record({
    gpuHours: fc.constantFrom(1, 2, 3, 4, 6, 8, 12),
    reliability: fc.integer({ min: 60, max: 99 }).map((r) => r / 100),
    status: fc.constantFrom<ValuedBlock['status']>('available', 'available', 'reserved', 'committed', 'used'),
  })
  .map((b) => ({ ...b, id: `b_0_${n++}` }));
const job: fc.Arbitrary<Job> = fc
  .record({
    gpuHoursRequired: fc.constantFrom(2, 3, 4, 6, 8),
    allocatedHours: fc.constantFrom(0, 0, 0, 1, 2, 4),
    deadlineRound: fc.integer({ min: 0, max: 6 }),
    baseValue: fc.integer({ min: 3000, max: 9500 }).map((v) => v / 100),
    urgencyMultiplier: fc.integer({ min: 100, max: 190 }).map((v) => v / 100),
    minReliability: fc.integer({ min: 60, max: 95 }).map((r) => r / 100),
    partialCreditAllowed: fc.boolean(),
    outcome: fc.constantFrom<Job['outcome']>('pending', 'pending', 'pending', 'completed'),
  })
  .map(
    (j) =>
      ({
        ...j,
        id: `j_0_${n++}`,
        owner: 'lab_0',
        allocatedBlockIds: [],
        energyCost: 0,
        realisedValue: null,
        surge: false,
        shockAffected: false,
      }) as Job,
  );

describe('best assignment (rules v4)', () => {
  test('equals brute force over every assignment of small positions, and is never below the greedy value', () => {
    let better = 0;
    fc.assert(
      fc.property(
        fc.array(job, { maxLength: 4 }),
        fc.array(block, { maxLength: 7 }),
        fc.integer({ min: 0, max: 20000 }).map((b) => b / 100),
        (jobs, blocks, budget) => {
          const exact = positionValue(jobs, blocks, budget, true);
          const greedy = positionValue(jobs, blocks, budget, false);
          assert.ok(
            Math.abs(exact - bruteForce(jobs, blocks, budget)) < 1e-6,
            `exact ${exact} vs brute force ${bruteForce(jobs, blocks, budget)}`,
          );
          assert.ok(exact >= greedy - 1e-9, `exact ${exact} below greedy ${greedy}`);
          if (exact > greedy + 1e-6) better++;
          // The per-job parts are the best assignment's: they and the spare value make up the total.
          const parts = positionParts(jobs, blocks, budget, true);
          assert.ok(Math.abs(parts.total - exact) < 1e-9);
          for (const j of jobs.filter((x) => x.outcome === 'pending'))
            assert.ok(parts.byJob[j.id]! <= jobValue(j) + 1e-9);
        },
      ),
      { numRuns: 4000, seed: 7 },
    );
    assert.ok(
      better > 100,
      `the greedy assignment was beaten in only ${better} positions: the test would not see a regression`,
    );
  });

  test('a trade that lets a job complete is a gain, where the greedy assignment called it a loss', () => {
    const j = (id: string, hours: number, deadline: number, value: number, minRel: number, partial: boolean): Job =>
      ({
        id,
        owner: 'lab_0',
        gpuHoursRequired: hours,
        deadlineRound: deadline,
        baseValue: value,
        urgencyMultiplier: 1,
        minReliability: minRel,
        partialCreditAllowed: partial,
        allocatedHours: 0,
        allocatedBlockIds: [],
        energyCost: 0,
        outcome: 'pending',
        realisedValue: null,
        surge: false,
        shockAffected: false,
      }) as Job;
    const b = (id: string, gpuHours: number, reliability: number): ValuedBlock => ({
      id,
      gpuHours,
      reliability,
      status: 'available',
    });
    // coalition_market seed 73243, Lab A: swapping b_0_3 (2 GPU-h @0.81) for b_2_0 (1 GPU-h @0.92) lets j_0_0
    // (6 GPU-h, min rel 0.84, worth 136.5) run on 3 + 2 + 1 GPU-h, keeping the 8-h block for j_0_2. Greedy
    // gave the 8-h block to j_0_0 first and read the swap as 17.78 credits lost.
    const jobs = [
      j('j_0_0', 6, 2, 136.5, 0.84, true),
      j('j_0_1', 4, 4, 69.3, 0.82, false),
      j('j_0_2', 8, 6, 142.3, 0.73, true),
    ];
    const mine = [b('b_0_0', 8, 0.88), b('b_0_1', 3, 0.86), b('b_0_2', 2, 0.89), b('b_0_3', 2, 0.81)];
    const bought = b('b_2_0', 1, 0.92);
    const greedyGain = tradeGain(jobs, mine, 100, ['b_0_3'], [bought], 0, false);
    const exactGain = tradeGain(jobs, mine, 100, ['b_0_3'], [bought], 0, true);
    assert.ok(greedyGain < -17 && exactGain > 17, `greedy ${greedyGain}, best ${exactGain}`);
  });
});
