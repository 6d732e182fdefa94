/**
 * Scripted policies under rules v3 (docs/RULES.md §7): they value asks, name their price with a
 * counter-offer (haggle within their archetype) and bid in emergency auctions by their valuation.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getPolicy } from '../../src/engine/policies/index.js';
import type { ActionInput, Observation, PolicyName } from '../../src/engine/index.js';
import { block, ctx, job, observation, offer } from './policy-fixtures.js';

const run = (name: PolicyName, obs: Observation) => getPolicy(name)(obs, ctx());
const find = <T extends ActionInput['action_type']>(as: ActionInput[], t: T) =>
  as.find((a) => a.action_type === t) as Extract<ActionInput, { action_type: T }> | undefined;

/** lab_1 needs 4 GPU-hours for a job due next round; lab_0 sells exactly such a block for `ask` credits. */
const selling = (ask: number, me = 'lab_1') =>
  observation({
    me,
    jobs: [job('j_1_0', 'lab_1', 4, 1, { baseValue: 60, urgencyMultiplier: 1.5 })],
    blocks: [block('b_0_0', 'lab_0', 4), block('b_1_0', 'lab_1', 1)],
    offers: [offer('o_1', 'lab_0', 'lab_1', { offeredBlockIds: ['b_0_0'], ask })],
  });

describe('asks', () => {
  test('a fair ask is accepted; an ask the seat cannot pay is not', () => {
    for (const name of ['cooperative', 'selfish', 'rule_based_expert', 'always_accept'] as const) {
      assert.deepEqual(
        find(run(name, selling(20)), 'accept_offer'),
        { action_type: 'accept_offer', offer_id: 'o_1' },
        name,
      );
      assert.equal(
        find(run(name, { ...selling(20), self: { ...selling(20).self, budget: 10 } }), 'accept_offer'),
        undefined,
        name,
      );
    }
  });
  test('an ask above what the block is worth to it is not accepted; the archetype counters at its own price', () => {
    const obs = selling(95);
    assert.equal(find(run('rule_based_expert', obs), 'accept_offer'), undefined);
    const counter = find(run('deadline_panicked', obs), 'counter_offer');
    assert.ok(counter && counter.offer_id === 'o_1', 'a counter-offer');
    assert.deepEqual([counter.block_ids, counter.requested_block_ids, counter.ask], [[], ['b_0_0'], 0]);
    assert.ok((counter.payment ?? 0) > 0 && (counter.payment ?? 0) < 95, `pays ${counter.payment}`);
  });
  test('greedy_hoarder and accept_only_gifts take no offer that asks credits', () => {
    for (const name of ['greedy_hoarder', 'accept_only_gifts'] as const)
      assert.equal(find(run(name, selling(1)), 'accept_offer'), undefined, name);
  });
});

describe('haggling: the expert names a price for a block asked of it', () => {
  test('an under-paying request for its spare block gets a counter-offer asking more', () => {
    const obs = observation({
      me: 'lab_0',
      blocks: [block('b_0_0', 'lab_0', 4), block('b_1_0', 'lab_1', 1)],
      offers: [offer('o_1', 'lab_1', 'lab_0', { requestedBlockIds: ['b_0_0'], payment: 1 })],
    });
    const counter = find(run('rule_based_expert', obs), 'counter_offer');
    assert.ok(counter, 'a counter-offer');
    assert.deepEqual([counter.offer_id, counter.block_ids, counter.payment], ['o_1', ['b_0_0'], 0]);
    assert.ok((counter.ask ?? 0) > 1, `asks ${counter.ask}`);
    assert.match(counter.message ?? '', /asks \d+\.00 credits for b_0_0/);
  });
});

describe('sealed bids in an emergency auction', () => {
  const withAuction = (obs: Observation, myBid: number | null = null): Observation => ({
    ...obs,
    auction: {
      round: obs.round,
      lot: { id: 'b_s1_0', gpuCount: 4, duration: 1, gpuHours: 4, reliability: 0.95, energyCost: 2 },
      reserve: 8,
      myBid,
    },
  });
  const needy = observation({
    me: 'lab_1',
    jobs: [job('j_1_0', 'lab_1', 4, 2, { baseValue: 60, urgencyMultiplier: 1.5 })],
    blocks: [block('b_1_0', 'lab_1', 1)],
  });
  test('a seat that needs the lot bids a share of its value, once; one that does not need it bids little or nothing', () => {
    const expert = find(run('rule_based_expert', withAuction(needy)), 'bid');
    const selfish = find(run('selfish', withAuction(needy)), 'bid');
    const panicked = find(run('deadline_panicked', withAuction(needy)), 'bid');
    assert.ok(expert && selfish && panicked, 'all bid');
    assert.ok(expert.amount >= 8 && expert.amount <= 100, `expert bids ${expert.amount}`);
    assert.ok(selfish.amount < panicked.amount, `selfish ${selfish.amount} < panicked ${panicked.amount}`);
    assert.equal(find(run('rule_based_expert', withAuction(needy, 30)), 'bid'), undefined, 'no second bid');
    assert.equal(find(run('rule_based_expert', needy), 'bid'), undefined, 'no auction, no bid');
    const idle = observation({ me: 'lab_1', blocks: [block('b_1_0', 'lab_1', 1)] });
    assert.equal(
      find(run('rule_based_expert', withAuction(idle)), 'bid'),
      undefined,
      'spare value alone is below the reserve',
    );
  });
});
