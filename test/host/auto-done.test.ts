import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyAction, closeRound, createMatch } from '../../src/engine/index.js';
import type { MatchState } from '../../src/engine/types.js';
import { openDecisions } from '../../src/match/idle.js';
import { harness, person, postText, unwrap } from './helpers.js';

const ada = person('ada');
const bo = person('bo');

/** For each lab, one own block per job that completes it alone (null if the deal has none). */
function selfSufficient(s: MatchState): Record<string, [string, string][]> | null {
  const out: Record<string, [string, string][]> = {};
  for (const lab of s.labIds) {
    const used = new Set<string>();
    out[lab] = [];
    for (const j of Object.values(s.jobs).filter((x) => x.owner === lab)) {
      const b = Object.values(s.blocks).find((x) => x.owner === lab && !used.has(x.id) && x.reliability >= j.minReliability && x.gpuHours >= j.gpuHoursRequired);
      if (!b) return null;
      used.add(b.id);
      out[lab]!.push([j.id, b.id]);
    }
  }
  return out;
}

describe('no idle typing', () => {
  test('a coalition proposal is something to decide in the round it is first seen, not every round until it lapses', () => {
    const coalitionsOf = (s: MatchState) => openDecisions(s, 'lab_0').filter((x) => x.startsWith('coalition'));
    let s = createMatch({ task: 'coalition_market', seed: 21 });
    const out = applyAction(s, 'lab_4', { action_type: 'form_coalition', target_lab_ids: ['lab_0', 'lab_2'], message: 'pool spare capacity' });
    assert.equal(out.result.ok, true);
    s = out.state;
    assert.equal(s.coalitions['c_1']!.expiresRound, s.params.maxRounds - 1, 'open to the end of the match');
    assert.deepEqual(coalitionsOf(s), ['coalition c_1'], 'proposed this round');
    s = closeRound(s, { judge: null }).state;
    assert.deepEqual(coalitionsOf(s), ['coalition c_1'], 'and the next (proposed at a close, it is first seen then)');
    s = closeRound(s, { judge: null }).state;
    assert.equal(s.coalitions['c_1']!.status, 'proposed', 'still awaiting consent');
    assert.deepEqual(coalitionsOf(s), [], 'after that, silence is an answer');
    assert.deepEqual(openDecisions(s, 'lab_2').filter((x) => x.startsWith('coalition')), [], 'for every invitee');
  });

  test('a person with nothing to decide is marked done and told; a round of such seats closes at once', async () => {
    let seed = 0;
    while (selfSufficient(createMatch({ task: 'single_trade', seed })) === null) seed++;
    const plan = selfSufficient(createMatch({ task: 'single_trade', seed }))!;
    const h = await harness();
    unwrap(await h.host.create('ad', 'console', ada, { task: 'single_trade', seed, roundSeconds: 600 }));
    unwrap(await h.host.join('ad', ada, 'lab_0'));
    unwrap(await h.host.join('ad', bo, 'lab_1'));
    let m = unwrap(await h.host.start('ad', ada)).match;
    assert.ok(openDecisions(m.state!, 'lab_0').length > 0, 'Ada has jobs to run');
    assert.deepEqual(m.done, []);
    // Ada runs all her jobs: she is marked done and told so; the round waits for Bo (his timer runs).
    let last;
    for (const [job, block] of plan['lab_0']!) last = unwrap(await h.host.act('ad', ada, { action_type: 'allocate_to_job', job_id: job, block_ids: [block] }));
    m = last!.match;
    assert.deepEqual(m.done, ['lab_0']);
    assert.equal(m.state!.round, 0, 'the round stays open for Bo');
    assert.ok(last!.reply?.private.some((p) => p.userId === ada.userId && p.title === 'Lab A: nothing left to decide in round 1' && /marked done for round 1\./.test(p.text)));
    // She can still act (a public message) after being marked done.
    unwrap(await h.host.act('ad', ada, { action_type: 'send_message', target_lab_id: null, message: 'All set here, good luck.' }));
    // Bo runs his: nobody has anything to decide, so the round closes at once (no timer, no `done`).
    for (const [job, block] of plan['lab_1']!) last = unwrap(await h.host.act('ad', bo, { action_type: 'allocate_to_job', job_id: job, block_ids: [block] }));
    const text = (last!.reply?.public ?? []).map(postText).join('\n');
    assert.match(text, /Round 1\/\d closed: every seat is done/);
    await h.host.stop();
  });
});
