/**
 * Anti-farming (docs/RULES.md §4; §A.2 D2, D4–D8): no spam pattern earns positive reward.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyAction, closeRound } from '../../src/engine/index.js';
import type { MatchState } from '../../src/engine/index.js';
import { act, edit, fixture, must, rejects } from './helpers.js';

/** Run `actionFor(i)` for lab_0 every step, closing rounds when the action budget is spent; returns lab_0's cumulative. */
function farm(
  s: MatchState,
  actionFor: (i: number, s: MatchState) => unknown,
  lab = 'lab_0',
): { total: number; state: MatchState } {
  let i = 0;
  while (!s.over) {
    for (let k = 0; k < s.config.maxActionsPerRound; k++) s = applyAction(s, lab, actionFor(i++, s)).state;
    s = closeRound(s, { judge: null }).state;
  }
  return { total: s.seats[lab]!.cumulativeReward, state: s };
}

describe('anti-farming', () => {
  test('unilateral coalition spam earns nothing', () => {
    const s = fixture('coalition_market', 3);
    const others = s.labIds.slice(1);
    const { total, state } = farm(s, (i) => ({
      action_type: 'form_coalition',
      target_lab_ids: [others[i % others.length]!],
      duration: 1,
    }));
    assert.ok(total <= 0, `coalition spam earned ${total}`);
    assert.ok(
      Object.values(state.coalitions).every((c) => c.status !== 'closed'),
      'no coalition activated without consent',
    );
  });
  test('empty offers are rejected; offers with varied payments earn nothing', () => {
    const s = fixture();
    rejects(s, 'lab_0', { action_type: 'send_offer', target_lab_id: 'lab_1' }, 'empty_offer');
    assert.ok(farm(s, () => ({ action_type: 'send_offer', target_lab_id: 'lab_1' })).total < 0);
    const varied = farm(s, (i) => ({
      action_type: 'send_offer',
      target_lab_id: i % 2 ? 'lab_1' : 'lab_2',
      payment: (i % 7) / 100 + 0.01,
    }));
    assert.ok(varied.total <= 0, `offer spam earned ${varied.total}`);
  });
  test('accepting a bad offer is negative for the accepter', () => {
    // lab_1 asks lab_0 for the blocks lab_0 needs and pays 1 credit.
    let s = must(fixture(), 'lab_1', {
      action_type: 'send_offer',
      target_lab_id: 'lab_0',
      requested_block_ids: ['b_0_0', 'b_0_1'],
      payment: 1,
    });
    const out = act(s, 'lab_0', { action_type: 'accept_offer', offer_id: 'o_1' });
    assert.equal(out.result.code, 'offer_accepted');
    assert.ok(out.result.reward.deal_quality < 0, `deal ${out.result.reward.deal_quality}`);
    assert.equal(out.result.reward.negotiation_efficiency, 0);
    assert.ok(out.result.reward.normalized_reward < 0);
    s = out.state;
  });
  test('empty releases are rejected; reserve/release cycles earn nothing', () => {
    const s = fixture();
    rejects(s, 'lab_0', { action_type: 'release_capacity', block_ids: [] }, 'empty_block_list');
    const cycle = farm(s, (i) =>
      i % 2
        ? { action_type: 'release_capacity', block_ids: ['b_0_0'] }
        : { action_type: 'reserve_capacity', block_ids: ['b_0_0'] },
    );
    assert.ok(cycle.total <= 0, `reserve/release earned ${cycle.total}`);
  });
  test('duplicate block ids cannot create capacity', () => {
    const s = edit(fixture(), (d) => void (d.jobs.j_0_0!.gpuHoursRequired = 8));
    rejects(
      s,
      'lab_0',
      { action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: ['b_0_0', 'b_0_0', 'b_0_0', 'b_0_0'] },
      'duplicate_block',
    );
  });
  test('NaN, Infinity and negative payments are malformed', () => {
    const s = fixture();
    for (const payment of [NaN, Infinity, -Infinity, -5]) {
      rejects(s, 'lab_0', { action_type: 'send_offer', target_lab_id: 'lab_1', payment }, 'malformed_action');
      rejects(s, 'lab_0', { action_type: 'commit_to_coalition', coalition_id: 'c_1', payment }, 'malformed_action');
    }
  });
  test('used blocks cannot be re-committed, re-offered or re-allocated', () => {
    let s = must(fixture(), 'lab_0', {
      action_type: 'allocate_to_job',
      job_id: 'j_0_0',
      block_ids: ['b_0_0', 'b_0_1'],
    });
    s = must(s, 'lab_0', { action_type: 'form_coalition', target_lab_ids: ['lab_1'] });
    rejects(
      s,
      'lab_0',
      { action_type: 'commit_to_coalition', coalition_id: 'c_1', block_ids: ['b_0_0'] },
      'unavailable_block',
    );
    rejects(
      s,
      'lab_0',
      { action_type: 'send_offer', target_lab_id: 'lab_1', block_ids: ['b_0_0'] },
      'unavailable_block',
    );
    rejects(s, 'lab_0', { action_type: 'allocate_to_job', job_id: 'j_0_1', block_ids: ['b_0_0'] }, 'block_used');
  });
  test('repeating an action or a text is penalised as spam', () => {
    let s = fixture();
    const a = { action_type: 'reserve_capacity', block_ids: ['b_9'] };
    s = applyAction(s, 'lab_0', a).state;
    s = applyAction(s, 'lab_0', a).state;
    assert.equal(applyAction(s, 'lab_0', a).result.reward.spam_penalty, -0.05);
    let t = must(fixture(), 'lab_0', { action_type: 'send_message', message: 'buy my GPUs' });
    const out = act(t, 'lab_0', { action_type: 'send_message', message: 'buy my GPUs' });
    assert.equal(out.result.reward.spam_penalty, -0.05);
    t = out.state;
    assert.equal(
      act(t, 'lab_0', { action_type: 'send_message', message: 'something new' }).result.reward.spam_penalty,
      0,
    );
  });
  test('two colluding seats ping-ponging money, a block or a mutually useful swap gain nothing together', () => {
    const swap = edit(fixture(), (d) => {
      // lab_0's second job needs a very reliable 2 h block that lab_1 has; lab_1 needs 2 more hours,
      // which lab_0's spare 4 h block gives: swapping b_0_0 for b_1_0 makes both second jobs fundable.
      Object.assign(d.blocks.b_0_0!, { gpuCount: 4, gpuHours: 4, reliability: 0.85 });
      Object.assign(d.jobs.j_0_1!, { gpuHoursRequired: 2, minReliability: 0.95 });
      d.blocks.b_1_0!.reliability = 0.96;
    });
    const probe = act(
      must(swap, 'lab_0', {
        action_type: 'send_offer',
        target_lab_id: 'lab_1',
        block_ids: ['b_0_0'],
        requested_block_ids: ['b_1_0'],
      }),
      'lab_1',
      { action_type: 'accept_offer', offer_id: 'o_1' },
    );
    assert.ok(
      probe.result.reward.deal_quality > 0.5 && probe.state.seats.lab_0!.pendingReward.deal_quality > 0.5,
      'the swap is mutually beneficial',
    );
    let t = swap;
    let sum = 0;
    for (let i = 0; i < 3; i++) {
      t = must(t, 'lab_0', {
        action_type: 'send_offer',
        target_lab_id: 'lab_1',
        block_ids: [i % 2 ? 'b_1_0' : 'b_0_0'].filter((b) => t.blocks[b]!.owner === 'lab_0'),
        requested_block_ids: [i % 2 ? 'b_0_0' : 'b_1_0'].filter((b) => t.blocks[b]!.owner === 'lab_1'),
      });
      const out = act(t, 'lab_1', { action_type: 'accept_offer', offer_id: `o_${i + 1}` });
      sum += out.result.reward.normalized_reward;
      t = out.state;
    }
    const closed = closeRound(t, { judge: null });
    sum += closed.report.rewards.lab_0!.normalized_reward + closed.report.rewards.lab_1!.normalized_reward;
    const once = must(
      must(swap, 'lab_0', {
        action_type: 'send_offer',
        target_lab_id: 'lab_1',
        block_ids: ['b_0_0'],
        requested_block_ids: ['b_1_0'],
      }),
      'lab_1',
      { action_type: 'accept_offer', offer_id: 'o_1' },
    );
    const onceClosed = closeRound(once, { judge: null });
    const onceSum = onceClosed.state.seats.lab_0!.cumulativeReward + onceClosed.state.seats.lab_1!.cumulativeReward;
    assert.ok(sum <= onceSum + 1e-9, `swapping back and forth (${sum}) must not beat swapping once (${onceSum})`);
    for (const terms of [{ payment: 50 }, { block_ids: ['b_0_0'] }]) {
      let s = fixture();
      for (let i = 0; i < 4; i++) {
        const [from, to] = i % 2 ? ['lab_1', 'lab_0'] : ['lab_0', 'lab_1'];
        s = must(s, from, { action_type: 'send_offer', target_lab_id: to, ...terms });
        s = must(s, to, { action_type: 'accept_offer', offer_id: `o_${i + 1}` });
        s = closeRound(s, { judge: null }).state;
      }
      const total = s.seats.lab_0!.cumulativeReward + s.seats.lab_1!.cumulativeReward;
      assert.ok(total <= 1e-9, `ping-pong ${JSON.stringify(terms)} earned ${total}`);
    }
  });
  test('a block traded away and back, or traded but not needed, earns no negotiation_efficiency', () => {
    let s = fixture();
    s = must(s, 'lab_0', { action_type: 'send_offer', target_lab_id: 'lab_1', block_ids: ['b_0_0'] });
    s = must(s, 'lab_1', { action_type: 'accept_offer', offer_id: 'o_1' });
    s = must(s, 'lab_1', { action_type: 'send_offer', target_lab_id: 'lab_0', block_ids: ['b_0_0'] });
    s = must(s, 'lab_0', { action_type: 'accept_offer', offer_id: 'o_2' });
    assert.equal(s.blocks.b_0_0!.tradedFrom, undefined, 'back home: no longer traded capacity');
    s = must(s, 'lab_0', { action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: ['b_0_0', 'b_0_1'] });
    let earned = 0;
    while (!s.over) {
      const r = closeRound(s, { judge: null });
      earned += r.report.rewards.lab_0!.negotiation_efficiency + r.report.rewards.lab_1!.negotiation_efficiency;
      s = r.state;
    }
    assert.equal(s.jobs.j_0_0!.outcome, 'completed');
    assert.equal(earned, 0);
  });

  test('malformed spam is penalised every time', () => {
    assert.ok(farm(fixture(), () => '{"action_type":').total < -1);
  });
});
