/**
 * applyAction: common checks and the offer actions (docs/RULES.md §3, §3.1–3.4).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyAction } from '../../src/engine/index.js';
import { act, close, edit, fixture, must, rejects, withoutActor } from './helpers.js';

describe('common checks', () => {
  const s = fixture();
  test('unknown seat: unknown_lab, nothing changes, no reward', () => {
    for (const lab of ['lab_9', '__proto__', 'constructor', '']) {
      const out = applyAction(s, lab, { action_type: 'wait' });
      assert.equal(out.result.code, 'unknown_lab');
      assert.equal(out.state, s);
      assert.equal(out.result.reward.normalized_reward, 0);
    }
  });
  test('malformed input: bad JSON, unknown type, wrong types, NaN/Infinity/negative numbers, too long', () => {
    const cases: unknown[] = [
      '{not json',
      '',
      'null',
      42,
      null,
      undefined,
      [],
      { action_type: 'steal' },
      { action_type: 'send_offer', target_lab_id: 'lab_1', payment: NaN },
      { action_type: 'send_offer', target_lab_id: 'lab_1', payment: Infinity },
      { action_type: 'send_offer', target_lab_id: 'lab_1', payment: -1 },
      { action_type: 'send_offer', target_lab_id: 'lab_1', payment: '5' },
      { action_type: 'send_offer', target_lab_id: 'lab_1', payment: 1e300 },
      { action_type: 'send_offer', target_lab_id: 'lab_1', block_ids: 'b_0_0' },
      { action_type: 'send_message', message: 'x'.repeat(501) },
      { action_type: 'accept_offer' },
      { action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: [1, 2] },
      JSON.stringify({ action_type: 'commit_to_coalition', coalition_id: 'c_1', payment: -0.5 }),
    ];
    for (const raw of cases) rejects(s, 'lab_0', raw, 'malformed_action');
  });
  test('a hostile object (throwing getter) is malformed, not a crash', () => {
    const evil = Object.defineProperty({}, 'action_type', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    rejects(s, 'lab_0', evil, 'malformed_action');
  });
  test('a JSON string action is parsed', () => {
    const out = applyAction(s, 'lab_0', '{"action_type":"wait"}');
    assert.equal(out.result.code, 'waited');
  });
  test('a penalised invalid action costs reputation 0.01 and counts', () => {
    const out = rejects(s, 'lab_0', { action_type: 'steal' }, 'malformed_action');
    assert.equal(out.state.labs.lab_0!.reputation, 0.49);
    assert.equal(out.state.seats.lab_0!.steps, 1);
    assert.equal(out.state.seats.lab_0!.cumulativeReward, -0.15);
    assert.equal(out.result.reward.normalized_reward, -0.15);
  });
  test('action_limit after maxActionsPerRound actions; reset at round close', () => {
    let t = fixture('market_round', 1, { maxActionsPerRound: 2 });
    t = must(t, 'lab_0', { action_type: 'wait' });
    t = must(t, 'lab_0', { action_type: 'wait' });
    rejects(t, 'lab_0', { action_type: 'wait' }, 'action_limit');
    must(close(t), 'lab_0', { action_type: 'wait' });
  });
  test('match over: match_over, state identical, zero reward', () => {
    const over = edit(s, (d) => void (d.over = true));
    const out = applyAction(over, 'lab_0', { action_type: 'wait' });
    assert.equal(out.result.code, 'match_over');
    assert.equal(out.state, over);
    assert.equal(out.result.reward.normalized_reward, 0);
  });
  test('after finish: seat_finished, state identical', () => {
    const done = must(s, 'lab_0', { action_type: 'finish' });
    const out = applyAction(done, 'lab_0', { action_type: 'send_message', message: 'hi' });
    assert.equal(out.result.code, 'seat_finished');
    assert.equal(out.state, done);
  });
  test('the input state is never mutated', () => {
    const before = JSON.stringify(s);
    applyAction(s, 'lab_0', { action_type: 'send_offer', target_lab_id: 'lab_1', block_ids: ['b_0_0'], payment: 5 });
    applyAction(s, 'lab_0', { action_type: 'reserve_capacity', block_ids: ['b_0_0'] });
    applyAction(s, 'lab_0', { action_type: 'finish' });
    assert.equal(JSON.stringify(s), before);
  });
});

describe('send_offer', () => {
  const s = fixture();
  test('creates o_1 active until round + expires_in, nothing escrowed, reward 0', () => {
    const out = act(s, 'lab_0', {
      action_type: 'send_offer',
      target_lab_id: 'lab_1',
      block_ids: ['b_0_0'],
      requested_block_ids: ['b_1_0'],
      payment: 5.004,
      message: 'swap?',
    });
    assert.equal(out.result.code, 'offer_created');
    assert.equal(out.result.created?.offerId, 'o_1');
    const o = out.state.offers.o_1!;
    assert.deepEqual([o.from, o.to, o.payment, o.expiresRound, o.status], ['lab_0', 'lab_1', 5, 2, 'active']);
    assert.equal(out.state.labs.lab_0!.budget, 100);
    assert.equal(out.result.reward.normalized_reward, 0);
    assert.equal(out.state.nextOfferSeq, 2);
  });
  test('expiry is capped at the last round', () => {
    const late = edit(s, (d) => void (d.round = 4));
    const out = act(late, 'lab_0', { action_type: 'send_offer', target_lab_id: 'lab_1', payment: 1, expires_in: 3 });
    assert.equal(out.state.offers.o_1!.expiresRound, 4);
  });
  test('errors', () => {
    const send = (x: object) => ({ action_type: 'send_offer', target_lab_id: 'lab_1', ...x });
    rejects(s, 'lab_0', send({ target_lab_id: 'lab_7', payment: 1 }), 'unknown_lab');
    rejects(s, 'lab_0', send({ target_lab_id: '__proto__', payment: 1 }), 'unknown_lab');
    rejects(s, 'lab_0', send({ target_lab_id: 'lab_0', payment: 1 }), 'self_trade');
    rejects(s, 'lab_0', send({}), 'empty_offer');
    rejects(s, 'lab_0', send({ payment: 100.01 }), 'budget_overspend');
    rejects(s, 'lab_0', send({ block_ids: ['b_0_0', 'b_0_0'] }), 'duplicate_block');
    rejects(s, 'lab_0', send({ requested_block_ids: ['b_1_0', 'b_1_0'] }), 'duplicate_block');
    rejects(s, 'lab_0', send({ block_ids: ['b_9_9'] }), 'unknown_block');
    rejects(s, 'lab_0', send({ block_ids: ['constructor'] }), 'unknown_block');
    rejects(s, 'lab_0', send({ block_ids: ['b_1_0'] }), 'unowned_block');
    rejects(s, 'lab_0', send({ requested_block_ids: ['b_9_9'] }), 'unknown_block');
    rejects(s, 'lab_0', send({ requested_block_ids: ['b_2_0'] }), 'target_does_not_own_block');
    const used = edit(s, (d) => {
      Object.assign(d.blocks.b_0_0!, { status: 'failed' });
      Object.assign(d.blocks.b_1_0!, { status: 'committed', committedTo: 'c_1' });
    });
    rejects(used, 'lab_0', send({ block_ids: ['b_0_0'] }), 'unavailable_block');
    rejects(used, 'lab_0', send({ requested_block_ids: ['b_1_0'] }), 'unavailable_block');
    const finished = edit(s, (d) => void (d.labs.lab_1!.finished = true));
    rejects(finished, 'lab_0', send({ payment: 1 }), 'seat_finished');
  });
  test('payment equal to the budget is allowed', () => {
    assert.equal(act(s, 'lab_0', { action_type: 'send_offer', target_lab_id: 'lab_1', payment: 100 }).result.ok, true);
  });
});

describe('accept_offer', () => {
  // lab_0 needs 4 h for j_0_0 and owns 3 × 2 h; lab_1 likewise. lab_0 buys b_1_0 for 10.
  const base = fixture();
  const offered = must(base, 'lab_0', {
    action_type: 'send_offer',
    target_lab_id: 'lab_1',
    requested_block_ids: ['b_1_0'],
    payment: 10,
  });
  test('executes: money and blocks move, reputations +0.02, both parties get deal quality from their own view', () => {
    const reserved = edit(offered, (d) => Object.assign(d.blocks.b_1_0!, { status: 'reserved', reservedFor: 'lab_1' }));
    const out = act(reserved, 'lab_1', { action_type: 'accept_offer', offer_id: 'o_1' });
    assert.equal(out.result.code, 'offer_accepted');
    const t = out.state;
    assert.equal(t.offers.o_1!.status, 'accepted');
    assert.equal(t.labs.lab_0!.budget, 90);
    assert.equal(t.labs.lab_1!.budget, 110);
    assert.deepEqual(
      [t.blocks.b_1_0!.owner, t.blocks.b_1_0!.status, t.blocks.b_1_0!.reservedFor],
      ['lab_0', 'available', null],
    );
    assert.equal(t.labs.lab_0!.reputation, 0.52);
    assert.equal(t.labs.lab_1!.reputation, 0.52);
    // lab_1 (actor) gains 10 credits and loses a spare-ish block it still needs? It has 3 blocks for 2 jobs of 4 h:
    // before it could fund one job (90) + 1 spare block; after it funds one job, 0 spare: gain = 10 − 1.5·2·0.9.
    assert.equal(out.result.reward.deal_quality, 0.073);
    // lab_0's gain goes to its pending reward (paid at round close): it can now fund its second job.
    const pending = t.seats.lab_0!.pendingReward;
    assert.ok(pending.deal_quality > 0.5, `lab_0 deal ${pending.deal_quality}`);
    // Mutual benefit is realised later (a job completed with the block), not at the trade.
    assert.equal(pending.negotiation_efficiency, 0);
    assert.equal(out.result.reward.negotiation_efficiency, 0);
    assert.equal(t.blocks.b_1_0!.tradedFrom, 'lab_1');
    const closed = close(t);
    assert.equal(closed.seats.lab_0!.lastBreakdown.deal_quality, pending.deal_quality);
    assert.equal(closed.seats.lab_0!.pendingReward.deal_quality, 0);
  });
  test('errors before execution', () => {
    rejects(offered, 'lab_1', { action_type: 'accept_offer', offer_id: 'o_9' }, 'unknown_offer');
    rejects(offered, 'lab_1', { action_type: 'accept_offer', offer_id: '__proto__' }, 'unknown_offer');
    rejects(offered, 'lab_0', { action_type: 'accept_offer', offer_id: 'o_1' }, 'not_offer_recipient');
    rejects(offered, 'lab_2', { action_type: 'accept_offer', offer_id: 'o_1' }, 'not_offer_recipient');
    const rejected = must(offered, 'lab_1', { action_type: 'reject_offer', offer_id: 'o_1' });
    rejects(rejected, 'lab_1', { action_type: 'accept_offer', offer_id: 'o_1' }, 'inactive_offer');
    const stale = edit(offered, (d) => void (d.round = 3));
    rejects(stale, 'lab_1', { action_type: 'accept_offer', offer_id: 'o_1' }, 'expired_offer');
  });
  test('expired at round close: the offer becomes expired and cannot be accepted', () => {
    const t = close(close(close(offered)));
    assert.equal(t.offers.o_1!.status, 'expired');
    rejects(t, 'lab_1', { action_type: 'accept_offer', offer_id: 'o_1' }, 'inactive_offer');
  });
  test('execution failures mark the offer invalid without penalty', () => {
    const poor = edit(offered, (d) => void (d.labs.lab_0!.budget = 5));
    let out = act(poor, 'lab_1', { action_type: 'accept_offer', offer_id: 'o_1' });
    assert.deepEqual(
      [out.result.ok, out.result.code, out.state.offers.o_1!.status],
      [false, 'budget_overspend', 'invalid'],
    );
    assert.equal(out.result.reward.invalid_action_penalty, 0);
    assert.equal(out.state.labs.lab_0!.budget, 5);
    const gave = must(base, 'lab_0', {
      action_type: 'send_offer',
      target_lab_id: 'lab_1',
      block_ids: ['b_0_0'],
      payment: 1,
    });
    const gone = edit(gave, (d) => Object.assign(d.blocks.b_0_0!, { status: 'committed', committedTo: 'c_1' }));
    out = act(gone, 'lab_1', { action_type: 'accept_offer', offer_id: 'o_1' });
    assert.deepEqual([out.result.code, out.state.offers.o_1!.status], ['invalid_offered_block', 'invalid']);
    const used = edit(offered, (d) => Object.assign(d.blocks.b_1_0!, { status: 'used', usedFor: 'j_1_0' }));
    out = act(used, 'lab_1', { action_type: 'accept_offer', offer_id: 'o_1' });
    assert.deepEqual([out.result.code, out.state.offers.o_1!.status], ['invalid_requested_block', 'invalid']);
    assert.equal(
      withoutActor(out.state, 'lab_1').replace('"status":"invalid"', '"status":"active"'),
      withoutActor(used, 'lab_1'),
    );
  });
});

describe('reject_offer', () => {
  const offered = must(fixture(), 'lab_0', { action_type: 'send_offer', target_lab_id: 'lab_1', payment: 3 });
  test('recipient rejects, sender withdraws, reward 0', () => {
    const r = act(offered, 'lab_1', { action_type: 'reject_offer', offer_id: 'o_1' });
    assert.deepEqual(
      [r.result.code, r.state.offers.o_1!.status, r.result.reward.normalized_reward],
      ['offer_rejected', 'rejected', 0],
    );
    const w = act(offered, 'lab_0', { action_type: 'reject_offer', offer_id: 'o_1' });
    assert.deepEqual([w.result.code, w.state.offers.o_1!.status], ['offer_withdrawn', 'withdrawn']);
  });
  test('errors', () => {
    rejects(offered, 'lab_1', { action_type: 'reject_offer', offer_id: 'o_2' }, 'unknown_offer');
    rejects(offered, 'lab_2', { action_type: 'reject_offer', offer_id: 'o_1' }, 'not_offer_party');
    const done = must(offered, 'lab_1', { action_type: 'reject_offer', offer_id: 'o_1' });
    rejects(done, 'lab_0', { action_type: 'reject_offer', offer_id: 'o_1' }, 'inactive_offer');
  });
});

describe('counter_offer', () => {
  const offered = must(fixture(), 'lab_0', {
    action_type: 'send_offer',
    target_lab_id: 'lab_1',
    requested_block_ids: ['b_1_0'],
    payment: 3,
  });
  test('creates a linked offer to the original sender; the original is countered', () => {
    const out = act(offered, 'lab_1', {
      action_type: 'counter_offer',
      offer_id: 'o_1',
      block_ids: ['b_1_0'],
      payment: 0,
      requested_block_ids: [],
      message: 'pay more',
    });
    assert.equal(out.result.code, 'counter_offer_created');
    assert.equal(out.result.created?.offerId, 'o_2');
    const o2 = out.state.offers.o_2!;
    assert.deepEqual(
      [o2.from, o2.to, o2.linkedOfferId, out.state.offers.o_1!.status],
      ['lab_1', 'lab_0', 'o_1', 'countered'],
    );
  });
  test('an invalid counter leaves the original active (atomic)', () => {
    rejects(offered, 'lab_1', { action_type: 'counter_offer', offer_id: 'o_1', block_ids: ['b_0_0'] }, 'unowned_block');
    rejects(offered, 'lab_1', { action_type: 'counter_offer', offer_id: 'o_1' }, 'empty_offer');
    rejects(offered, 'lab_1', { action_type: 'counter_offer', offer_id: 'o_1', payment: 500 }, 'budget_overspend');
  });
  test('errors on the original', () => {
    rejects(offered, 'lab_0', { action_type: 'counter_offer', offer_id: 'o_1', payment: 1 }, 'not_offer_recipient');
    rejects(offered, 'lab_1', { action_type: 'counter_offer', offer_id: 'o_5', payment: 1 }, 'unknown_offer');
    const gone = must(offered, 'lab_0', { action_type: 'reject_offer', offer_id: 'o_1' });
    rejects(gone, 'lab_1', { action_type: 'counter_offer', offer_id: 'o_1', payment: 1 }, 'inactive_offer');
  });
});
