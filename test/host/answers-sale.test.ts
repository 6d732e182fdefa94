import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyAction, closeRound, createMatch } from '../../src/engine/index.js';
import type { MatchState, TaskName } from '../../src/engine/index.js';
import { defaultOpponents } from '../../src/engine/gym.js';
import { answerOffer } from '../../src/host/answers.js';

/** The answer of the block's owner to lab_0's request to buy `blockId` for `pay` credits (lab_0 rich enough). */
function answerTo(s0: MatchState, blockId: string, pay: number) {
  const owner = s0.blocks[blockId]!.owner;
  const { state, result } = applyAction(s0, 'lab_0', {
    action_type: 'send_offer',
    target_lab_id: owner,
    requested_block_ids: [blockId],
    payment: pay,
  });
  const a = answerOffer(state, owner, state.config.scripted[owner]!, result.created!.offerId!)!;
  return {
    said: (a.actions[0] as { message: string }).message,
    did: (a.actions[1] as { action_type: string }).action_type,
  };
}

describe('a scripted seat says whether a block is for sale', () => {
  test('"not for sale for 80 credits or less" only when 80 is refused; "ask again" only when a price up to 80 is accepted or countered; a grudge only from a retaliatory seat', () => {
    const seen = { notForSale: 0, askAgain: 0, grudge: 0 };
    for (const task of ['single_trade', 'market_round', 'coalition_market'] as TaskName[]) {
      for (let seed = 0; seed < 60; seed++) {
        const created = createMatch({ task, seed, scripted: defaultOpponents(task, seed, 'lab_0') });
        const s0: MatchState = {
          ...created,
          labs: { ...created.labs, lab_0: { ...created.labs['lab_0']!, budget: 500 } },
        };
        for (const b of Object.values(s0.blocks)) {
          if (b.owner === 'lab_0') continue;
          const low = answerTo(s0, b.id, 5);
          if (low.did !== 'reject_offer') continue;
          const at80 = answerTo(s0, b.id, 80).did;
          const where = `${task} seed ${seed} ${b.id}: ${low.said}`;
          if (/Not for sale for 80 credits or less: try another lab's blocks\.$/.test(low.said)) {
            seen.notForSale++;
            assert.equal(at80, 'reject_offer', where);
          } else if (
            /refuses further deals with Lab A: offer o_1 asked for [\d.]+ credits' worth at the reference price of 5 credits per reliable GPU-hour and gave 5\.00, under half; until the end of round 2\. Other labs may still deal with you\.$/.test(
              low.said,
            )
          ) {
            seen.grudge++;
            assert.equal(s0.config.scripted[b.owner], 'retaliatory', where);
          } else if (/ask again\.$/.test(low.said)) {
            seen.askAgain++;
            assert.ok(at80 === 'accept_offer' || at80 === 'counter_offer', where);
          }
        }
      }
    }
    assert.ok(
      seen.notForSale > 50 && seen.grudge > 50 && seen.askAgain > 3,
      `every answer occurs: ${JSON.stringify(seen)}`,
    );
  });

  test('coalition_market seed 8: Lab B (deceptive) needs b_1_3 and says it is not for sale, whatever the offer', () => {
    const s0 = createMatch({
      task: 'coalition_market',
      seed: 8,
      scripted: defaultOpponents('coalition_market', 8, 'lab_0'),
    });
    for (const pay of [15, 30, 60]) {
      const a = answerTo(s0, 'b_1_3', pay);
      assert.equal(a.did, 'reject_offer');
      assert.equal(
        a.said,
        "No to o_1: we need b_1_3 for our own jobs. Not for sale for 80 credits or less: try another lab's blocks.",
      );
    }
  });
  test('rules v4: a grudge is public (half the reference price), says how long it holds, and lapses two rounds on', () => {
    const scripted = { lab_1: 'retaliatory', lab_2: 'cooperative', lab_3: 'selfish' } as const;
    const s0 = createMatch({ task: 'coalition_market', seed: 8, scripted });
    const worth = (5 * s0.blocks['b_1_0']!.gpuHours * s0.blocks['b_1_0']!.reliability).toFixed(2);
    // Half the block's public reference worth or more is no grudge matter, whatever the block is worth to Lab B.
    const fair = applyAction(s0, 'lab_0', {
      action_type: 'send_offer',
      target_lab_id: 'lab_1',
      requested_block_ids: ['b_1_0'],
      payment: Math.ceil(Number(worth) / 2),
    }).state;
    assert.deepEqual(fair.seats['lab_1']!.grudges, []);
    // Under half of it is exploitative: the sender can compute that from what the channel shows.
    const low = applyAction(s0, 'lab_0', {
      action_type: 'send_offer',
      target_lab_id: 'lab_1',
      requested_block_ids: ['b_1_0'],
      payment: 1,
    }).state;
    assert.deepEqual([low.seats['lab_1']!.grudges, low.seats['lab_1']!.grudgeEnds], [['lab_0'], [1]]);
    const first = answerOffer(low, 'lab_1', 'retaliatory', 'o_1')!;
    assert.equal(
      (first.actions[0] as { message: string }).message,
      `No to o_1. Lab B refuses further deals with Lab A: offer o_1 asked for ${worth} credits' worth at the reference price of 5 credits per reliable GPU-hour and gave 1.00, under half; until the end of round 2. Other labs may still deal with you.`,
    );
    // In the next round a fair offer is still refused, with the end of the grudge; after it, the grudge is gone.
    const next = closeRound(low, { judge: null }).state;
    assert.match(
      answerTo(next, 'b_1_2', 40).said,
      /an earlier offer of yours was exploitative; until the end of round 2\. Other labs may still deal with you\.$/,
    );
    const later = closeRound(next, { judge: null }).state;
    assert.deepEqual(later.seats['lab_1']!.grudges, [], 'lapsed when round 3 opened');
    assert.doesNotMatch(answerTo(later, 'b_1_2', 40).said, /refuses further deals/);
  });

  test('rules v3 (stored matches): a retaliatory seat that holds a grudge says so and why, instead of inviting another offer it would refuse', () => {
    const scripted = { lab_1: 'retaliatory', lab_2: 'cooperative', lab_3: 'selfish' } as const;
    const s0 = createMatch({ task: 'coalition_market', seed: 8, scripted, rules: 3 });
    // Fresh: a fair price for b_1_2 is no grudge matter.
    const fair = answerTo(s0, 'b_1_2', 40);
    assert.doesNotMatch(fair.said, /refuses further deals/);
    // 15 credits for the block its jobs need is exploitative (gain < −5): the engine records the grudge.
    const low = applyAction(s0, 'lab_0', {
      action_type: 'send_offer',
      target_lab_id: 'lab_1',
      requested_block_ids: ['b_1_0'],
      payment: 15,
    }).state;
    assert.deepEqual(low.seats['lab_1']!.grudges, ['lab_0']);
    const first = answerOffer(low, 'lab_1', 'retaliatory', 'o_1')!;
    assert.equal(
      (first.actions[0] as { message: string }).message,
      'No to o_1. Lab B refuses further deals with Lab A: offer o_1 was exploitative. Other labs may still deal with you.',
    );
    // Afterwards even the fair offer is refused, and the answer names the earlier offer, not the price.
    const after = answerTo(low, 'b_1_2', 40);
    assert.equal(after.did, 'reject_offer');
    assert.match(
      after.said,
      /^No to o_2\. Lab B refuses further deals with Lab A: an earlier offer of yours was exploitative\. Other labs may still deal with you\.$/,
    );
  });
});
