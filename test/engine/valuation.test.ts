/**
 * valuation.ts against a plain reference of its rules (the straightforward version it replaced:
 * filter, sort, Set of taken ids): positionParts, positionValue, positionValueAfter and tradeGain agree
 * bit for bit on generated positions, including odd ones (settled jobs, unusable blocks, repeated block
 * ids) and long lists (64 items or more, which valuation.ts sorts with Array.prototype.sort).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Job } from '../../src/engine/types.js';
import {
  type PositionParts,
  type ValuedBlock,
  SPARE_HOUR_VALUE,
  jobValue,
  positionParts,
  positionValue,
  positionValueAfter,
  tradeGain,
} from '../../src/engine/valuation.js';

function reference(jobs: readonly Job[], blocks: readonly ValuedBlock[], budget: number): PositionParts {
  const free = blocks
    .filter((b) => b.status === 'available' || b.status === 'reserved')
    .sort((a, b) => b.gpuHours - a.gpuHours || (a.id < b.id ? -1 : 1));
  const taken = new Set<string>();
  const pending = jobs
    .filter((j) => j.outcome === 'pending')
    .sort((a, b) => a.deadlineRound - b.deadlineRound || jobValue(b) - jobValue(a) || (a.id < b.id ? -1 : 1));
  const byJob: Record<string, number> = {};
  let value = 0;
  for (const job of pending) {
    const need = job.gpuHoursRequired - job.allocatedHours;
    let v = 0;
    if (need <= 0) v = jobValue(job);
    else {
      let got = 0;
      const chosen: string[] = [];
      for (const b of free) {
        if (got >= need) break;
        if (taken.has(b.id) || b.reliability < job.minReliability) continue;
        got += b.gpuHours;
        chosen.push(b.id);
      }
      if (got >= need || (job.partialCreditAllowed && got > 0)) {
        v = got >= need ? jobValue(job) : (jobValue(job) * (job.allocatedHours + got)) / job.gpuHoursRequired;
        for (const id of chosen) taken.add(id);
      } else if (job.partialCreditAllowed) v = (jobValue(job) * job.allocatedHours) / job.gpuHoursRequired;
    }
    byJob[job.id] = v;
    value += v;
  }
  let spare = 0;
  for (const b of free) if (!taken.has(b.id)) spare += b.gpuHours * b.reliability;
  return { total: value + SPARE_HOUR_VALUE * spare + budget, byJob };
}

const block: fc.Arbitrary<ValuedBlock> = fc.record({
  id: fc.constantFrom('b_0_0', 'b_0_1', 'b_0_2', 'b_1_0', 'b_s2_0', 'b_1_3'),
  gpuHours: fc.constantFrom(1, 2, 3, 4, 6, 8, 12),
  reliability: fc.integer({ min: 60, max: 99 }).map((r) => r / 100),
  status: fc.constantFrom('available', 'reserved', 'committed', 'used', 'failed'),
});
const job: fc.Arbitrary<Job> = fc
  .record({
    id: fc.constantFrom('j_0_0', 'j_0_1', 'j_0_2', 'j_0_surge_3'),
    gpuHoursRequired: fc.constantFrom(2, 3, 4, 6, 8),
    allocatedHours: fc.constantFrom(0, 0, 1, 2, 4, 8),
    deadlineRound: fc.integer({ min: 0, max: 6 }),
    baseValue: fc.integer({ min: 3000, max: 9500 }).map((v) => v / 100),
    urgencyMultiplier: fc.integer({ min: 100, max: 190 }).map((v) => v / 100),
    minReliability: fc.integer({ min: 70, max: 90 }).map((v) => v / 100),
    partialCreditAllowed: fc.boolean(),
    outcome: fc.constantFrom('pending', 'pending', 'pending', 'completed', 'missed'),
  })
  .map(
    (j) =>
      ({
        ...j,
        owner: 'lab_0',
        allocatedBlockIds: [],
        energyCost: 0,
        realisedValue: null,
        surge: false,
        shockAffected: false,
      }) as Job,
  );

describe('valuation', () => {
  test('positionParts, positionValue, positionValueAfter and tradeGain match the reference bit for bit', () => {
    fc.assert(
      fc.property(
        fc.array(job, { maxLength: 5 }),
        fc.array(block, { maxLength: 8 }),
        fc.integer({ min: 0, max: 20000 }).map((b) => b / 100),
        fc.array(fc.constantFrom<string>('b_0_0', 'b_0_1', 'b_1_0', 'b_9_9'), { maxLength: 3 }),
        fc.array(block, { maxLength: 3 }),
        fc.integer({ min: -3000, max: 3000 }).map((p) => p / 100),
        (jobs, blocks, budget, give, receive, pay) => {
          const ref = reference(jobs, blocks, budget);
          assert.deepEqual(positionParts(jobs, blocks, budget, false), ref);
          assert.ok(Object.is(positionValue(jobs, blocks, budget, false), ref.total));
          const after = [
            ...blocks.filter((b) => !give.includes(b.id)),
            ...receive.map((b) => ({ ...b, status: 'available' as const })),
          ];
          assert.ok(
            Object.is(
              tradeGain(jobs, blocks, budget, give, receive, pay, false),
              reference(jobs, after, budget + pay).total - ref.total,
            ),
          );
          assert.ok(
            Object.is(
              positionValueAfter(jobs, blocks, budget, give, receive, false),
              reference(jobs, after, budget).total,
            ),
          );
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('long lists of jobs and blocks match the reference bit for bit', () => {
    fc.assert(
      fc.property(
        fc.array(job, { minLength: 40, maxLength: 70 }),
        fc.array(block, { minLength: 60, maxLength: 80 }),
        fc.integer({ min: 0, max: 20000 }).map((b) => b / 100),
        (jobs, blocks, budget) => {
          const ref = reference(jobs, blocks, budget);
          assert.deepEqual(positionParts(jobs, blocks, budget, false), ref);
          assert.ok(Object.is(positionValue(jobs, blocks, budget, false), ref.total));
        },
      ),
      { numRuns: 300 },
    );
  });
});
