import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { jobValue } from '../../src/engine/index.js';
import type { MatchState } from '../../src/engine/types.js';
import { harness, person, postText, unwrap } from './helpers.js';

const ada = person('ada');

/** Budgets and job values/hours as they would be printed: none may appear in the bot's own words. */
function privateNumbers(s: MatchState): Set<string> {
  const out = new Set<string>();
  for (const lab of Object.values(s.labs)) out.add(lab.budget.toFixed(2)).add(lab.initialBudget.toFixed(2));
  for (const j of Object.values(s.jobs))
    out
      .add(jobValue(j).toFixed(2))
      .add(j.baseValue.toFixed(2))
      .add(`${j.id} (${j.gpuHoursRequired} GPU-h)`)
      .add(`${j.gpuHoursRequired} GPU-h by`);
  return out;
}

/** The bot's own words of a post string: player-written spans (marked) replaced. */
const botWords = (t: string) => t.replace(/\uE000[^\uE001]*\uE001|\uE002[^\uE003]*\uE003/g, '“…”');

describe('round narration', () => {
  test('a 5-seat round-close post tells what each seat did, with terms and words, and no private value', async () => {
    const h = await harness();
    unwrap(await h.host.create('n5', 'console', ada, { task: 'coalition_market', seed: 0, roundSeconds: 0 }));
    unwrap(await h.host.join('n5', ada, 'lab_0'));
    let m = unwrap(await h.host.start('n5', ada)).match;
    assert.equal(m.state!.labIds.length, 5, 'five seats');
    const s = m.state!;
    const mine = Object.values(s.blocks).filter((b) => b.owner === 'lab_0');
    const theirs = Object.values(s.blocks).filter((b) => b.owner === 'lab_1');
    const job = Object.values(s.jobs).find((j) => j.owner === 'lab_0')!;
    // The person's round: an offer with a note, a pitch, a public message, an allocation.
    unwrap(
      await h.host.act('n5', ada, {
        action_type: 'send_offer',
        target_lab_id: 'lab_1',
        block_ids: [mine[0]!.id],
        requested_block_ids: [theirs[0]!.id],
        payment: 3,
        message: 'fair swap for your block',
      }),
    );
    unwrap(
      await h.host.act('n5', ada, {
        action_type: 'make_pitch',
        message: `Lab A argues for ${job.id}: we hold the blocks and need only a little more.`,
        job_ids: [job.id],
      }),
    );
    unwrap(
      await h.host.act('n5', ada, {
        action_type: 'send_message',
        target_lab_id: null,
        message: 'Anyone selling reliable capacity?',
      }),
    );
    unwrap(await h.host.act('n5', ada, { action_type: 'allocate_to_job', job_id: job.id, block_ids: [mine[1]!.id] }));
    const secrets = privateNumbers(m.state!);
    const posts: string[] = [];
    for (let round = 0; round < 4 && m.phase === 'running'; round++) {
      const d = unwrap(await h.host.done('n5', ada));
      assert.ok(d.closed);
      posts.push(d.closed.public.map(postText).join('\n---\n'));
      m = d.match;
      for (const v of privateNumbers(m.state!)) secrets.add(v);
    }
    const first = posts[0]!;
    assert.match(first, /Lab A \(👤 .*ada.*\)\n/u, 'a field for the person');
    assert.match(
      first,
      /offered Lab B o_1: b_0_\d \(\d+ GPU-h @\d\.\d\d\) \+ 3\.00 credits for b_1_\d \(\d+ GPU-h @\d\.\d\d\) — “\W?fair swap for your block\W?”/u,
    );
    assert.match(first, /pitched: “\W?Lab A argues for j_0_\d/u);
    assert.match(first, /said: “\W?Anyone selling reliable capacity\?\W?”/u);
    assert.match(first, /put 1 block to work on its jobs/);
    const all = posts.join('\n');
    // Scripted seats are told in words too (allocations, messages, offers): no bare action names.
    assert.match(
      all,
      /Lab [B-E] \(scripted\)\n(.+\n)*?(put \d+ blocks? to work on its jobs|said: |offered |accepted |proposed |committed )/,
    );
    assert.doesNotMatch(all, /\b(allocate_to_job|send_message|send_offer|make_pitch)\b/, 'no action names');
    const words = botWords(all);
    const leaks = [...secrets].filter((v) => words.includes(v));
    assert.deepEqual(leaks, [], "no private value in the bot's words");
    await h.host.stop();
  });
});
