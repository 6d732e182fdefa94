import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyAction, createMatch } from '../../src/engine/index.js';
import type { MatchState, TaskName } from '../../src/engine/index.js';
import { defaultOpponents } from '../../src/engine/gym.js';
import { answerOffer } from '../../src/host/answers.js';

/** The answer of the block's owner to lab_0's request to buy `blockId` for `pay` credits (lab_0 rich enough). */
function answerTo(s0: MatchState, blockId: string, pay: number) {
  const owner = s0.blocks[blockId]!.owner;
  const { state } = applyAction(s0, 'lab_0', { action_type: 'send_offer', target_lab_id: owner, requested_block_ids: [blockId], payment: pay });
  const a = answerOffer(state, owner, state.config.scripted[owner]!, 'o_1')!;
  return { said: (a.actions[0] as { message: string }).message, did: (a.actions[1] as { action_type: string }).action_type };
}

describe('a scripted seat says whether a block is for sale', () => {
  test('"not for sale for 80 credits or less" only when 80 is refused; "ask again" only when a price up to 80 is accepted or countered', () => {
    const seen = { notForSale: 0, askAgain: 0 };
    for (const task of ['single_trade', 'market_round', 'coalition_market'] as TaskName[]) {
      for (let seed = 0; seed < 20; seed++) {
        const created = createMatch({ task, seed, scripted: defaultOpponents(task, seed, 'lab_0') });
        const s0: MatchState = { ...created, labs: { ...created.labs, lab_0: { ...created.labs['lab_0']!, budget: 500 } } };
        for (const b of Object.values(s0.blocks)) {
          if (b.owner === 'lab_0') continue;
          const low = answerTo(s0, b.id, 5);
          if (low.did !== 'reject_offer') continue;
          const at80 = answerTo(s0, b.id, 80).did;
          const where = `${task} seed ${seed} ${b.id}: ${low.said}`;
          if (/Not for sale for 80 credits or less: try another lab's blocks\.$/.test(low.said)) {
            seen.notForSale++;
            assert.equal(at80, 'reject_offer', where);
          } else if (/ask again\.$/.test(low.said)) {
            seen.askAgain++;
            assert.ok(at80 === 'accept_offer' || at80 === 'counter_offer', where);
          }
        }
      }
    }
    assert.ok(seen.notForSale > 20 && seen.askAgain > 20, `both answers occur: ${JSON.stringify(seen)}`);
  });

  test('coalition_market seed 8: Lab B (deceptive) needs b_1_0 and says it is not for sale, whatever the offer', () => {
    const s0 = createMatch({ task: 'coalition_market', seed: 8, scripted: defaultOpponents('coalition_market', 8, 'lab_0') });
    for (const pay of [15, 30, 60]) {
      const a = answerTo(s0, 'b_1_0', pay);
      assert.equal(a.did, 'reject_offer');
      assert.equal(a.said, "No to o_1: we need b_1_0 for our own jobs. Not for sale for 80 credits or less: try another lab's blocks.");
    }
  });
});
