import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyAction, closeRound, createMatch } from '../../src/engine/index.js';
import type { MatchState } from '../../src/engine/types.js';
import { openDecisions } from '../../src/match/idle.js';
import { harness, person, unwrap } from './helpers.js';

const ada = person('ada');
const bo = person('bo');

/** An assignment of every own block of `lab` to its jobs that completes each job (null if the deal has none). */
function fullCover(s: MatchState, lab: string): Record<string, string[]> | null {
  const jobs = Object.values(s.jobs).filter((j) => j.owner === lab);
  const blocks = Object.values(s.blocks).filter((b) => b.owner === lab);
  const got = jobs.map(() => 0);
  const pick: number[] = [];
  const walk = (k: number): boolean => {
    if (k === blocks.length) return jobs.every((j, i) => got[i]! >= j.gpuHoursRequired);
    for (let i = 0; i < jobs.length; i++) {
      if (blocks[k]!.reliability < jobs[i]!.minReliability) continue;
      got[i]! += blocks[k]!.gpuHours;
      pick[k] = i;
      if (walk(k + 1)) return true;
      got[i]! -= blocks[k]!.gpuHours;
    }
    return false;
  };
  if (!walk(0)) return null;
  const out: Record<string, string[]> = {};
  blocks.forEach((b, k) => (out[jobs[pick[k]!]!.id] ??= []).push(b.id));
  return out;
}

describe('no idle typing', () => {
  test('a coalition proposal is something to decide in the round it is first seen, not every round until it lapses', () => {
    const coalitionsOf = (s: MatchState) => openDecisions(s, 'lab_0').filter((x) => x.startsWith('coalition'));
    let s = createMatch({ task: 'coalition_market', seed: 21 });
    const out = applyAction(s, 'lab_4', {
      action_type: 'form_coalition',
      target_lab_ids: ['lab_0', 'lab_2'],
      message: 'pool spare capacity',
    });
    assert.equal(out.result.ok, true);
    s = out.state;
    assert.equal(s.coalitions['c_1']!.expiresRound, s.params.maxRounds - 1, 'open to the end of the match');
    assert.deepEqual(coalitionsOf(s), ['coalition c_1'], 'proposed this round');
    s = closeRound(s, { judge: null }).state;
    assert.deepEqual(coalitionsOf(s), ['coalition c_1'], 'and the next (proposed at a close, it is first seen then)');
    s = closeRound(s, { judge: null }).state;
    assert.equal(s.coalitions['c_1']!.status, 'proposed', 'still awaiting consent');
    assert.deepEqual(coalitionsOf(s), [], 'after that, silence is an answer');
    assert.deepEqual(
      openDecisions(s, 'lab_2').filter((x) => x.startsWith('coalition')),
      [],
      'for every invitee',
    );
  });

  for (const [task, seed] of [
    ['single_trade', 3],
    ['market_round', 0],
    ['coalition_market', 1],
  ] as const) {
    test(`${task} seed ${seed}: a person with nothing left is marked done and told how to take it back; undo and auto:off hold`, async () => {
      const cover = fullCover(createMatch({ task, seed }), 'lab_0');
      assert.ok(cover, 'this world lets Ada use every block on her jobs');
      const h = await harness();
      const ch = `ad-${task}`;
      unwrap(await h.host.create(ch, 'console', ada, { task, seed, roundSeconds: 600 }));
      unwrap(await h.host.join(ch, ada, 'lab_0'));
      unwrap(await h.host.join(ch, bo, 'lab_1'));
      let m = unwrap(await h.host.start(ch, ada)).match;
      assert.ok(openDecisions(m.state!, 'lab_0').length > 0, 'Ada has jobs to run');
      // Every job but the last allocated: a block is still spare for the last one, so she is not done yet.
      const jobs = Object.entries(cover);
      let last;
      for (const [i, [job, blocks]] of jobs.entries()) {
        last = unwrap(await h.host.act(ch, ada, { action_type: 'allocate_to_job', job_id: job, block_ids: blocks }));
        if (i < jobs.length - 1)
          assert.ok(!last.match.done.includes('lab_0'), `not done while ${jobs.at(-1)![0]} is open`);
      }
      m = last!.match;
      assert.deepEqual([m.done, m.autoDone], [['lab_0'], ['lab_0']], 'marked done automatically');
      assert.equal(m.state!.round, 0, 'the round stays open for Bo');
      const notice = last!.reply!.private.find(
        (p) => p.userId === ada.userId && p.title === 'Lab A: nothing left to decide in round 1',
      )!;
      assert.match(
        notice.text,
        /no job of yours can still earn from more GPU-hours, you hold no block another lab could buy, and no offer, coalition or auction waits on you\. So you are marked done for round 1\./,
      );
      assert.match(
        notice.text,
        /Round 1 closes when its timer runs out or every seat is done\. Until then you can still act .*`done undo:true` takes the done back\./,
      );
      assert.deepEqual(
        notice.buttons?.map((b) => b.command),
        ['done undo:true'],
      );
      // Every sentence holds: she can still act, and undo takes her back into the round for good.
      unwrap(
        await h.host.act(ch, ada, {
          action_type: 'send_message',
          target_lab_id: null,
          message: 'All set here, good luck.',
        }),
      );
      m = unwrap(await h.host.done(ch, ada, 0, 'undo')).match;
      assert.deepEqual(m.done, [], 'not done after all');
      m = unwrap(
        await h.host.act(ch, ada, { action_type: 'send_message', target_lab_id: null, message: 'Still here.' }),
      ).match;
      assert.deepEqual(m.done, [], 'not marked again in this round after an undo');
      // auto:off: never marked automatically in this match, even in a round with nothing to decide.
      unwrap(await h.host.done(ch, ada, 0, 'auto-off'));
      unwrap(await h.host.done(ch, ada));
      m = unwrap(await h.host.done(ch, bo)).match;
      m = (await h.host.current(ch))!;
      assert.equal(m.state!.round, 1, 'round 1 closed when both said done');
      if (openDecisions(m.state!, 'lab_0').length === 0)
        assert.ok(!m.done.includes('lab_0'), 'auto:off holds in round 2');
      await h.host.stop();
    });
  }

  test('single_trade seed 498734: a job filled while a spare block could still be sold does not end the round', async () => {
    const h = await harness();
    unwrap(await h.host.create('sp', 'console', ada, { task: 'single_trade', seed: 498734, roundSeconds: 0 }));
    unwrap(await h.host.join('sp', ada, 'lab_0'));
    unwrap(await h.host.start('sp', ada));
    const r = unwrap(
      await h.host.act('sp', ada, { action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: ['b_0_0'] }),
    );
    assert.equal(r.match.state!.round, 0, 'round 1 is still open');
    assert.deepEqual(r.match.done, []);
    assert.deepEqual(openDecisions(r.match.state!, 'lab_0'), ['spare block b_0_1']);
    await h.host.stop();
  });
});
