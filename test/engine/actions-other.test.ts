/**
 * applyAction: pitches, capacity, coalitions, allocation, messages, wait and finish (docs/RULES.md §3.5–3.13).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { act, edit, fixture, must, rejects, withoutActor } from './helpers.js';

describe('make_pitch / counter_pitch', () => {
  const s = fixture();
  test('records the latest pitch per seat, public, reward 0', () => {
    let t = must(
      s,
      'lab_0',
      { action_type: 'make_pitch', message: 'We need 4 GPU-hours for j_0_0 by round 2.', job_ids: ['j_0_0'] },
      'pitch_recorded',
    );
    t = must(t, 'lab_0', { action_type: 'make_pitch', message: 'Second version of our pitch here.' });
    assert.equal(t.pitches.length, 1);
    assert.equal(t.pitches[0]!.text, 'Second version of our pitch here.');
    assert.equal(t.messages.at(-1)!.to, null);
    const c = act(t, 'lab_1', {
      action_type: 'counter_pitch',
      target_lab_id: 'lab_0',
      message: 'Our need is more urgent than theirs.',
    });
    assert.equal(c.result.code, 'counter_pitch_recorded');
    assert.equal(c.state.pitches.find((p) => p.lab === 'lab_1')!.replyTo, 'lab_0');
    assert.equal(c.result.reward.normalized_reward, 0);
  });
  test('errors', () => {
    rejects(s, 'lab_0', { action_type: 'make_pitch', message: '   too short ' }, 'empty_pitch');
    rejects(
      s,
      'lab_0',
      { action_type: 'make_pitch', message: 'A long enough pitch text', job_ids: ['j_1_0'] },
      'unknown_job',
    );
    rejects(
      s,
      'lab_0',
      { action_type: 'make_pitch', message: 'A long enough pitch text', job_ids: ['j_0_0', 'j_0_0'] },
      'duplicate_block',
    );
    rejects(
      s,
      'lab_1',
      { action_type: 'counter_pitch', target_lab_id: 'lab_0', message: 'A long enough pitch text' },
      'no_pitch_to_counter',
    );
    rejects(
      s,
      'lab_1',
      { action_type: 'counter_pitch', target_lab_id: 'lab_8', message: 'A long enough pitch text' },
      'unknown_lab',
    );
    rejects(s, 'lab_1', { action_type: 'counter_pitch', target_lab_id: 'lab_0', message: 'short' }, 'empty_pitch');
    const settled = edit(s, (d) => void (d.jobs.j_0_0!.outcome = 'missed'));
    rejects(
      settled,
      'lab_0',
      { action_type: 'make_pitch', message: 'A long enough pitch text', job_ids: ['j_0_0'] },
      'unknown_job',
    );
  });
});

describe('reserve_capacity', () => {
  const s = fixture();
  test('reserves for a job or the lab', () => {
    const t = must(
      s,
      'lab_0',
      { action_type: 'reserve_capacity', block_ids: ['b_0_0', 'b_0_1'], job_id: 'j_0_0' },
      'capacity_reserved',
    );
    assert.deepEqual([t.blocks.b_0_0!.status, t.blocks.b_0_0!.reservedFor], ['reserved', 'j_0_0']);
    const u = must(s, 'lab_0', { action_type: 'reserve_capacity', block_ids: ['b_0_2'] });
    assert.equal(u.blocks.b_0_2!.reservedFor, 'lab_0');
  });
  test('errors; atomic over several blocks', () => {
    rejects(s, 'lab_0', { action_type: 'reserve_capacity', block_ids: [] }, 'empty_block_list');
    rejects(s, 'lab_0', { action_type: 'reserve_capacity', block_ids: ['b_0_0', 'b_0_0'] }, 'duplicate_block');
    rejects(s, 'lab_0', { action_type: 'reserve_capacity', block_ids: ['b_0_0', 'nope'] }, 'unknown_block');
    rejects(s, 'lab_0', { action_type: 'reserve_capacity', block_ids: ['b_0_0', 'b_1_0'] }, 'unowned_block');
    const r = must(s, 'lab_0', { action_type: 'reserve_capacity', block_ids: ['b_0_1'] });
    rejects(r, 'lab_0', { action_type: 'reserve_capacity', block_ids: ['b_0_0', 'b_0_1'] }, 'unavailable_block');
    rejects(s, 'lab_0', { action_type: 'reserve_capacity', block_ids: ['b_0_0'], job_id: 'j_1_0' }, 'unknown_job');
  });
});

describe('release_capacity', () => {
  const s = must(fixture(), 'lab_0', { action_type: 'reserve_capacity', block_ids: ['b_0_0'] });
  test('reserved → available, reward 0', () => {
    const out = act(s, 'lab_0', { action_type: 'release_capacity', block_ids: ['b_0_0'] });
    assert.deepEqual(
      [out.result.code, out.state.blocks.b_0_0!.status, out.state.blocks.b_0_0!.reservedFor],
      ['capacity_released', 'available', null],
    );
    assert.equal(out.result.reward.normalized_reward, 0);
  });
  test('errors', () => {
    rejects(s, 'lab_0', { action_type: 'release_capacity', block_ids: [] }, 'empty_block_list');
    rejects(s, 'lab_0', { action_type: 'release_capacity', block_ids: ['b_0_0', 'b_0_0'] }, 'duplicate_block');
    rejects(s, 'lab_0', { action_type: 'release_capacity', block_ids: ['zzz'] }, 'unknown_block');
    rejects(s, 'lab_0', { action_type: 'release_capacity', block_ids: ['b_1_0'] }, 'unowned_block');
    rejects(s, 'lab_0', { action_type: 'release_capacity', block_ids: ['b_0_0', 'b_0_1'] }, 'not_reserved');
  });
});

describe('form_coalition / commit_to_coalition', () => {
  const s = fixture();
  test('form: proposed, proposer consented, expiry', () => {
    const out = act(s, 'lab_0', {
      action_type: 'form_coalition',
      target_lab_ids: ['lab_2', 'lab_1'],
      message: 'pool',
      duration: 2,
    });
    assert.equal(out.result.code, 'coalition_proposed');
    const c = out.state.coalitions.c_1!;
    assert.deepEqual(c.members, ['lab_0', 'lab_1', 'lab_2']);
    assert.deepEqual(
      [c.status, c.expiresRound, c.commitments.lab_0!.consented, c.commitments.lab_1!.consented],
      ['proposed', 1, true, false],
    );
    assert.equal(out.result.reward.normalized_reward, 0);
    const d = act(s, 'lab_0', { action_type: 'form_coalition', target_lab_ids: ['lab_1'] });
    assert.equal(d.state.coalitions.c_1!.expiresRound, 4);
  });
  test('form errors', () => {
    rejects(
      fixture('single_trade'),
      'lab_0',
      { action_type: 'form_coalition', target_lab_ids: ['lab_1'] },
      'coalitions_disabled',
    );
    rejects(s, 'lab_0', { action_type: 'form_coalition', target_lab_ids: ['lab_0'] }, 'invalid_coalition_target');
    rejects(s, 'lab_0', { action_type: 'form_coalition', target_lab_ids: ['lab_5'] }, 'invalid_coalition_target');
    rejects(s, 'lab_0', { action_type: 'form_coalition', target_lab_ids: ['lab_1', 'lab_1'] }, 'duplicate_block');
    const t = must(s, 'lab_0', { action_type: 'form_coalition', target_lab_ids: ['lab_1'] });
    rejects(t, 'lab_1', { action_type: 'form_coalition', target_lab_ids: ['lab_0'] }, 'duplicate_coalition');
  });
  test('consent (first commit, may be empty) activates; blocks committed, payment escrowed', () => {
    let t = must(s, 'lab_0', { action_type: 'form_coalition', target_lab_ids: ['lab_1'] });
    t = must(
      t,
      'lab_0',
      { action_type: 'commit_to_coalition', coalition_id: 'c_1', block_ids: ['b_0_0'], payment: 10 },
      'coalition_committed',
    );
    assert.deepEqual([t.blocks.b_0_0!.status, t.blocks.b_0_0!.committedTo], ['committed', 'c_1']);
    assert.equal(t.labs.lab_0!.budget, 90);
    assert.equal(t.coalitions.c_1!.commitments.lab_0!.escrow, 10);
    assert.equal(t.coalitions.c_1!.status, 'proposed');
    t = must(t, 'lab_1', { action_type: 'commit_to_coalition', coalition_id: 'c_1' }, 'coalition_activated');
    assert.equal(t.coalitions.c_1!.status, 'active');
  });
  test('commit errors', () => {
    const t = must(s, 'lab_0', { action_type: 'form_coalition', target_lab_ids: ['lab_1'] });
    rejects(t, 'lab_1', { action_type: 'commit_to_coalition', coalition_id: 'c_9' }, 'unknown_coalition');
    rejects(t, 'lab_2', { action_type: 'commit_to_coalition', coalition_id: 'c_1' }, 'not_coalition_member');
    rejects(t, 'lab_0', { action_type: 'commit_to_coalition', coalition_id: 'c_1' }, 'empty_commitment');
    rejects(
      t,
      'lab_1',
      { action_type: 'commit_to_coalition', coalition_id: 'c_1', block_ids: ['b_1_0', 'b_1_0'] },
      'duplicate_block',
    );
    rejects(
      t,
      'lab_1',
      { action_type: 'commit_to_coalition', coalition_id: 'c_1', block_ids: ['b_1_0', 'b_9'] },
      'unknown_block',
    );
    rejects(
      t,
      'lab_1',
      { action_type: 'commit_to_coalition', coalition_id: 'c_1', block_ids: ['b_1_0', 'b_0_0'] },
      'unowned_block',
    );
    rejects(
      t,
      'lab_1',
      { action_type: 'commit_to_coalition', coalition_id: 'c_1', payment: 100.5 },
      'budget_overspend',
    );
    const failed = edit(t, (d) => void (d.blocks.b_1_1!.status = 'failed'));
    rejects(
      failed,
      'lab_1',
      { action_type: 'commit_to_coalition', coalition_id: 'c_1', block_ids: ['b_1_0', 'b_1_1'] },
      'unavailable_block',
    );
    const closed = edit(t, (d) => void (d.coalitions.c_1!.status = 'lapsed'));
    rejects(closed, 'lab_1', { action_type: 'commit_to_coalition', coalition_id: 'c_1' }, 'coalition_closed');
  });
});

describe('allocate_to_job', () => {
  const s = fixture();
  test('blocks used, hours and energy accumulate across allocations (partial → complete)', () => {
    let t = must(
      s,
      'lab_0',
      { action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: ['b_0_0'] },
      'job_allocated',
    );
    assert.deepEqual(
      [t.jobs.j_0_0!.allocatedHours, t.jobs.j_0_0!.energyCost, t.blocks.b_0_0!.status, t.blocks.b_0_0!.usedFor],
      [2, 2, 'used', 'j_0_0'],
    );
    t = must(t, 'lab_0', { action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: ['b_0_1'] });
    assert.deepEqual(
      [t.jobs.j_0_0!.allocatedHours, t.jobs.j_0_0!.allocatedBlockIds, t.jobs.j_0_0!.outcome],
      [4, ['b_0_0', 'b_0_1'], 'pending'],
    );
    rejects(t, 'lab_0', { action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: ['b_0_2'] }, 'job_completed');
    rejects(t, 'lab_0', { action_type: 'allocate_to_job', job_id: 'j_0_1', block_ids: ['b_0_0'] }, 'block_used');
  });
  test('reserved blocks can be allocated (reservation cleared)', () => {
    const r = must(s, 'lab_0', { action_type: 'reserve_capacity', block_ids: ['b_0_0'], job_id: 'j_0_0' });
    const t = must(r, 'lab_0', { action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: ['b_0_0'] });
    assert.equal(t.blocks.b_0_0!.reservedFor, null);
  });
  test('errors; atomic', () => {
    const alloc = (job: string, ids: string[]) => ({ action_type: 'allocate_to_job', job_id: job, block_ids: ids });
    rejects(s, 'lab_0', alloc('j_1_0', ['b_0_0']), 'unknown_job');
    rejects(s, 'lab_0', alloc('nope', ['b_0_0']), 'unknown_job');
    rejects(
      edit(s, (d) => void (d.jobs.j_0_0!.outcome = 'missed')),
      'lab_0',
      alloc('j_0_0', ['b_0_0']),
      'job_settled',
    );
    rejects(s, 'lab_0', alloc('j_0_0', []), 'empty_block_list');
    rejects(s, 'lab_0', alloc('j_0_0', ['b_0_0', 'b_0_0']), 'duplicate_block');
    rejects(s, 'lab_0', alloc('j_0_0', ['b_0_0', 'x']), 'unknown_block');
    rejects(s, 'lab_0', alloc('j_0_0', ['b_0_0', 'b_1_0']), 'unowned_block');
    rejects(
      edit(s, (d) => void (d.blocks.b_0_1!.status = 'failed')),
      'lab_0',
      alloc('j_0_0', ['b_0_0', 'b_0_1']),
      'failed_block',
    );
    rejects(
      edit(s, (d) => void (d.blocks.b_0_1!.reliability = 0.79)),
      'lab_0',
      alloc('j_0_0', ['b_0_0', 'b_0_1']),
      'low_reliability',
    );
    const committed = edit(s, (d) => Object.assign(d.blocks.b_0_1!, { status: 'committed', committedTo: 'c_1' }));
    rejects(committed, 'lab_0', alloc('j_0_0', ['b_0_0', 'b_0_1']), 'unavailable_block');
  });
  test('reward 0 at allocation: value is realised at settlement', () => {
    const out = act(s, 'lab_0', { action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: ['b_0_0', 'b_0_1'] });
    assert.equal(out.result.reward.normalized_reward, 0);
  });
});

describe('send_message / wait', () => {
  const s = fixture();
  test('public and direct messages', () => {
    let t = must(s, 'lab_0', { action_type: 'send_message', message: 'hello all' }, 'message_sent');
    assert.deepEqual(t.messages.at(-1), { round: 0, from: 'lab_0', to: null, text: 'hello all', kind: 'message' });
    t = must(t, 'lab_0', { action_type: 'send_message', target_lab_id: 'lab_2', message: 'psst' });
    assert.equal(t.messages.at(-1)!.to, 'lab_2');
  });
  test('errors', () => {
    rejects(s, 'lab_0', { action_type: 'send_message', message: '   ' }, 'empty_message');
    rejects(s, 'lab_0', { action_type: 'send_message', target_lab_id: 'lab_6', message: 'x' }, 'unknown_lab');
    rejects(s, 'lab_0', { action_type: 'send_message', target_lab_id: 'lab_0', message: 'x' }, 'unknown_lab');
  });
  test('wait changes only the seat stats and is never spam', () => {
    let t = s;
    for (let i = 0; i < 5; i++) {
      const out = act(t, 'lab_0', { action_type: 'wait' });
      assert.deepEqual([out.result.code, out.result.reward.normalized_reward], ['waited', 0]);
      t = out.state;
    }
    assert.equal(withoutActor(t, 'lab_0'), withoutActor(s, 'lab_0'));
    assert.equal(t.seats.lab_0!.steps, 5);
  });
});

describe('finish', () => {
  test('settles the seat now: jobs, idle reservations, offers, budget efficiency; match over when all finish', () => {
    let s = fixture();
    s = must(s, 'lab_0', { action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: ['b_0_0', 'b_0_1'] });
    s = must(s, 'lab_0', { action_type: 'reserve_capacity', block_ids: ['b_0_2'] });
    s = must(s, 'lab_0', { action_type: 'send_offer', target_lab_id: 'lab_1', payment: 5 });
    s = must(s, 'lab_2', { action_type: 'send_offer', target_lab_id: 'lab_0', payment: 5 });
    const out = act(s, 'lab_0', { action_type: 'finish' });
    assert.equal(out.result.code, 'finished');
    const t = out.state;
    assert.deepEqual(
      [t.jobs.j_0_0!.outcome, t.jobs.j_0_0!.realisedValue, t.jobs.j_0_1!.outcome, t.jobs.j_0_1!.realisedValue],
      ['completed', 86, 'missed', 0],
    );
    assert.deepEqual(
      [t.blocks.b_0_2!.status, t.offers.o_1!.status, t.offers.o_2!.status],
      ['available', 'withdrawn', 'rejected'],
    );
    const r = out.result.reward;
    assert.equal(r.job_utility, 0.5233); // 86/150 − 0.05 idle reservation
    assert.equal(r.budget_efficiency, 0.5); // 1 of 2 jobs × budget 100/100
    assert.equal(t.labs.lab_0!.finished, true);
    assert.equal(t.over, false);
    const all = must(must(t, 'lab_1', { action_type: 'finish' }), 'lab_2', { action_type: 'finish' });
    assert.equal(all.over, true);
  });
});
