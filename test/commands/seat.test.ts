/** A seat's other commands against the real host and engine: pitch, reserve, release, allocate, message, finish, coalition. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { MatchState } from '../../src/engine/types.js';
import { alice, assertOk, blocksOf, bob, carol, jobsOf, lobby, rejected, replyText, started } from './harness.js';
import { plainOf } from '../../src/chat/player-text.js';

/** A pending job of `lab` and a block of `lab` that meets (or, with `fits` false, misses) its minimum reliability. */
function pair(s: MatchState, lab: string, fits: boolean): { job: string; block: string } {
  for (const j of Object.values(s.jobs).filter(
    (x) => x.owner === lab && x.outcome === 'pending' && x.allocatedHours < x.gpuHoursRequired,
  ))
    for (const b of Object.values(s.blocks).filter((x) => x.owner === lab && x.status === 'available'))
      if (b.reliability >= j.minReliability === fits) return { job: j.id, block: b.id };
  throw new Error(`fixture: no ${fits ? 'fitting' : 'too unreliable'} block for a job of ${lab}`);
}

describe('pitch', () => {
  test('a public pitch for own jobs is recorded; a counter-pitch answers it', async () => {
    const a = await started();
    const s = await a.state();
    const job = jobsOf(s, 'lab_0')[0]!;
    const r = assertOk(await a.run(alice, `pitch text:"${job} still needs GPU-hours before its deadline" job:${job}`));
    assert.match(r.public[0]?.title ?? '', new RegExp(`Lab A pitches for ${job}`));
    const c = assertOk(await a.run(bob, 'pitch text:"Our need is larger and better documented." reply_to:lab_0'));
    assert.match(c.public[0]?.title ?? '', /answering Lab A/);
    const pitches = (await a.state()).pitches;
    assert.deepEqual(
      pitches.map((p) => [p.lab, p.replyTo]),
      [
        ['lab_0', null],
        ['lab_1', 'lab_0'],
      ],
    );
    assert.deepEqual(pitches[0]?.jobIds, [job]);
    await a.close();
  });

  test("bad input: too short, another seat's job (its ids never listed), reply_to a lab that did not pitch", async () => {
    const a = await started();
    const s = await a.state();
    assert.equal((await rejected(a, alice, 'pitch text:"short"', 'invalid_option')).option, 'text');
    assert.equal((await rejected(a, alice, 'pitch job:j_0_0', 'missing_option')).option, 'text');
    const other = jobsOf(s, 'lab_1')[0]!;
    const e = await rejected(a, alice, `pitch text:"we need this job done now" job:${other}`, 'unknown_job');
    assert.deepEqual(e.validValues, jobsOf(s, 'lab_0'));
    for (const j of jobsOf(s, 'lab_1')) assert.ok(!e.validValues?.includes(j));
    const nobody = await rejected(
      a,
      alice,
      'pitch text:"answering a pitch nobody made" reply_to:lab_1',
      'no_pitch_to_counter',
    );
    assert.deepEqual([nobody.option, nobody.validValues], ['reply_to', []]);
    await rejected(a, carol, 'pitch text:"I have no seat but talk anyway"', 'no_seat');
    await a.close();
  });
});

describe('reserve and release', () => {
  test('reserve privately for an own job, then release', async () => {
    const a = await started();
    const s = await a.state();
    const [b0] = blocksOf(s, 'lab_0');
    const job = jobsOf(s, 'lab_0')[0]!;
    const r = assertOk(await a.run(alice, `reserve blocks:${b0} job:${job}`));
    assert.equal(r.public.length, 0);
    assert.match(replyText(r), new RegExp(`Reserved ${b0} for ${job}`));
    assert.deepEqual(
      [(await a.state()).blocks[b0!]?.status, (await a.state()).blocks[b0!]?.reservedFor],
      ['reserved', job],
    );
    assertOk(await a.run(alice, `release blocks:${b0}`));
    assert.equal((await a.state()).blocks[b0!]?.status, 'available');
    await a.close();
  });

  test('bad input: missing blocks, not own block, reserved twice, job of another seat, release an available block', async () => {
    const a = await started();
    const s = await a.state();
    const mine = blocksOf(s, 'lab_0');
    assert.equal((await rejected(a, alice, 'reserve', 'missing_option')).option, 'blocks');
    const e = await rejected(a, alice, `reserve blocks:${blocksOf(s, 'lab_1')[0]}`, 'unowned_block');
    assert.deepEqual(e.validValues, mine);
    await rejected(a, alice, `reserve blocks:${mine[0]} job:${jobsOf(s, 'lab_1')[0]}`, 'unknown_job');
    assertOk(await a.run(alice, `reserve blocks:${mine[0]}`));
    await rejected(a, alice, `reserve blocks:${mine[0]}`, 'unavailable_block');
    const rel = await rejected(a, alice, `release blocks:${mine[1]}`, 'unavailable_block');
    assert.deepEqual(rel.validValues, [mine[0]]);
    await rejected(a, bob, `release blocks:${mine[0]}`, 'unowned_block');
    await a.close();
  });
});

describe('allocate', () => {
  test('allocates own blocks to an own job, privately, with progress', async () => {
    const a = await started();
    const { job, block } = pair(await a.state(), 'lab_0', true);
    const r = assertOk(await a.run(alice, `allocate job:${job} blocks:${block}`));
    assert.equal(r.public.length, 0);
    assert.match(replyText(r), new RegExp(`Allocated ${block} to ${job}`));
    const s = await a.state();
    assert.equal(s.blocks[block]?.status, 'used');
    const { allocatedHours: got, gpuHoursRequired: need } = s.jobs[job]!;
    assert.equal(got, s.blocks[block]!.gpuHours);
    // Progress in words: a block larger than the need says how much of it goes unused, never "12/2 GPU-h".
    const over = Math.round((got - need) * 100) / 100;
    if (over > 0)
      assert.match(
        replyText(r),
        new RegExp(
          `${got} GPU-h for a ${need} GPU-h job: complete, it settles at its deadline\\. A block is used whole, so ${over} GPU-h go unused\\.`,
        ),
      );
    else assert.match(replyText(r), new RegExp(`${got}/${need} GPU-h${over === 0 ? ': complete' : '\\.'}`));
    await a.close();
  });

  test('a block larger than the job: the surplus is named, not shown as "12/2 GPU-h"', async () => {
    const a = await started();
    const s = await a.state();
    let fit: { job: string; block: string; over: number } | null = null;
    for (const j of jobsOf(s, 'lab_0').map((id) => s.jobs[id]!))
      for (const b of blocksOf(s, 'lab_0').map((id) => s.blocks[id]!))
        if (!fit && b.reliability >= j.minReliability && b.gpuHours > j.gpuHoursRequired)
          fit = { job: j.id, block: b.id, over: b.gpuHours - j.gpuHoursRequired };
    assert.ok(fit, 'fixture: a block of lab_0 bigger than one of its jobs');
    const r = assertOk(await a.run(alice, `allocate job:${fit.job} blocks:${fit.block}`));
    assert.match(
      replyText(r),
      new RegExp(
        `GPU-h job: complete, it settles at its deadline\\. A block is used whole, so ${fit.over} GPU-h go unused\\.$`,
      ),
    );
    assert.doesNotMatch(replyText(r), /\d+\/\d+ GPU-h/);
    const me = replyText(assertOk(await a.run(alice, 'me')));
    assert.match(me, new RegExp(`${fit.job}\` needs .*; complete \\(\\d+ GPU-h on it\\)`));
    await a.close();
  });

  test('bad input: used block, unreliable block (engine rule), other seat job, unknown block', async () => {
    const a = await started();
    const s = await a.state();
    const weak = pair(s, 'lab_0', false);
    assert.equal(
      (await rejected(a, alice, `allocate job:${weak.job} blocks:${weak.block}`, 'low_reliability')).option,
      'blocks',
    );
    const ok = pair(s, 'lab_0', true);
    assertOk(await a.run(alice, `allocate job:${ok.job} blocks:${ok.block}`));
    const used = await rejected(a, alice, `allocate job:${ok.job} blocks:${ok.block}`, 'block_used');
    assert.ok(!used.validValues?.includes(ok.block));
    await rejected(a, alice, `allocate job:${jobsOf(s, 'lab_1')[0]} blocks:${blocksOf(s, 'lab_0')[2]}`, 'unknown_job');
    await rejected(a, alice, `allocate job:${ok.job} blocks:b_0_77`, 'unknown_block');
    await rejected(a, alice, `allocate blocks:${blocksOf(s, 'lab_0')[2]}`, 'missing_option');
    await a.close();
  });
});

describe('message', () => {
  test('public message to the channel; direct message privately to both people', async () => {
    const a = await started();
    const pub = assertOk(await a.run(alice, 'message text:"anyone selling 4-GPU blocks?"'));
    assert.equal(plainOf(pub.public[0]?.text ?? ''), '**Lab A:** anyone selling 4-GPU blocks?');
    const dm = assertOk(await a.run(alice, 'message to:lab_1 text:"deal?"'));
    assert.equal(dm.public.length, 0);
    assert.deepEqual(
      dm.private.map((p) => p.userId),
      [alice.userId, bob.userId],
    );
    const msgs = (await a.state()).messages.filter((m) => m.kind === 'message');
    assert.deepEqual(
      msgs.map((m) => m.to),
      [null, 'lab_1'],
    );
    await a.close();
  });

  test('bad input: to self, unknown lab, empty text, too long, no seat', async () => {
    const a = await started();
    await rejected(a, alice, 'message to:lab_0 text:hi', 'self_trade');
    await rejected(a, alice, 'message to:lab_5 text:hi', 'unknown_lab');
    assert.equal((await rejected(a, alice, 'message text:""', 'missing_option')).option, 'text');
    assert.equal((await rejected(a, alice, `message text:${'x'.repeat(501)}`, 'invalid_option')).option, 'text');
    await rejected(a, carol, 'message text:hello', 'no_seat');
    await a.close();
  });
});

describe('finish', () => {
  test('settles the seat now; it can no longer act', async () => {
    const a = await started();
    const r = assertOk(await a.run(bob, 'finish'));
    assert.match(replyText(r), /Lab B finished/);
    assert.equal((await a.state()).labs.lab_1?.finished, true);
    await rejected(a, bob, 'offer to:lab_0 pay:1', 'seat_finished');
    await rejected(a, bob, 'finish', 'seat_finished');
    await a.close();
  });

  test('bad input: no seat, match not started', async () => {
    const a = await lobby();
    await rejected(a, alice, 'finish', 'not_started');
    await rejected(a, carol, 'finish', 'not_started');
    assertOk(await a.run(alice, 'start'));
    await rejected(a, carol, 'finish', 'no_seat');
    await a.close();
  });
});

describe('coalition', () => {
  test('propose (public, no buttons; the invited person gets an accept button privately) → accept → active → commit blocks', async () => {
    const a = await started();
    const s = await a.state();
    const p = assertOk(await a.run(alice, 'coalition action:propose with:lab_1 msg:"pool for our deadlines" rounds:3'));
    assert.match(p.public[0]?.title ?? '', /Lab A proposes coalition c_1/);
    assert.deepEqual(p.public[0]?.buttons ?? [], [], 'the proposer (who consented already) sees no accept button');
    assert.deepEqual(
      p.private.map((x) => x.userId),
      [bob.userId],
    );
    const btn = p.private[0]?.buttons?.[0];
    assert.equal(btn?.command, 'coalition action:accept id:c_1');
    const acc = assertOk(await a.run(bob, btn!.command));
    assert.match(replyText(acc), /c_1 is active/);
    const [b] = blocksOf(s, 'lab_0');
    const com = assertOk(await a.run(alice, `coalition action:commit id:c_1 blocks:${b} pay:2`));
    assert.match(replyText(com), new RegExp(`commits ${b} to c_1`));
    assert.ok(!replyText(com).includes('2.00'), 'escrow amounts stay private');
    const after = await a.state();
    assert.equal(after.coalitions.c_1?.status, 'active');
    assert.equal(after.blocks[b!]?.status, 'committed');
    await a.close();
  });

  test('bad input: missing with/id, options of another action, unknown coalition, self as target, empty commit', async () => {
    const a = await started();
    assert.equal((await rejected(a, alice, 'coalition', 'missing_option')).option, 'action');
    assert.deepEqual((await rejected(a, alice, 'coalition action:join', 'invalid_option')).validValues, [
      'propose',
      'accept',
      'commit',
    ]);
    const w = await rejected(a, alice, 'coalition action:propose', 'missing_option');
    assert.deepEqual([w.option, w.validValues], ['with', ['lab_1', 'lab_2']]);
    await rejected(a, alice, 'coalition action:propose with:lab_0', 'invalid_coalition_target');
    await rejected(a, alice, 'coalition action:propose with:lab_8', 'unknown_lab');
    assert.equal((await rejected(a, alice, 'coalition action:accept with:lab_1', 'invalid_option')).option, 'with');
    assert.equal(
      (await rejected(a, alice, 'coalition action:propose with:lab_1 id:c_1', 'invalid_option')).option,
      'id',
    );
    assert.equal((await rejected(a, bob, 'coalition action:accept', 'missing_option')).option, 'id');
    assertOk(await a.run(alice, 'coalition action:propose with:lab_1'));
    await rejected(a, bob, 'coalition action:accept id:c_9', 'unknown_coalition');
    await rejected(a, bob, 'coalition action:commit id:c_1', 'missing_option');
    await rejected(a, alice, 'coalition action:propose with:lab_1', 'duplicate_coalition');
    await a.close();
  });
});
