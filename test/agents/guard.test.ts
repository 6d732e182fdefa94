/**
 * The self-harm guard of LLM seats (src/agents/guard.ts) on real worlds: giveaways are refused, trades at a
 * block's worth to the seat are not; the haggler's prices (what test/emulators/haggler.ts pays) are never
 * refused, over many worlds (fast-check); more money in never turns an allowed trade into a refused one. The
 * values the tests use come from the engine's own valuation (`tradeGain`), never hard-coded.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { GUARD_CODE, guardAction } from '../../src/agents/guard.js';
import { dryRunActions } from '../../src/agents/dry-run.js';
import { compactObservation } from '../../src/agents/prompts.js';
import {
  applyAction,
  createMatch,
  observe,
  tradeGain,
  type MatchState,
  type Observation,
} from '../../src/engine/index.js';
import { priceOf } from '../emulators/haggler.js';

const SEAT = 'lab_1';
const world = (seed: number): MatchState => createMatch({ task: 'market_round', seed, scripted: {} });
const live = (obs: Observation) => obs.self.blocks.filter((b) => b.status === 'available' || b.status === 'reserved');
/** What giving `ids` away is worth to the seat by the engine's valuation (credits). */
const worth = (obs: Observation, ids: string[]) =>
  -tradeGain(obs.self.jobs, obs.self.blocks, obs.self.budget, ids, [], 0, (obs.rules ?? 3) >= 4);
const offer = (to: string, give: string[], want: string[], money: { payment?: number; ask?: number } = {}) => ({
  action_type: 'send_offer',
  target_lab_id: to,
  block_ids: give,
  requested_block_ids: want,
  payment: money.payment ?? 0,
  ask: money.ask ?? 0,
});
const spare = (b: { gpuHours: number; reliability: number }) => 1.5 * b.gpuHours * b.reliability;

describe('the self-harm guard', () => {
  test('a block for nothing (or 1 credit) is refused; the same block for what it is worth to the seat is not', () => {
    let checked = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const obs = observe(world(seed), SEAT);
      for (const b of live(obs)) {
        const value = worth(obs, [b.id]);
        if (value < 5) continue;
        checked++;
        assert.equal(
          guardAction(obs, offer('lab_0', [b.id], []))?.code,
          GUARD_CODE,
          `seed ${seed}: ${b.id} (worth ${value.toFixed(2)}) for nothing`,
        );
        assert.equal(
          guardAction(obs, offer('lab_0', [b.id], [], { ask: 1 }))?.code,
          GUARD_CODE,
          `seed ${seed}: ${b.id} for 1 credit`,
        );
        assert.equal(
          guardAction(obs, offer('lab_0', [b.id], [], { ask: Math.ceil(value) })),
          null,
          `seed ${seed}: ${b.id} for its worth`,
        );
      }
    }
    assert.ok(checked > 20, `blocks checked: ${checked}`);
  });

  test('credits for nothing, or for a block none of its jobs can use beyond its spare hours, are refused', () => {
    const obs = observe(world(3), SEAT);
    assert.equal(guardAction(obs, offer('lab_0', [], [], { payment: 20 }))?.code, GUARD_CODE, 'a gift of 20 credits');
    let found = 0;
    for (let seed = 1; seed <= 60 && found < 3; seed++) {
      const o = observe(world(seed), SEAT);
      const minNeed = Math.min(...o.self.jobs.map((j) => j.minReliability));
      const useless = o.blocks.find((b) => b.owner !== SEAT && b.reliability < minNeed);
      if (!useless) continue;
      found++;
      assert.equal(
        guardAction(o, offer(useless.owner, [], [useless.id], { payment: Math.ceil(3 * spare(useless)) + 2 }))?.code,
        GUARD_CODE,
        `seed ${seed}: ${useless.id} no job can use`,
      );
      assert.equal(
        guardAction(o, offer(useless.owner, [], [useless.id], { payment: Math.floor(spare(useless)) })),
        null,
        `seed ${seed}: ${useless.id} at its spare value`,
      );
    }
    assert.ok(found > 0, 'a world with a block none of the seat’s jobs can use');
  });

  test('accepting an offer that takes its blocks for nothing is refused; a gift is accepted', () => {
    const s = world(4);
    const theirs = live(observe(s, SEAT)).map((b) => b.id);
    const mine = observe(s, 'lab_0').self.blocks[0]!.id;
    let st = applyAction(s, 'lab_0', offer(SEAT, [], theirs)).state;
    st = applyAction(st, 'lab_0', offer(SEAT, [mine], [])).state;
    const obs = observe(st, SEAT);
    const [take, gift] = obs.offers.filter((o) => o.to === SEAT);
    assert.equal(guardAction(obs, { action_type: 'accept_offer', offer_id: take!.id })?.code, GUARD_CODE);
    assert.equal(guardAction(obs, { action_type: 'accept_offer', offer_id: gift!.id }), null);
  });

  test('a bid far above what the lot is worth is refused, one at its worth is not', () => {
    const obs = observe(world(3), SEAT);
    const minNeed = Math.min(...obs.self.jobs.map((j) => j.minReliability));
    const lot = {
      id: 'b_lot',
      gpuCount: 1,
      duration: 2,
      gpuHours: 2,
      reliability: Math.max(0.1, minNeed - 0.2),
      energyCost: 0.1,
    };
    const withAuction: Observation = { ...obs, auction: { round: obs.round, lot, reserve: 1, myBid: null } };
    assert.equal(guardAction(withAuction, { action_type: 'bid', amount: 60 })?.code, GUARD_CODE);
    assert.equal(guardAction(withAuction, { action_type: 'bid', amount: Math.floor(spare(lot)) }), null);
  });

  test('finishing is refused while its own blocks can still complete a job; allowed when none can', () => {
    const obs = observe(world(4), SEAT);
    const refused = guardAction(obs, { action_type: 'finish' });
    assert.equal(refused?.code, GUARD_CODE);
    assert.match(refused!.message, /allocate to it first/);
    assert.equal(
      guardAction({ ...obs, self: { ...obs.self, blocks: [] } }, { action_type: 'finish' }),
      null,
      'no block: nothing to forfeit',
    );
  });

  test('the dry run applies it after the engine, on the state the earlier actions left (accept a block, then give it away)', () => {
    const s = world(4);
    const mine = observe(s, 'lab_0').self.blocks.find((b) => worth(observe(s, 'lab_0'), [b.id]) >= 0)!;
    const st = applyAction(s, 'lab_0', offer(SEAT, [mine.id], [])).state;
    const gift = observe(st, SEAT).offers.find((o) => o.to === SEAT)!;
    const checks = dryRunActions(st, SEAT, [
      { action_type: 'accept_offer', offer_id: gift.id },
      offer('lab_0', [mine.id, ...live(observe(st, SEAT)).map((b) => b.id)], []),
    ]);
    assert.deepEqual(
      checks.map((c) => c.code),
      ['offer_accepted', GUARD_CODE],
    );
    assert.deepEqual(
      dryRunActions(st, SEAT, [offer('lab_0', [live(observe(st, SEAT))[0]!.id], [])], { guard: false }).map(
        (c) => c.ok,
      ),
      [true],
      'guard: false gives the engine alone',
    );
  });

  test('property: the haggler never gets refused buying a block one of its jobs can use, at up to 1.25 × its price', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.nat(), (seed, k) => {
        const obs = observe(world(seed), SEAT);
        const compact = compactObservation(obs) as unknown as Parameters<typeof priceOf>[0];
        const market = (compact as unknown as { market_blocks: Parameters<typeof priceOf>[1][] }).market_blocks;
        const block = market[k % market.length]!;
        const { price, job } = priceOf(compact, block);
        if (!job || price <= 0) return;
        const pay = Math.min(obs.self.budget, Math.round(price * 1.25 * 100) / 100);
        assert.equal(
          guardAction(obs, offer(block.owner!, [], [block.id], { payment: pay })),
          null,
          `seed ${seed}: ${block.id} for ${pay}`,
        );
      }),
      { numRuns: 300 },
    );
  });

  test('property: more credits in never turns an allowed trade into a refused one', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 400 }),
        fc.nat(),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 1, max: 100 }),
        (seed, k, ask, more) => {
          const obs = observe(world(seed), SEAT);
          const own = live(obs);
          const give = [own[k % own.length]!.id];
          if (guardAction(obs, offer('lab_0', give, [], { ask })) === null)
            assert.equal(guardAction(obs, offer('lab_0', give, [], { ask: ask + more })), null);
          const other = obs.blocks.filter((b) => b.owner !== SEAT);
          const want = [other[k % other.length]!.id];
          if (guardAction(obs, offer('lab_0', [], want, { payment: ask + more })) === null)
            assert.equal(guardAction(obs, offer('lab_0', [], want, { payment: ask })), null);
        },
      ),
      { numRuns: 200 },
    );
  });
});
