import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SeatAgent } from '../../src/agents/seat.js';
import type { SeatDriver } from '../../src/match/types.js';
import { harness, person, postText, unwrap } from './helpers.js';

const ada = person('ada');

/** Ada alone on lab_0 of a started match (scripted seats elsewhere, no round timer). */
async function soloMatch(id: string, task: 'single_trade' | 'market_round' | 'coalition_market', seed: number) {
  const h = await harness();
  unwrap(await h.host.create(id, 'console', ada, { task, seed, roundSeconds: 0 }));
  unwrap(await h.host.join(id, ada, 'lab_0'));
  const m = unwrap(await h.host.start(id, ada)).match;
  return { h, m };
}

describe('answers within the round', () => {
  test('an LLM seat gets an extra turn when a person sends it an offer, and answers it in the same round', async () => {
    const seen: { round: number; offers: string[] }[] = [];
    const agentFor = (d: SeatDriver): SeatAgent | null =>
      d.kind !== 'llm'
        ? null
        : {
            act: async (obs, ctx) => {
              const mine = obs.offers.filter((o) => o.to === obs.self.id && o.status === 'active');
              seen.push({ round: ctx.round, offers: mine.map((o) => o.id) });
              // Accept what is offered, and say why; with nothing addressed to it, wait.
              return mine.flatMap((o) => [
                {
                  action_type: 'send_message',
                  target_lab_id: o.from,
                  message: `${o.id} suits us: your credits for our spare block.`,
                },
                { action_type: 'accept_offer', offer_id: o.id },
              ]);
            },
          };
    const h = await harness({ agentFor });
    unwrap(await h.host.create('x1', 'console', ada, { task: 'single_trade', seed: 3, roundSeconds: 0 }));
    unwrap(await h.host.join('x1', ada, 'lab_0'));
    unwrap(await h.host.assign('x1', ada, 'lab_1', { kind: 'llm', model: 'fake' }));
    const m = unwrap(await h.host.start('x1', ada)).match;
    await h.host.idle();
    assert.deepEqual(seen, [{ round: 0, offers: [] }], 'its own turn at the round open');
    const theirs = Object.values(m.state!.blocks).find((b) => b.owner === 'lab_1')!;
    unwrap(
      await h.host.act('x1', ada, {
        action_type: 'send_offer',
        target_lab_id: 'lab_1',
        requested_block_ids: [theirs.id],
        payment: 6,
        message: 'six credits for it',
      }),
    );
    await h.host.idle();
    assert.deepEqual(seen.at(-1), { round: 0, offers: ['o_1'] }, 'an extra turn in the same round, seeing the offer');
    const cur = (await h.host.current('x1'))!;
    assert.equal(cur.state!.round, 0, 'still the same round');
    assert.equal(cur.state!.offers['o_1']!.status, 'accepted');
    const published = h.published.flatMap((x) => x.reply);
    assert.match(
      published
        .flatMap((r) => r.public)
        .map(postText)
        .join('\n'),
      /accepted o_1 from Lab A/,
    );
    const dm = published
      .flatMap((r) => r.private)
      .find((p) => p.userId === ada.userId && /Direct message from Lab B/.test(p.title ?? ''));
    assert.ok(dm, 'its reason reaches the person privately');
    assert.match(dm.text, /o_1 suits us/);
    await h.host.stop();
  });

  test('extra turns per round are bounded (agentExtraTurns)', async () => {
    let turns = 0;
    const agentFor = (d: SeatDriver): SeatAgent | null =>
      d.kind !== 'llm' ? null : { act: async () => (turns++, []) };
    const h = await harness({ agentFor, agentExtraTurns: 1 });
    unwrap(await h.host.create('x2', 'console', ada, { task: 'single_trade', seed: 3, roundSeconds: 0 }));
    unwrap(await h.host.join('x2', ada, 'lab_0'));
    unwrap(await h.host.assign('x2', ada, 'lab_1', { kind: 'llm', model: 'fake' }));
    unwrap(await h.host.start('x2', ada));
    await h.host.idle();
    for (let i = 0; i < 3; i++)
      unwrap(
        await h.host.act('x2', ada, { action_type: 'send_message', target_lab_id: 'lab_1', message: `hello ${i}` }),
      );
    await h.host.idle();
    assert.equal(turns, 2, 'its own turn plus one extra');
    await h.host.stop();
  });

  test('a scripted seat answers an offer at once, in words, without its private numbers', async () => {
    const { h, m } = await soloMatch('x3', 'single_trade', 0);
    // A lowball: Lab B's reliable block for nothing.
    const r = unwrap(
      await h.host.act('x3', ada, {
        action_type: 'send_offer',
        target_lab_id: 'lab_1',
        requested_block_ids: ['b_1_0'],
        message: 'give it to us',
      }),
    );
    assert.equal(r.match.state!.round, 0, 'answered within the round');
    const o = r.match.state!.offers['o_1']!;
    assert.notEqual(o.status, 'active', 'decided at once');
    assert.notEqual(o.status, 'accepted', 'a lowball is not accepted');
    const pub = r.reply!.public.map(postText).join('\n');
    assert.match(
      pub,
      /Lab B \(scripted\) answers:\n• sent Lab A a direct message\n• (rejected o_1 from Lab A|countered o_1)/,
    );
    const dm = r.reply!.private.find((p) => /Direct message from Lab B/.test(p.title ?? ''));
    assert.ok(dm);
    assert.match(
      dm.text,
      /(No to |Not as offered \()o_1\)?: (we need b_1_0 for our own jobs|it leaves us worse off|we do not give b_1_0 away)/,
    );
    const s = m.state!;
    for (const v of [
      s.labs['lab_1']!.budget,
      ...Object.values(s.jobs)
        .filter((j) => j.owner === 'lab_1')
        .map((j) => j.baseValue),
    ])
      assert.ok(!dm.text.includes(v.toFixed(2)), 'no private number in the reason');
    await h.host.stop();
  });

  test('selling for credits to scripted seats: never "pay us to take it"; a price counter or a no, each with its reason', async () => {
    const { h } = await soloMatch('x4', 'market_round', 1);
    const seen: string[] = [];
    for (const to of ['lab_1', 'lab_2']) {
      const r = unwrap(
        await h.host.act('x4', ada, {
          action_type: 'send_offer',
          target_lab_id: to,
          block_ids: ['b_0_2'],
          ask: 60,
          message: '60 credits',
        }),
      );
      const sent = Object.values(r.match.state!.offers).find(
        (o) => o.to === to && o.from === 'lab_0' && o.linkedOfferId === null,
      )!;
      const answer = Object.values(r.match.state!.offers).find((o) => o.linkedOfferId === sent.id);
      if (answer) {
        // A counter names what the seat would pay, and asks nothing of the seller on top of the block.
        assert.equal(answer.ask ?? 0, 0, `${to} does not ask the seller to pay`);
        assert.ok(answer.payment > 0 && answer.payment < 60, `${to} offers a lower price (${answer.payment})`);
      } else assert.equal(sent.status, 'rejected');
      const dm = r.reply!.private.find((p) => /Direct message from/.test(p.title ?? ''))!.text;
      assert.match(
        dm,
        answer
          ? /Not as offered \(o_\d\): 60\.00 credits is more than b_0_2 is worth to us/
          : /No to o_\d: (b_0_2 does not fit our jobs|60\.00 credits is more than b_0_2 is worth to us|b_0_2 adds too little to our jobs for us to pay anything for it)\./,
      );
      seen.push(answer ? 'counter' : 'reject');
      if (answer) unwrap(await h.host.act('x4', ada, { action_type: 'reject_offer', offer_id: answer.id }));
    }
    assert.deepEqual(
      seen.sort(),
      ['counter', 'reject'],
      'seed 1: Lab B (deadline_panicked) haggles; Lab C (deceptive) declines',
    );
    await h.host.stop();
  });

  test('a seat that would pay nothing for a block says so, instead of inviting a lower price it would refuse too', async () => {
    // Lab B plays deadline_panicked here, and no job of its can use b_0_3.
    const { h } = await soloMatch('x5', 'coalition_market', 6);
    const texts: string[] = [];
    for (const ask of [12, 6, 0.5]) {
      const r = unwrap(
        await h.host.act('x5', ada, { action_type: 'send_offer', target_lab_id: 'lab_1', block_ids: ['b_0_3'], ask }),
      );
      const sent = Object.values(r.match.state!.offers)
        .filter((o) => o.from === 'lab_0')
        .at(-1)!;
      assert.equal(sent.status, 'rejected', `ask ${ask}: rejected`);
      texts.push(r.reply!.private.find((p) => /Direct message from Lab B/.test(p.title ?? ''))!.text);
    }
    for (const t of texts)
      assert.match(
        t,
        /No to o_\d: b_0_3 adds too little to our jobs for us to pay anything for it\. Try a lab that is short of capacity\./,
      );
    assert.ok(
      texts.every((t) => !/ask again/.test(t)),
      'no invitation to ask less',
    );
    await h.host.stop();
  });

  test('a counter that sells the wanted block for more says the price is too low, not that the block is needed', async () => {
    const { h } = await soloMatch('x6', 'coalition_market', 21);
    const r = unwrap(
      await h.host.act('x6', ada, {
        action_type: 'send_offer',
        target_lab_id: 'lab_1',
        requested_block_ids: ['b_1_3'],
        payment: 5,
      }),
    );
    const counter = Object.values(r.match.state!.offers).find((o) => o.linkedOfferId === 'o_1')!;
    assert.deepEqual(
      [counter.from, counter.offeredBlockIds, (counter.ask ?? 0) > 5],
      ['lab_1', ['b_1_3'], true],
      'Lab B sells b_1_3, for more',
    );
    const dm = r.reply!.private.find((p) => /Direct message from Lab B/.test(p.title ?? ''))!.text;
    assert.match(
      dm,
      /Not as offered \(o_1\): 5\.00 credits is below what b_1_3 is worth to us\. Here is what we can do instead\./,
    );
    assert.doesNotMatch(dm, /we need b_1_3/);
    await h.host.stop();
  });
  test('a counter that gives a block the seat could use closes with the round and says so; others keep their expiry', async () => {
    // market_round seed 4: Lab C counters with b_2_0, then puts it to work at the close (found playing).
    const { h } = await soloMatch('x7', 'market_round', 4);
    const r = unwrap(
      await h.host.act('x7', ada, {
        action_type: 'send_offer',
        target_lab_id: 'lab_2',
        requested_block_ids: ['b_2_0'],
        payment: 10,
      }),
    );
    const counter = Object.values(r.match.state!.offers).find((o) => o.linkedOfferId === 'o_1')!;
    assert.deepEqual(
      [counter.from, counter.offeredBlockIds, counter.expiresRound],
      ['lab_2', ['b_2_0'], 0],
      'open this round only',
    );
    assert.match(
      counter.message,
      /This counter closes with the round: after that we may put b_2_0 to work on our own jobs\.$/,
    );
    assert.match(r.reply!.public.map(postText).join('\n'), /closes with the round/, 'the channel reads it too');
    const done = unwrap(await h.host.done('x7', ada));
    const closed = done.match;
    assert.equal(closed.state!.round, 1);
    assert.equal(
      closed.state!.offers[counter.id]!.status,
      'expired',
      'it lapsed as announced, not killed as a dead offer',
    );
    assert.equal(closed.state!.blocks['b_2_0']!.status, 'used', 'and the seat did put the block to work');
    assert.match(
      done.closed!.public.map(postText).join('\n'),
      new RegExp(`Offers closed\\n${counter.id} \\(Lab C → Lab A\\) expired unanswered`),
      'the close post says it lapsed',
    );
    await h.host.stop();

    // single_trade seed 2: Lab B's counter sells b_1_1, which its own jobs cannot use: the policy's expiry stands.
    const other = await soloMatch('x8', 'single_trade', 2);
    const r2 = unwrap(
      await other.h.host.act('x8', ada, {
        action_type: 'send_offer',
        target_lab_id: 'lab_1',
        requested_block_ids: ['b_1_1'],
        payment: 1,
      }),
    );
    const c2 = Object.values(r2.match.state!.offers).find((o) => o.linkedOfferId === 'o_1')!;
    assert.deepEqual([c2.offeredBlockIds, c2.expiresRound > 0], [['b_1_1'], true]);
    assert.doesNotMatch(c2.message, /closes with the round/);
    await other.h.host.stop();
  });
});
