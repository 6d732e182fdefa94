/**
 * closeRound: expiry, deadlines, coalitions, shocks, final settlement, judge (docs/RULES.md §2, §3.9, §4, §5).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeRound, observe, publicView } from '../../src/engine/index.js';
import { announcedAuction } from '../../src/engine/auction.js';
import type { JudgeDecision, MatchState, ShockKind } from '../../src/engine/index.js';
import { act, assertInvariants, close, edit, fixture, must, rejects } from './helpers.js';

const decision = (winner: string | null, bonus = 0.1, round = 0): JudgeDecision => ({
  round,
  judgeId: 'test',
  winner,
  scores: [],
  bonus,
  reason: 'test',
});
const closeTo = (s: MatchState, round: number) => {
  while (s.round < round) s = close(s);
  return s;
};

describe('deadline settlement', () => {
  const s0 = edit(fixture(), (d) => {
    d.jobs.j_0_1!.partialCreditAllowed = true;
  });
  test('completed, partial and missed jobs settle at the close of their deadline round; idle reservations cost', () => {
    let s = must(s0, 'lab_0', { action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: ['b_0_0', 'b_0_1'] });
    s = must(s, 'lab_0', { action_type: 'allocate_to_job', job_id: 'j_0_1', block_ids: ['b_0_2'] });
    s = must(s, 'lab_1', { action_type: 'allocate_to_job', job_id: 'j_1_0', block_ids: ['b_1_0'] });
    s = must(s, 'lab_1', { action_type: 'reserve_capacity', block_ids: ['b_1_1'], job_id: 'j_1_1' });
    s = closeTo(s, 2);
    assert.equal(s.jobs.j_0_0!.outcome, 'pending');
    const { state, report } = closeRound(s, { judge: null });
    const j = state.jobs;
    assert.deepEqual([j.j_0_0!.outcome, j.j_0_0!.realisedValue], ['completed', 86]);
    assert.deepEqual([j.j_0_1!.outcome, j.j_0_1!.realisedValue], ['partial', 43]); // 90 × 2/4 − 2
    assert.deepEqual([j.j_1_0!.outcome, j.j_1_0!.realisedValue], ['missed', -2]); // no partial credit: energy lost
    assert.deepEqual([j.j_1_1!.outcome, j.j_1_1!.realisedValue], ['missed', 0]);
    assert.equal(state.blocks.b_1_1!.status, 'available');
    assert.equal(report.rewards.lab_0!.job_utility, 0.86);
    assert.equal(report.rewards.lab_0!.normalized_reward, 0.301);
    assert.equal(report.rewards.lab_1!.job_utility, -0.0633); // −2/150 − 0.05
    assert.deepEqual(report.settlements.map((x) => `${x.jobId}:${x.outcome}`).sort(), [
      'j_0_0:completed',
      'j_0_1:partial',
      'j_1_0:missed',
      'j_1_1:missed',
      'j_2_0:missed',
      'j_2_1:missed',
    ]);
    assert.equal(state.seats.lab_0!.cumulativeReward, 0.301);
    assertInvariants(state);
  });
  test('deal gain from making a job fundable is taken back at settlement if the job does not realise it', () => {
    // lab_0 buys lab_1's b_1_2 (its spare) for 5: with 4 blocks it can fund both jobs (+90 of job value).
    let s = must(fixture(), 'lab_0', {
      action_type: 'send_offer',
      target_lab_id: 'lab_1',
      requested_block_ids: ['b_1_2'],
      payment: 5,
    });
    s = must(s, 'lab_1', { action_type: 'accept_offer', offer_id: 'o_1' });
    const credited = s.seats.lab_0!.pendingReward.deal_quality;
    assert.ok(credited > 0.8, `credited ${credited}`);
    assert.equal(s.jobs.j_0_1!.tradeCredit, 90);
    const unused = closeTo(s, 3);
    // Nothing allocated: both jobs missed; the 90 credited for j_0_1 comes back out of deal_quality.
    assert.equal(unused.seats.lab_0!.lastBreakdown.deal_quality, -0.9);
    let used = must(s, 'lab_0', { action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: ['b_0_0', 'b_0_1'] });
    used = must(used, 'lab_0', { action_type: 'allocate_to_job', job_id: 'j_0_1', block_ids: ['b_0_2', 'b_1_2'] });
    const { state, report } = closeRound(closeTo(used, 2), { judge: null });
    assert.equal(state.seats.lab_0!.lastBreakdown.deal_quality, 0);
    assert.equal(report.rewards.lab_0!.job_utility, 1.1467); // (86 + 86) / 150
    // The traded block completed a job: negotiation_efficiency for the buyer and for the seller, once.
    assert.equal(report.rewards.lab_0!.negotiation_efficiency, 1);
    assert.equal(report.rewards.lab_1!.negotiation_efficiency, 1);
    assert.equal(
      closeRound(closeTo(s, 2), { judge: null }).report.rewards.lab_1!.negotiation_efficiency,
      0,
      'unused: nothing',
    );
  });
  test('job_utility per job is clamped to [−0.5, 1]', () => {
    const big = edit(s0, (d) => Object.assign(d.jobs.j_0_0!, { baseValue: 500, urgencyMultiplier: 1 }));
    let s = must(big, 'lab_0', { action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: ['b_0_0', 'b_0_1'] });
    s = closeTo(s, 3);
    assert.equal(s.seats.lab_0!.lastBreakdown.job_utility, 1);
  });
  test('final settlement at the last close: over, budget efficiency, idle reservations for the lab', () => {
    let s = edit(fixture(), (d) => {
      for (const j of Object.values(d.jobs)) j.deadlineRound = 4;
    });
    s = must(s, 'lab_0', { action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: ['b_0_0', 'b_0_1'] });
    s = must(s, 'lab_0', { action_type: 'reserve_capacity', block_ids: ['b_0_2'] });
    s = must(s, 'lab_0', { action_type: 'send_offer', target_lab_id: 'lab_1', payment: 20 });
    s = must(s, 'lab_1', { action_type: 'accept_offer', offer_id: 'o_1' });
    s = closeTo(s, 4);
    const { state, report } = closeRound(s, { judge: null });
    assert.equal(state.over, true);
    assert.equal(report.final, true);
    assert.equal(state.round, 5);
    // 1 of 3 jobs completed (the third arrived late, §1.1) × budget 80/100; 86/150 − 0.05 idle.
    assert.ok(state.jobs.j_0_2);
    assert.equal(report.rewards.lab_0!.budget_efficiency, 0.2667);
    assert.equal(report.rewards.lab_0!.job_utility, 0.5233);
    assert.equal(report.rewards.lab_1!.budget_efficiency, 0);
    const again = closeRound(state, { judge: null });
    assert.equal(again.state, state);
    assert.equal(act(state, 'lab_1', { action_type: 'wait' }).result.code, 'match_over');
  });
  test('Σ step and close rewards equals the cumulative reward', () => {
    let s = fixture();
    let sum = 0;
    const step = (a: object) => {
      const out = act(s, 'lab_0', a);
      sum += out.result.reward.normalized_reward;
      s = out.state;
    };
    step({ action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: ['b_0_0', 'b_0_1'] });
    step({ action_type: 'steal' });
    while (!s.over) {
      step({ action_type: 'send_message', message: 'same' });
      const r = closeRound(s, { judge: decision('lab_0') });
      sum += r.report.rewards.lab_0!.normalized_reward;
      s = r.state;
    }
    assert.ok(Math.abs(sum - s.seats.lab_0!.cumulativeReward) < 1e-9, `${sum} vs ${s.seats.lab_0!.cumulativeReward}`);
  });
});

describe('coalitions over rounds', () => {
  // lab_0 proposes to lab_1 for 1 round; lab_0 pays 10 into escrow, lab_1 commits b_1_0 and b_1_1.
  const proposed = must(fixture(), 'lab_0', { action_type: 'form_coalition', target_lab_ids: ['lab_1'], duration: 1 });
  const paid = must(proposed, 'lab_0', { action_type: 'commit_to_coalition', coalition_id: 'c_1', payment: 10 });
  const active = must(
    paid,
    'lab_1',
    { action_type: 'commit_to_coalition', coalition_id: 'c_1', block_ids: ['b_1_0', 'b_1_1'] },
    'coalition_activated',
  );

  test('pooling: a member allocates a partner block; close pays escrow by hours used and rewards both', () => {
    const s = must(active, 'lab_0', { action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: ['b_0_0', 'b_1_0'] });
    assert.deepEqual([s.blocks.b_1_0!.owner, s.blocks.b_1_0!.status], ['lab_0', 'used']);
    assert.equal(s.coalitions.c_1!.hoursUsedByPartners.lab_1, 2);
    const { state, report } = closeRound(s, { judge: null });
    assert.equal(state.coalitions.c_1!.status, 'closed');
    assert.deepEqual(report.coalitions, [{ id: 'c_1', status: 'closed' }]);
    assert.equal(state.blocks.b_1_1!.status, 'available');
    assert.equal(state.labs.lab_1!.budget, 110);
    assert.equal(state.labs.lab_0!.budget, 90);
    assert.equal(report.rewards.lab_0!.coalition_reliability, 1);
    assert.equal(report.rewards.lab_1!.coalition_reliability, 1);
    assertInvariants(state);
  });
  test('a token escrow (under 5 credits) does not earn coalition_reliability', () => {
    const token = must(
      must(proposed, 'lab_0', { action_type: 'commit_to_coalition', coalition_id: 'c_1', payment: 0.01 }),
      'lab_1',
      { action_type: 'commit_to_coalition', coalition_id: 'c_1', block_ids: ['b_1_0', 'b_1_1'] },
      'coalition_activated',
    );
    const s = must(token, 'lab_0', { action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: ['b_0_0', 'b_1_0'] });
    const { report } = closeRound(s, { judge: null });
    assert.equal(report.rewards.lab_0!.coalition_reliability, 0, 'lab_0 only put in 0.01 credits');
    assert.equal(report.rewards.lab_1!.coalition_reliability, 1, 'lab_1 committed blocks that served the job');
  });
  test('a pooled block poured into a job that never gets its hours earns escrow but no reliability', () => {
    const s = must(active, 'lab_0', { action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: ['b_1_0'] });
    const { state, report } = closeRound(s, { judge: null });
    assert.equal(state.labs.lab_1!.budget, 110);
    assert.equal(report.rewards.lab_0!.coalition_reliability, 0);
    assert.equal(report.rewards.lab_1!.coalition_reliability, 0);
  });
  test('an unused coalition closes with refunds and no reward', () => {
    const { state, report } = closeRound(active, { judge: null });
    assert.equal(state.labs.lab_0!.budget, 100);
    assert.equal(report.rewards.lab_0!.coalition_reliability, 0);
    assert.equal(report.rewards.lab_1!.coalition_reliability, 0);
    assert.equal(state.blocks.b_1_0!.status, 'available');
  });
  test('a proposal never fully consented lapses: blocks and escrow return', () => {
    const t = must(proposed, 'lab_0', {
      action_type: 'commit_to_coalition',
      coalition_id: 'c_1',
      block_ids: ['b_0_0'],
      payment: 5,
    });
    const { state, report } = closeRound(t, { judge: null });
    assert.deepEqual(report.coalitions, [{ id: 'c_1', status: 'lapsed' }]);
    assert.deepEqual([state.blocks.b_0_0!.status, state.labs.lab_0!.budget], ['available', 100]);
    assertInvariants(state);
  });
  test('releasing from a proposal withdraws without breach', () => {
    const t = must(proposed, 'lab_0', {
      action_type: 'commit_to_coalition',
      coalition_id: 'c_1',
      block_ids: ['b_0_0'],
    });
    const out = act(t, 'lab_0', { action_type: 'release_capacity', block_ids: ['b_0_0'] });
    assert.equal(out.result.code, 'capacity_released');
    assert.equal(out.result.reward.breach_penalty, 0);
    assert.deepEqual(out.state.coalitions.c_1!.commitments.lab_0!.blockIds, []);
  });
  test('breach: penalised once, coalition dissolves, escrow to the others, grudge', () => {
    const withEscrow = must(active, 'lab_1', { action_type: 'commit_to_coalition', coalition_id: 'c_1', payment: 7 });
    const out = act(withEscrow, 'lab_1', { action_type: 'release_capacity', block_ids: ['b_1_0'] });
    assert.equal(out.result.code, 'coalition_breached');
    assert.equal(out.result.reward.breach_penalty, -0.2);
    const s = out.state;
    assert.equal(s.coalitions.c_1!.status, 'breached');
    assert.equal(s.coalitions.c_1!.commitments.lab_1!.standing, 'breached');
    assert.deepEqual([s.blocks.b_1_0!.status, s.blocks.b_1_1!.status], ['available', 'available']);
    assert.equal(s.labs.lab_1!.reputation, 0.38);
    assert.equal(s.labs.lab_0!.budget, 107); // own 10 back + lab_1's forfeited 7
    assert.equal(s.labs.lab_1!.budget, 93);
    assert.deepEqual(s.seats.lab_0!.grudges, ['lab_1']);
    const next = act(s, 'lab_1', { action_type: 'send_message', message: 'sorry' });
    assert.equal(next.result.reward.breach_penalty, 0);
    const { report } = closeRound(next.state, { judge: null });
    assert.equal(report.rewards.lab_1!.breach_penalty, 0);
    assertInvariants(next.state);
  });
  test('a committed block failed by a shock is excused, not a breach', () => {
    const shocked = edit(active, (d) => {
      d.shockSchedule = [{ round: 0, kind: 'capacity_failure' }];
      for (const b of Object.values(d.blocks)) if (b.id !== 'b_1_0') Object.assign(b, { status: 'used', usedFor: 'x' });
    });
    const fixed = edit(shocked, (d) => {
      // Make the "used" blocks consistent: attach them to a job of their owner.
      for (const b of Object.values(d.blocks))
        if (b.usedFor === 'x') {
          const job = Object.values(d.jobs).find((j) => j.owner === b.owner)!;
          b.usedFor = job.id;
          job.allocatedBlockIds.push(b.id);
        }
    });
    const { state, report } = closeRound(fixed, { judge: null });
    assert.equal(state.blocks.b_1_0!.status, 'failed');
    assert.equal(state.coalitions.c_1!.commitments.lab_1!.standing, 'excused');
    assert.equal(report.rewards.lab_1!.breach_penalty, 0);
  });
  test('a member finishing closes its coalition for everyone; partners are paid at the next close', () => {
    const s = must(active, 'lab_0', { action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: ['b_0_0', 'b_1_0'] });
    const out = act(s, 'lab_0', { action_type: 'finish' });
    assert.equal(out.state.coalitions.c_1!.status, 'closed');
    assert.equal(out.result.reward.coalition_reliability, 1);
    assert.equal(out.state.seats.lab_1!.pendingReward.coalition_reliability, 1);
    const { report } = closeRound(out.state, { judge: null });
    assert.equal(report.rewards.lab_1!.coalition_reliability, 1);
  });
});

describe('judge at close', () => {
  const s = must(fixture(), 'lab_1', {
    action_type: 'make_pitch',
    message: 'We need four GPU-hours soon.',
    job_ids: ['j_1_0'],
  });
  test("the winner's bonus (clamped to 0.15) is held on its job, not paid; decision stored; pitches cleared", () => {
    const { state, report } = closeRound(s, { judge: decision('lab_1', 0.4) });
    assert.equal(report.rewards.lab_1!.judge_argument, 0);
    assert.equal(state.jobs.j_1_0!.heldBonus, 0.15);
    assert.equal(state.judgeHistory.length, 1);
    assert.deepEqual(state.pitches, []);
  });
  test('null decision or unknown winner: nothing held', () => {
    for (const judge of [null, decision('lab_9')]) {
      const { state, report } = closeRound(s, { judge });
      assert.equal(report.rewards.lab_1!.judge_argument, 0);
      assert.equal(state.jobs.j_1_0!.heldBonus, undefined);
      assert.deepEqual(report.pitchBonus, []);
    }
  });
});

describe('shocks', () => {
  const shockAt = (kind: ShockKind, f?: (d: MatchState) => void) =>
    edit(fixture(), (d) => {
      d.shockSchedule = [{ round: 0, kind }];
      f?.(d);
    });
  test('capacity_failure: one live block fails; its owner is touched', () => {
    const { state, report } = closeRound(shockAt('capacity_failure'), { judge: null });
    const failed = Object.values(state.blocks).filter((b) => b.status === 'failed');
    assert.equal(failed.length, 1);
    assert.deepEqual(report.shocks[0]!.blockIds, [failed[0]!.id]);
    assert.equal(state.shockHistory.length, 1);
    const owner = failed[0]!.owner;
    assert.ok(
      Object.values(state.jobs)
        .filter((j) => j.owner === owner)
        .every((j) => j.shockAffected),
    );
  });
  test('new_supply: a new block to the judge winner, else a drawn lab', () => {
    const won = closeRound(shockAt('new_supply'), { judge: decision('lab_2') }).state;
    assert.equal(won.blocks.b_s0_0!.owner, 'lab_2');
    const drawn = closeRound(shockAt('new_supply'), { judge: null }).state;
    assert.ok(drawn.labIds.includes(drawn.blocks.b_s0_0!.owner));
  });
  test('energy_spike: live blocks cost 25% more, used ones do not', () => {
    const s = must(shockAt('energy_spike'), 'lab_0', {
      action_type: 'allocate_to_job',
      job_id: 'j_0_0',
      block_ids: ['b_0_0'],
    });
    const state = close(s);
    assert.equal(state.blocks.b_0_0!.energyCost, 2);
    assert.equal(state.blocks.b_0_1!.energyCost, 2.5);
  });
  test('reliability_downgrade: −0.12 with a floor of 0.5', () => {
    const state = close(shockAt('reliability_downgrade', (d) => void (d.blocks.b_2_0!.reliability = 0.55)));
    assert.equal(state.blocks.b_0_0!.reliability, 0.78);
    assert.equal(state.blocks.b_2_0!.reliability, 0.5);
  });
  test('deadline_acceleration: one eligible job moves one round earlier', () => {
    const state = close(
      shockAt('deadline_acceleration', (d) => {
        for (const j of Object.values(d.jobs)) j.deadlineRound = 1; // not eligible: must stay ≥ the new round
        d.jobs.j_1_1!.deadlineRound = 4;
      }),
    );
    assert.equal(state.jobs.j_1_0!.deadlineRound, 1);
    assert.equal(state.jobs.j_1_1!.deadlineRound, 3);
    assert.equal(state.jobs.j_1_1!.shockAffected, true);
  });
  test('demand_surge: every unfinished lab gets a feasible surge job; completing it earns market_adaptation', () => {
    const s = must(shockAt('demand_surge'), 'lab_2', { action_type: 'finish' });
    const state = close(s);
    assert.ok(state.jobs.j_0_surge_0 && state.jobs.j_1_surge_0);
    assert.equal(state.jobs.j_2_surge_0, undefined);
    const j = state.jobs.j_0_surge_0!;
    assert.deepEqual([j.deadlineRound, j.surge, j.shockAffected, j.partialCreditAllowed], [2, true, true, true]);
    const ids = ['b_0_0', 'b_0_1'].slice(0, Math.ceil(j.gpuHoursRequired / 2));
    const done = must(
      edit(state, (d) => void (d.jobs.j_0_surge_0!.minReliability = 0.8)),
      'lab_0',
      { action_type: 'allocate_to_job', job_id: j.id, block_ids: ids },
    );
    const { report } = closeRound(close(done), { judge: null });
    assert.equal(report.rewards.lab_0!.market_adaptation, 1);
  });
  test('emergency_auction: the highest valid sealed bid wins and pays it (burned); ties go to the judge winner, then reputation; no valid bid, no sale', () => {
    // The fixture's schedule is edited after creation: announce the lot as the previous close would have.
    const open = (f?: (d: MatchState) => void) =>
      edit(shockAt('emergency_auction', f), (d) => {
        d.auction = announcedAuction(d, 0);
      });
    let s = must(open(), 'lab_1', { action_type: 'bid', amount: 12 }, 'bid_placed');
    s = must(s, 'lab_2', { action_type: 'bid', amount: 15.5 }, 'bid_placed');
    s = must(s, 'lab_0', { action_type: 'bid', amount: 9 }, 'bid_placed');
    assert.equal(observe(s, 'lab_1').auction?.myBid, 12);
    assert.equal(publicView(s).auction?.reserve, 8);
    assert.ok(!JSON.stringify(publicView(s)).includes('15.5') && !JSON.stringify(observe(s, 'lab_0')).includes('15.5'));
    let { state, report } = closeRound(s, { judge: decision('lab_1') });
    assert.equal(state.blocks.b_s0_0!.owner, 'lab_2');
    assert.equal(state.labs.lab_2!.budget, 100 - 15.5);
    assert.equal(state.ledger.burned, 15.5);
    assert.equal(state.auction, null);
    assert.match(report.shocks[0]!.text, /Lab C won the emergency auction for b_s0_0 .* 15\.50 credits/);
    assert.ok(!report.shocks[0]!.text.includes('12') && !report.shocks[0]!.text.includes('9.00'));
    assertInvariants(state);
    // A tie goes to the judge winner, else the more reputable seat.
    const tie = must(must(open(), 'lab_1', { action_type: 'bid', amount: 10 }), 'lab_2', {
      action_type: 'bid',
      amount: 10,
    });
    assert.equal(closeRound(tie, { judge: decision('lab_1') }).state.blocks.b_s0_0!.owner, 'lab_1');
    assert.equal(
      closeRound(
        edit(tie, (d) => void (d.labs.lab_2!.reputation = 0.99)),
        { judge: null },
      ).state.blocks.b_s0_0!.owner,
      'lab_2',
    );
    // A bid its bidder can no longer pay at the close is not valid; a later bid replaces an earlier one.
    s = must(must(open(), 'lab_1', { action_type: 'bid', amount: 30 }), 'lab_2', { action_type: 'bid', amount: 20 });
    s = must(s, 'lab_2', { action_type: 'bid', amount: 9 }, 'bid_placed');
    s = edit(s, (d) => {
      d.labs.lab_1!.budget = 25;
      d.ledger.initialMoney -= 75;
    });
    ({ state } = closeRound(s, { judge: null }));
    assert.equal(state.blocks.b_s0_0!.owner, 'lab_2');
    assert.equal(state.ledger.burned, 9);
    // Nobody bids: the capacity is withdrawn.
    ({ state, report } = closeRound(open(), { judge: null }));
    assert.equal(state.blocks.b_s0_0, undefined);
    assert.equal(state.ledger.burned, 0);
    assert.match(report.shocks[0]!.text, /no valid bid/);
  });
  test('bid: no auction, below the reserve, above the budget, NaN or negative are refused and change nothing', () => {
    rejects(fixture(), 'lab_0', { action_type: 'bid', amount: 10 }, 'no_auction');
    const s = edit(shockAt('emergency_auction'), (d) => void (d.auction = announcedAuction(d, 0)));
    rejects(s, 'lab_0', { action_type: 'bid', amount: 7.99 }, 'bid_too_low');
    rejects(s, 'lab_0', { action_type: 'bid', amount: 100.01 }, 'budget_overspend');
    rejects(s, 'lab_0', { action_type: 'bid', amount: -1 }, 'malformed_action');
    rejects(s, 'lab_0', { action_type: 'bid', amount: Number.NaN }, 'malformed_action');
    rejects(s, 'lab_0', { action_type: 'bid' }, 'malformed_action');
  });
});
