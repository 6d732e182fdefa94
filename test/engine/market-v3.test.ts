/**
 * Rules v3 market: selling for credits (`ask`, docs/RULES.md §3.1–3.4), late jobs and supply (§1.1) and
 * sealed-bid emergency auctions (§5.1), with properties (fast-check) for money and budgets.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyAction, closeRound, createMatch, observe, tradeGain } from '../../src/engine/index.js';
import type { MatchState } from '../../src/engine/index.js';
import { arrivalSchedule } from '../../src/engine/arrivals.js';
import { announcedAuction } from '../../src/engine/auction.js';
import { act, assertInvariants, close, edit, fixture, money, must, rejects } from './helpers.js';

describe('ask: selling blocks for credits', () => {
  test('the recipient pays the ask to the sender; both get deal_quality from their own valuation', () => {
    const s0 = fixture();
    let s = must(
      s0,
      'lab_0',
      { action_type: 'send_offer', target_lab_id: 'lab_1', block_ids: ['b_0_2'], ask: 12.345 },
      'offer_created',
    );
    assert.equal(s.offers.o_1!.ask, 12.35);
    assert.equal(s.offers.o_1!.payment, 0);
    const gainTo = tradeGain(
      Object.values(s.jobs).filter((j) => j.owner === 'lab_1'),
      Object.values(s.blocks).filter((b) => b.owner === 'lab_1'),
      100,
      [],
      [s.blocks.b_0_2!],
      -12.35,
      true,
    );
    const out = act(s, 'lab_1', { action_type: 'accept_offer', offer_id: 'o_1' });
    assert.equal(out.result.code, 'offer_accepted');
    s = out.state;
    assert.equal(s.labs.lab_1!.budget, 100 - 12.35);
    assert.equal(s.labs.lab_0!.budget, 100 + 12.35);
    assert.equal(s.blocks.b_0_2!.owner, 'lab_1');
    assert.equal(out.result.reward.deal_quality, Math.round((gainTo / 100) * 10000) / 10000);
    assert.equal(money(s), money(s0));
    assertInvariants(s);
  });
  test('a counter names a price: the original is countered, the new offer asks credits of its sender', () => {
    let s = must(fixture(), 'lab_0', {
      action_type: 'send_offer',
      target_lab_id: 'lab_1',
      requested_block_ids: ['b_1_0'],
      payment: 2,
    });
    s = must(
      s,
      'lab_1',
      {
        action_type: 'counter_offer',
        offer_id: 'o_1',
        block_ids: ['b_1_0'],
        ask: 14,
        message: '14 credits and it is yours',
      },
      'counter_offer_created',
    );
    assert.equal(s.offers.o_1!.status, 'countered');
    assert.deepEqual(
      [s.offers.o_2!.from, s.offers.o_2!.to, s.offers.o_2!.ask, s.offers.o_2!.payment],
      ['lab_1', 'lab_0', 14, 0],
    );
    s = must(s, 'lab_0', { action_type: 'accept_offer', offer_id: 'o_2' }, 'offer_accepted');
    assert.deepEqual([s.labs.lab_0!.budget, s.labs.lab_1!.budget, s.blocks.b_1_0!.owner], [86, 114, 'lab_0']);
  });
  test('bad input is refused with a clear code and changes nothing', () => {
    const s = fixture();
    rejects(
      s,
      'lab_0',
      { action_type: 'send_offer', target_lab_id: 'lab_1', block_ids: ['b_0_2'], ask: -1 },
      'malformed_action',
    );
    rejects(
      s,
      'lab_0',
      { action_type: 'send_offer', target_lab_id: 'lab_1', block_ids: ['b_0_2'], ask: Number.NaN },
      'malformed_action',
    );
    rejects(
      s,
      'lab_0',
      { action_type: 'send_offer', target_lab_id: 'lab_1', block_ids: ['b_0_2'], ask: Infinity },
      'malformed_action',
    );
    const both = rejects(
      s,
      'lab_0',
      { action_type: 'send_offer', target_lab_id: 'lab_1', requested_block_ids: ['b_1_0'], payment: 150, ask: 5 },
      'pay_and_ask',
    );
    assert.match(both.result.message, /not both/);
    rejects(
      s,
      'lab_0',
      { action_type: 'send_offer', target_lab_id: 'lab_1', requested_block_ids: ['b_1_0'], payment: 100.01 },
      'budget_overspend',
    );
    rejects(s, 'lab_0', { action_type: 'send_offer', target_lab_id: 'lab_1' }, 'empty_offer');
    const offered = must(s, 'lab_0', {
      action_type: 'send_offer',
      target_lab_id: 'lab_1',
      requested_block_ids: ['b_1_0'],
      payment: 3,
    });
    rejects(
      offered,
      'lab_1',
      { action_type: 'counter_offer', offer_id: 'o_1', block_ids: ['b_1_0'], payment: 1, ask: 9 },
      'pay_and_ask',
    );
  });
  test('an ask above the accepter’s budget: budget_overspend for the accepter, the offer stays open', () => {
    const s = must(fixture(), 'lab_0', {
      action_type: 'send_offer',
      target_lab_id: 'lab_1',
      block_ids: ['b_0_2'],
      ask: 120,
    });
    const out = rejects(s, 'lab_1', { action_type: 'accept_offer', offer_id: 'o_1' }, 'budget_overspend');
    assert.equal(out.state.offers.o_1!.status, 'active');
  });
});

describe('late jobs and supply (§1.1)', () => {
  test('schedule: none in single_trade, one at rounds − 2 in market_round and coalition_market', () => {
    assert.deepEqual(arrivalSchedule('single_trade', 3), []);
    assert.deepEqual(arrivalSchedule('market_round', 5), [{ round: 3, lastDeadline: 4 }]);
    assert.deepEqual(arrivalSchedule('coalition_market', 9), [{ round: 7, lastDeadline: 8 }]);
  });
  test('revealed privately at their round, feasible, with ⌈labs / 2⌉ new public blocks; deterministic', () => {
    for (const seed of [0, 1, 2, 3]) {
      let s: MatchState = createMatch({ task: 'market_round', seed });
      while (s.round < 2) s = close(s);
      assert.equal(observe(s, 'lab_0').self.jobs.length, 2);
      const before = Object.keys(s.blocks).length;
      const { state, report } = closeRound(s, { judge: null });
      assert.equal(state.round, 3);
      assert.deepEqual(
        report.arrivals!.jobs.map((a) => a.jobId),
        ['j_0_2', 'j_1_2', 'j_2_2'],
      );
      assert.equal(report.arrivals!.blocks.length, 2);
      assert.equal(Object.keys(state.blocks).length, before + 2);
      const late = state.jobs.j_0_2!;
      assert.equal(late.deadlineRound, 4);
      assert.equal(late.outcome, 'pending');
      // Feasible: the servable blocks meeting its minimum reliability cover its hours.
      const servable = Object.values(state.blocks).filter(
        (b) => b.status !== 'used' && b.status !== 'failed' && b.reliability >= late.minReliability,
      );
      assert.ok(servable.reduce((h, b) => h + b.gpuHours, 0) >= late.gpuHoursRequired);
      assert.ok(observe(state, 'lab_0').self.jobs.some((j) => j.id === 'j_0_2'));
      assert.ok(!JSON.stringify(observe(state, 'lab_1').self.jobs).includes('j_0_2'));
      assert.equal(JSON.stringify(closeRound(s, { judge: null }).state), JSON.stringify(state));
      assertInvariants(state);
    }
  });
});

describe('emergency auction announced a round ahead (§5.1)', () => {
  test('the close before an auction round announces its lot; every seat sees it with only its own bid', () => {
    let s = edit(fixture(), (d) => void (d.shockSchedule = [{ round: 1, kind: 'emergency_auction' }]));
    assert.equal(observe(s, 'lab_0').auction, null);
    s = close(s);
    const seen = observe(s, 'lab_1').auction!;
    assert.deepEqual([seen.round, seen.reserve, seen.myBid], [1, 8, null]);
    assert.deepEqual(
      s.auction!.lot,
      announcedAuction(
        edit(s, (d) => void (d.auction = null)),
        1,
      )!.lot,
    );
    s = must(s, 'lab_1', { action_type: 'bid', amount: 20 });
    assert.equal(observe(s, 'lab_1').auction!.myBid, 20);
    assert.equal(observe(s, 'lab_0').auction!.myBid, null);
    const { state, report } = closeRound(s, { judge: null });
    assert.equal(state.blocks[seen.lot.id]!.owner, 'lab_1');
    assert.match(report.shocks[0]!.text, /Lab B won .* 20\.00 credits/);
    assert.equal(state.auction, null);
  });
});

/** Random offers with payments or asks, accepts, bids and closes between three seats of market_round. */
const move = fc.oneof(
  fc.record({
    kind: fc.constant('offer' as const),
    from: fc.nat(2),
    to: fc.nat(2),
    give: fc.nat(7),
    want: fc.nat(7),
    pay: fc.nat(60),
    ask: fc.nat(150),
    sell: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('accept' as const), who: fc.nat(2), which: fc.nat(20) }),
  fc.record({
    kind: fc.constant('bid' as const),
    who: fc.nat(2),
    amount: fc.double({ min: -5, max: 200, noNaN: false }),
  }),
  fc.record({ kind: fc.constant('close' as const) }),
);

describe('property: asks and bids conserve money and never make a budget negative', () => {
  test('1,000 random sequences of offers with asks, accepts, sealed bids and closes', () => {
    fc.assert(
      fc.property(fc.nat(400), fc.array(move, { maxLength: 30 }), (seed, moves) => {
        let s = edit(
          createMatch({ task: 'market_round', seed }),
          (d) => void (d.shockSchedule = [{ round: 1, kind: 'emergency_auction' }]),
        );
        const labs = s.labIds;
        for (const m of moves) {
          if (s.over) break;
          const before = s;
          if (m.kind === 'close') s = closeRound(s, { judge: null }).state;
          else if (m.kind === 'offer') {
            const own = (l: string) =>
              Object.values(s.blocks)
                .filter((b) => b.owner === l && b.status === 'available')
                .map((b) => b.id);
            const from = labs[m.from]!;
            const to = labs[m.to]!;
            const give = own(from).filter((_, i) => (m.give >> i) & 1);
            const want = own(to).filter((_, i) => (m.want >> i) & 1);
            s = applyAction(s, from, {
              action_type: 'send_offer',
              target_lab_id: to,
              block_ids: give,
              requested_block_ids: want,
              payment: m.sell ? 0 : m.pay,
              ask: m.sell ? m.ask : 0,
            }).state;
          } else if (m.kind === 'accept') {
            const who = labs[m.who]!;
            const open = Object.values(s.offers).filter((o) => o.to === who && o.status === 'active');
            const o = open[m.which % Math.max(1, open.length)];
            const out = applyAction(s, who, { action_type: 'accept_offer', offer_id: o?.id ?? 'o_1' });
            if (out.result.code === 'offer_accepted' && o) {
              // Exactly the offer's net credits moved between its two parties.
              const net = o.payment - (o.ask ?? 0);
              assert.ok(Math.abs(out.state.labs[o.to]!.budget - (before.labs[o.to]!.budget + net)) < 1e-9);
              assert.ok(Math.abs(out.state.labs[o.from]!.budget - (before.labs[o.from]!.budget - net)) < 1e-9);
            }
            s = out.state;
          } else {
            const who = labs[m.who]!;
            const out = applyAction(s, who, { action_type: 'bid', amount: m.amount });
            if (!out.result.ok) assert.equal(out.state.labs[who]!.budget, before.labs[who]!.budget);
            s = out.state;
          }
          assertInvariants(s);
          assert.ok(Math.abs(money(s) - (s.ledger.initialMoney - s.ledger.burned)) < 1e-6);
          for (const l of labs) assert.ok(s.labs[l]!.budget >= 0);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
