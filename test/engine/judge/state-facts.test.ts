/**
 * The judge's two fact sources agree: StateFacts (src/engine/judge/state-facts.ts, lookups straight on the
 * state) answers every question as the built SeatFacts (src/engine/judge/facts.ts) does, and claim checking
 * over either gives the same verification — on the hand-built fixture and on played coalition matches.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyAction, closeRound, createMatch } from '../../../src/engine/index.js';
import { defaultOpponents } from '../../../src/engine/gym.js';
import type { MatchState } from '../../../src/engine/types.js';
import type { Claim } from '../../../src/engine/judge/claims.js';
import { seatFacts } from '../../../src/engine/judge/facts.js';
import { StateFacts } from '../../../src/engine/judge/state-facts.js';
import { checkClaims, verifyClaims } from '../../../src/engine/judge/verify.js';
import { makeState } from './fixtures.js';

function deepFreeze<T>(x: T): T {
  if (x && typeof x === 'object' && !Object.isFrozen(x)) {
    Object.freeze(x);
    for (const v of Object.values(x)) deepFreeze(v);
  }
  return x;
}

/** Every round of a coalition match against the gym's default opponents (they trade, pitch, ally), frozen. */
function played(seed: number): MatchState[] {
  const out: MatchState[] = [];
  let s = createMatch({
    task: 'coalition_market',
    seed,
    scripted: defaultOpponents('coalition_market', seed, 'lab_0'),
  });
  while (!s.over) {
    const job = Object.values(s.jobs).find((j) => j.owner === 'lab_0' && j.outcome === 'pending');
    if (job)
      s = applyAction(s, 'lab_0', {
        action_type: 'make_pitch',
        message: `${job.id} needs capacity.`,
        job_ids: [job.id],
      }).state;
    out.push(deepFreeze(s));
    s = closeRound(s).state;
  }
  return out;
}

/** Every id of the state, plus unknown ids and prototype keys. */
function ids(s: MatchState): string[] {
  const all = [
    ...Object.keys(s.jobs),
    ...Object.keys(s.offers),
    ...Object.keys(s.coalitions),
    ...Object.keys(s.blocks),
  ];
  for (const c of Object.values(s.coalitions)) for (const m in c.commitments) all.push(...c.commitments[m]!.blockIds);
  return [...all, 'j_0_99', 'o_999', 'c_99', 'b_9_9', 'constructor', '__proto__', 'toString'];
}

/** Claims about every value of the state (true, near, capacity and made-up ones). */
function claimsAbout(s: MatchState): Claim[] {
  const claims: Claim[] = [];
  const hours = new Set<number>([640, 0.5]);
  const rels = new Set<number>([0.99, 0.5]);
  for (const j of Object.values(s.jobs)) {
    hours.add(j.gpuHoursRequired).add(j.gpuHoursRequired - j.allocatedHours);
    rels.add(j.minReliability);
    claims.push(
      { kind: 'deadline', round: j.deadlineRound, explicit: false },
      { kind: 'deadline', round: j.deadlineRound + 1, explicit: true },
    );
  }
  for (const b of Object.values(s.blocks)) {
    hours.add(b.gpuHours);
    rels.add(b.reliability);
  }
  for (const v of hours)
    claims.push({ kind: 'hours', value: v, capacity: false }, { kind: 'hours', value: v + 0.004, capacity: true });
  for (const v of rels) claims.push({ kind: 'reliability', value: v, capacity: true });
  for (let r = 0; r < 4; r++)
    claims.push({ kind: 'deadline_in', rounds: r }, { kind: 'deadline', round: r + 5, explicit: false });
  return claims;
}

function agree(s: MatchState): void {
  for (const lab of [...s.labIds, 'lab_9']) {
    const built = seatFacts(s, lab);
    const direct = new StateFacts(s, lab);
    assert.deepEqual(direct.pending(), built.pending, lab);
    for (const id of ids(s)) {
      assert.equal(direct.ownsJob(id), built.ownJobIds.has(id), `${lab} ownsJob ${id}`);
      assert.deepEqual(
        direct.pendingJob(id),
        built.pending.find((j) => j.id === id),
        `${lab} pendingJob ${id}`,
      );
      assert.equal(direct.hasOffer(id), built.offerIds.has(id), `${lab} hasOffer ${id}`);
      assert.equal(direct.hasCoalition(id), built.coalitionIds.has(id), `${lab} hasCoalition ${id}`);
      assert.equal(direct.isRelatedBlock(id), built.relatedBlockIds.has(id), `${lab} isRelatedBlock ${id}`);
      assert.equal(direct.isMarketBlock(id), built.marketBlockIds.has(id), `${lab} isMarketBlock ${id}`);
    }
    for (const h of [...built.capacityHours, 640])
      assert.equal(
        direct.someCapacityHours((x) => x === h),
        built.capacityHours.includes(h),
        `${lab} hours ${h}`,
      );
    for (const r of [...built.capacityReliabilities, 0.01]) {
      assert.equal(
        direct.someCapacityReliability((x) => x === r),
        built.capacityReliabilities.includes(r),
        `${lab} rel ${r}`,
      );
    }
    const claims = claimsAbout(s);
    for (const id of ids(s))
      claims.push({
        kind: id.startsWith('o_') ? 'offer' : id.startsWith('c_') ? 'coalition' : id.startsWith('b_') ? 'block' : 'job',
        id,
      });
    const named = Object.keys(s.jobs).filter((id) => s.jobs[id]!.owner === lab);
    // Claims one at a time (each verdict) and all together (distinct counts, argued jobs).
    for (const c of claims)
      assert.deepEqual(checkClaims(direct, [c], []), verifyClaims(built, [c], []), `${lab} ${JSON.stringify(c)}`);
    for (const jobIds of [[], named, named.slice(0, 1)])
      assert.deepEqual(checkClaims(direct, claims, jobIds), verifyClaims(built, claims, jobIds), lab);
  }
}

describe('StateFacts', () => {
  test('answers as seatFacts on the fixture', () => agree(deepFreeze(makeState())));
  test('answers as seatFacts on played coalition matches (offers, coalitions, settled jobs)', () => {
    let offers = 0;
    let coalitions = 0;
    for (const seed of [3, 9, 10]) {
      for (const s of played(seed)) {
        offers += Object.keys(s.offers).length;
        coalitions += Object.keys(s.coalitions).length;
        agree(s);
      }
    }
    assert.ok(offers > 0 && coalitions > 0, 'the played states have offers and coalitions');
  });
});
