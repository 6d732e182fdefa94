/**
 * observe and publicView: a seat sees its own state in full and only public facts of the others (docs/RULES.md §0).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { demandLevel, observe, publicLabs, publicView } from '../../src/engine/index.js';
import { close, fixture, must } from './helpers.js';

describe('observe', () => {
  let s = fixture('market_round', 1, { scripted: { lab_2: 'selfish' } });
  s = must(s, 'lab_0', { action_type: 'form_coalition', target_lab_ids: ['lab_1'] });
  s = must(s, 'lab_0', { action_type: 'commit_to_coalition', coalition_id: 'c_1', payment: 12 });
  s = must(s, 'lab_1', { action_type: 'commit_to_coalition', coalition_id: 'c_1', payment: 8 });
  s = must(s, 'lab_1', { action_type: 'send_message', target_lab_id: 'lab_0', message: 'secret plan' });
  s = must(s, 'lab_2', { action_type: 'send_message', message: 'hello everyone' });
  s = must(s, 'lab_1', { action_type: 'send_offer', target_lab_id: 'lab_2', payment: 3 });
  s = must(s, 'lab_1', { action_type: 'reserve_capacity', block_ids: ['b_1_0'], job_id: 'j_1_0' });

  test('own jobs, blocks, budget and escrow in full', () => {
    const o = observe(s, 'lab_0');
    assert.equal(o.self.budget, 88);
    assert.equal(o.self.escrow, 12);
    assert.deepEqual(
      o.self.jobs.map((j) => j.id),
      ['j_0_0', 'j_0_1'],
    );
    assert.deepEqual(
      o.self.blocks.map((b) => b.id),
      ['b_0_0', 'b_0_1', 'b_0_2'],
    );
    assert.equal(o.self.actionsLeftThisRound, 10);
    assert.equal(o.labs.length, 2);
    assert.ok(o.labs.every((l) => l.id !== 'lab_0'));
  });
  test('nothing private of the others', () => {
    const o = observe(s, 'lab_0');
    const text = JSON.stringify(o);
    for (const id of ['j_1_0', 'j_1_1', 'j_2_0', 'j_2_1']) assert.ok(!text.includes(id), `${id} leaked`);
    assert.ok(!text.includes('selfish'));
    assert.ok(!text.includes('shockSchedule'));
    for (const l of o.labs) assert.ok(!('budget' in l));
    assert.equal(o.myCoalitions[0]!.commitments.lab_1!.escrow, 0);
    assert.equal(o.myCoalitions[0]!.commitments.lab_0!.escrow, 12);
    assert.ok(!o.blocks.some((b) => 'reservedFor' in b || 'usedFor' in b));
    assert.deepEqual(o.offers, []);
    assert.deepEqual(
      o.messages.map((m) => m.text),
      ['secret plan', 'hello everyone'],
    );
  });
  test('direct messages reach only their two parties; offers only theirs', () => {
    const o2 = observe(s, 'lab_2');
    assert.deepEqual(
      o2.messages.map((m) => m.text),
      ['hello everyone'],
    );
    assert.deepEqual(
      o2.offers.map((o) => o.id),
      ['o_1'],
    );
    assert.equal(o2.myCoalitions.length, 0);
    assert.deepEqual(o2.coalitions[0]!.consented, ['lab_0', 'lab_1']);
    assert.ok(!JSON.stringify(o2.coalitions).includes('escrow'));
  });
  test('public lab facts: coarse budget band and demand level, owned block ids', () => {
    for (const l of publicLabs(s)) {
      assert.equal(l.demandLevel, demandLevel(s, l.id));
      assert.deepEqual(
        l.blockIds,
        Object.values(s.blocks)
          .filter((b) => b.owner === l.id)
          .map((b) => b.id),
      );
    }
    assert.equal(publicLabs(s)[0]!.budgetBand, 'medium');
  });
  test('unknown seat throws (a programming error, not user input)', () => {
    assert.throws(() => observe(s, 'lab_7'));
    assert.throws(() => observe(s, 'constructor'));
  });
  test('public view: public messages, active offers, no budgets, jobs or policies', () => {
    const v = publicView(close(s));
    const text = JSON.stringify(v);
    assert.ok(!text.includes('secret plan'));
    assert.ok(!/j_\d_\d/.test(text));
    assert.ok(!text.includes('"budget"'));
    assert.ok(!text.includes('selfish'));
    assert.equal(v.labs.length, 3);
    assert.equal(typeof v.labs[0]!.cumulativeReward, 'number');
  });
});
