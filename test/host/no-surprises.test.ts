import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createMatch } from '../../src/engine/index.js';
import { doomedJobs } from '../../src/match/doomed.js';
import { harness, person, postText, unwrap } from './helpers.js';

const ada = person('ada');
const bo = person('bo');

describe('no surprises', () => {
  test('an offer whose block was used is closed at the round close, with a post saying why', async () => {
    const h = await harness();
    unwrap(await h.host.create('ns', 'console', ada, { task: 'market_round', seed: 2, roundSeconds: 0 }));
    unwrap(await h.host.join('ns', ada, 'lab_0'));
    unwrap(await h.host.join('ns', bo, 'lab_1'));
    const m = unwrap(await h.host.start('ns', ada)).match;
    const s = m.state!;
    const wanted = Object.values(s.blocks).find((b) => b.owner === 'lab_1')!;
    const boJob = Object.values(s.jobs).find((j) => j.owner === 'lab_1')!;
    unwrap(
      await h.host.act('ns', ada, {
        action_type: 'send_offer',
        target_lab_id: 'lab_1',
        requested_block_ids: [wanted.id],
        payment: 4,
      }),
    );
    // Bo uses the very block Ada asked for.
    const used = unwrap(
      await h.host.act('ns', bo, { action_type: 'allocate_to_job', job_id: boJob.id, block_ids: [wanted.id] }),
    );
    assert.equal(
      used.match.state!.offers['o_1']!.status,
      'active',
      'still open mid-round (accepting it would fail without penalty)',
    );
    unwrap(await h.host.done('ns', ada));
    const closed = unwrap(await h.host.done('ns', bo));
    assert.equal(closed.match.state!.offers['o_1']!.status, 'invalid');
    const text = closed.closed!.public.map(postText).join('\n');
    assert.match(
      text,
      new RegExp(`Offers closed\\no_1 \\(Lab A → Lab B\\) can no longer happen: ${wanted.id} was used for a job`),
    );
    await h.host.stop();
  });

  test('a job the market can no longer complete is found (and only then)', () => {
    const s0 = createMatch({ task: 'market_round', seed: 5 });
    assert.deepEqual(doomedJobs(s0), [], 'every job is feasible when dealt');
    const job = Object.values(s0.jobs).find((j) => j.owner === 'lab_0')!;
    // Every block at or above the job's reliability is used up elsewhere (a state the engine can reach by allocations).
    const blocks = Object.fromEntries(
      Object.entries(s0.blocks).map(([id, b]) => [
        id,
        b.reliability >= job.minReliability ? { ...b, status: 'used' as const } : b,
      ]),
    );
    const doomed = doomedJobs({ ...s0, blocks });
    const mine = doomed.find((x) => x.jobId === job.id);
    assert.ok(mine, 'the job is reported');
    assert.equal(mine.left, 0);
    assert.equal(mine.missing, job.gpuHoursRequired);
  });

  test('the owner is told privately when its job becomes impossible; the channel is not', async () => {
    const h = await harness();
    // single_trade seed 0: every block reliable enough for Ada's j_0_0 is Bo's (b_1_0, b_1_1), and Bo's
    // own j_1_0 can use both: once he does, j_0_0 cannot be completed by anyone.
    unwrap(await h.host.create('nd', 'console', ada, { task: 'single_trade', seed: 0, roundSeconds: 0 }));
    unwrap(await h.host.join('nd', ada, 'lab_0'));
    unwrap(await h.host.join('nd', bo, 'lab_1'));
    const m = unwrap(await h.host.start('nd', ada)).match;
    const job = m.state!.jobs['j_0_0']!;
    const reliable = Object.values(m.state!.blocks).filter((b) => b.reliability >= job.minReliability);
    assert.deepEqual(reliable.map((b) => b.id).sort(), ['b_1_0', 'b_1_1'], 'the dealt world is as this test assumes');
    assert.deepEqual(doomedJobs(m.state!), [], 'feasible when dealt');
    const used = unwrap(
      await h.host.act('nd', bo, { action_type: 'allocate_to_job', job_id: 'j_1_0', block_ids: ['b_1_0', 'b_1_1'] }),
    );
    assert.equal(used.match.state!.blocks['b_1_0']!.status, 'used');
    // Ada still holds blocks Bo could buy, so the round waits for her (rules v4 auto-done); she says done,
    // then Bo. Ada hears of j_0_0 privately, once, at the close; the channel never does.
    assert.ok(!used.match.done.includes('lab_0'), 'Ada is not marked done: her blocks could still be sold');
    const closes = [unwrap(await h.host.done('nd', ada)), unwrap(await h.host.done('nd', bo))];
    await h.host.idle();
    const replies = [
      used.reply,
      ...closes.map((x) => x.closed ?? undefined),
      ...h.published.map((x) => x.reply),
    ].filter((x) => x !== undefined && x !== null);
    const notices = replies.flatMap((x) => x.private).filter((p) => p.title === 'j_0_0 can no longer be completed');
    assert.equal(notices.length, 1, 'told once');
    assert.equal(notices[0]!.userId, ada.userId);
    assert.match(
      notices[0]!.text,
      /still needs \d+ GPU-h at reliability ≥ \d\.\d\d, and only 0 GPU-h of such capacity is left.*Nothing is allocated to it yet and nothing more can be, so it will settle as missed at its deadline and earns nothing\./,
    );
    assert.ok(
      !replies
        .flatMap((x) => x.public)
        .map(postText)
        .join('\n')
        .includes('can no longer be completed'),
      'not in public',
    );
    await h.host.stop();
  });
});

describe('arrivals', () => {
  test('new capacity is public; a new job is told privately to its owner with its terms, never in public', async () => {
    const { renderRoundClose } = await import('../../src/present/render.js');
    const h = await harness();
    unwrap(await h.host.create('ar', 'console', ada, { task: 'market_round', seed: 2, roundSeconds: 0 }));
    unwrap(await h.host.join('ar', ada, 'lab_0'));
    unwrap(await h.host.join('ar', bo, 'lab_1'));
    unwrap(await h.host.start('ar', ada));
    unwrap(await h.host.done('ar', ada));
    const closed = unwrap(await h.host.done('ar', bo));
    const m = closed.match;
    const job = Object.values(m.state!.jobs).find((j) => j.owner === 'lab_0' && j.outcome === 'pending')!;
    const block = Object.values(m.state!.blocks).find((b) => b.owner === 'lab_1')!;
    const report = {
      round: 0,
      scriptedActions: [],
      trades: [],
      judge: null,
      shocks: [],
      settlements: [],
      coalitions: [],
      rewards: {},
      leaderboard: [],
      final: false,
      arrivals: {
        round: 1,
        jobs: [{ lab: 'lab_0', jobId: job.id }],
        blocks: [{ blockId: block.id, owner: 'lab_1', gpuHours: block.gpuHours }],
      },
    };
    const reply = renderRoundClose(m, report, 'all_done');
    const pub = reply.public.map(postText).join('\n');
    assert.match(
      pub,
      new RegExp(
        `Arrivals\\nNew capacity: ${block.id} \\(${block.gpuHours} GPU-h\\) to Lab B\\.\\nNew jobs for Lab A \\(details to their owners\\)\\.`,
      ),
    );
    assert.ok(!pub.includes(`${job.gpuHoursRequired} GPU-h at reliability`), 'no job terms in public');
    const note = reply.private.find((p) => p.title === `New job ${job.id}`);
    assert.ok(note);
    assert.equal(note.userId, ada.userId);
    assert.match(
      note.text,
      new RegExp(
        `${job.id} needs ${job.gpuHoursRequired} GPU-h at reliability ≥ ${job.minReliability.toFixed(2)} by the end of round ${job.deadlineRound + 1}, worth ≈`,
      ),
    );
    await h.host.stop();
  });
});
