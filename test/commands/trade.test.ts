/** Trading commands against the real host and engine: offer, accept, reject, counter. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { observe } from '../../src/engine/index.js';
import {
  alice,
  arena,
  assertOk,
  blocksOf,
  bob,
  carol,
  CHANNEL,
  jobsOf,
  lobby,
  rejected,
  replyText,
  started,
} from './harness.js';

describe('offer', () => {
  test('a public offer without buttons; Accept / Reject / Counter go privately to the recipient only', async () => {
    const a = await started();
    const s = await a.state();
    const [give] = blocksOf(s, 'lab_0');
    const [want] = blocksOf(s, 'lab_1');
    const r = assertOk(
      await a.run(alice, `/arena offer to:lab_1 give:${give} want:${want} pay:5 msg:"swap for your block" expires:1`),
    );
    const post = r.public[0];
    assert.match(post?.text ?? '', new RegExp(`o_1.*gives ${give}, wants ${want}, pays 5.00`));
    // A public post's buttons are seen by everyone, the sender too: it carries none.
    assert.deepEqual(
      r.public.flatMap((p) => p.buttons ?? []),
      [],
    );
    assert.deepEqual(
      r.private.map((p) => p.userId),
      [bob.userId],
      'only the recipient gets a private post',
    );
    assert.match(r.private[0]?.title ?? '', /Lab A offers you o_1/);
    assert.deepEqual(
      r.private[0]?.buttons?.map((b) => b.command),
      ['accept offer:o_1', 'reject offer:o_1', 'counter offer:o_1'],
    );
    const o = (await a.state()).offers.o_1;
    assert.deepEqual(
      [o?.from, o?.to, o?.offeredBlockIds, o?.requestedBlockIds, o?.payment, o?.message],
      ['lab_0', 'lab_1', [give], [want], 5, 'swap for your block'],
    );
    await a.close();
  });

  test('typed options: lists as comma-separated strings, numbers as numbers', async () => {
    const a = await started();
    const s = await a.state();
    const give = blocksOf(s, 'lab_0').slice(0, 2);
    assertOk(await a.runTyped(alice, 'offer', { to: 'lab_2', give: give.join(','), pay: 2.5 }));
    assert.deepEqual((await a.state()).offers.o_1?.offeredBlockIds, give);
    await a.close();
  });

  test('bad input names the option, what was expected and the valid ids; changes nothing', async () => {
    const a = await started();
    const s = await a.state();
    const mine = blocksOf(s, 'lab_0');
    const bobs = blocksOf(s, 'lab_1');
    const missing = await rejected(a, alice, 'offer give:b_0_0', 'missing_option');
    assert.deepEqual([missing.option, missing.validValues], ['to', ['lab_1', 'lab_2']]);
    const lab = await rejected(a, alice, 'offer to:lab_9 pay:1', 'unknown_lab');
    assert.deepEqual([lab.option, lab.validValues], ['to', ['lab_1', 'lab_2']]);
    assert.equal((await rejected(a, alice, 'offer to:lab_0 pay:1', 'self_trade')).option, 'to');
    const notMine = await rejected(a, alice, `offer to:lab_1 give:${bobs[0]}`, 'unowned_block');
    assert.deepEqual([notMine.option, notMine.validValues], ['give', mine]);
    assert.equal((await rejected(a, alice, 'offer to:lab_1 give:b_9_9', 'unknown_block')).option, 'give');
    assert.equal(
      (await rejected(a, alice, `offer to:lab_1 give:${mine[0]},${mine[0]}`, 'duplicate_block')).option,
      'give',
    );
    const wrongOwner = await rejected(a, alice, `offer to:lab_2 want:${bobs[0]}`, 'target_does_not_own_block');
    assert.deepEqual([wrongOwner.option, wrongOwner.validValues], ['want', blocksOf(s, 'lab_2')]);
    assert.equal((await rejected(a, alice, 'offer to:lab_1 pay:abc', 'invalid_option')).option, 'pay');
    assert.equal((await rejected(a, alice, 'offer to:lab_1 pay:-3', 'invalid_option')).option, 'pay');
    assert.equal((await rejected(a, alice, 'offer to:lab_1 pay:1 expires:9', 'invalid_option')).option, 'expires');
    // Engine rules come back through the dry run, with the option they concern.
    assert.equal((await rejected(a, alice, 'offer to:lab_1 pay:100000', 'budget_overspend')).option, 'pay');
    assert.equal((await rejected(a, alice, 'offer to:lab_1', 'empty_offer')).option, 'give');
    // Not a seat holder / wrong seat.
    await rejected(a, carol, 'offer to:lab_1 pay:1', 'no_seat');
    assert.equal((await a.state()).nextOfferSeq, s.nextOfferSeq);
    await a.close();
  });

  test('bad input before the start: not_started; with no match: no_match', async () => {
    const a = await lobby();
    for (const cmd of ['offer to:lab_1 pay:1', 'accept offer:o_1', 'reject offer:o_1', 'counter offer:o_1 pay:2'])
      await rejected(a, alice, cmd, 'not_started');
    await a.close();
    const none = await arena();
    for (const cmd of ['offer to:lab_1 pay:1', 'accept offer:o_1', 'reject offer:o_1', 'counter offer:o_1 pay:2'])
      await rejected(none, alice, cmd, 'no_match');
    assert.equal(await none.host.current(CHANNEL), null, 'still no match in the channel');
    await none.close();
  });
});

describe('accept', () => {
  test('the recipient accepts: blocks and credits move, public summary, private reward note', async () => {
    const a = await started();
    const s = await a.state();
    const [give] = blocksOf(s, 'lab_0');
    const [want] = blocksOf(s, 'lab_1');
    assertOk(await a.run(alice, `offer to:lab_1 give:${give} want:${want} pay:3`));
    const r = assertOk(await a.run(bob, 'accept offer:o_1'));
    assert.match(r.public[0]?.title ?? '', /Lab B accepted o_1/);
    assert.ok(r.private.every((p) => p.userId === bob.userId));
    const after = await a.state();
    assert.equal(after.offers.o_1?.status, 'accepted');
    assert.equal(after.blocks[give!]?.owner, 'lab_1');
    assert.equal(after.blocks[want!]?.owner, 'lab_0');
    assert.equal(after.labs.lab_1?.budget, Math.round((s.labs.lab_1!.budget + 3) * 100) / 100);
    await a.close();
  });

  test("the accept button of the recipient's private offer post runs as text", async () => {
    const a = await started();
    const r = assertOk(await a.run(alice, 'offer to:lab_1 pay:2'));
    const btn = r.private.find((p) => p.userId === bob.userId)?.buttons?.find((b) => b.label.startsWith('Accept'));
    assert.ok(btn);
    assertOk(await a.run(bob, btn.command));
    assert.equal((await a.state()).offers.o_1?.status, 'accepted');
    await a.close();
  });

  test('bad input: own offer, unknown offer (valid ids listed), missing option, no seat', async () => {
    const a = await started();
    assertOk(await a.run(alice, 'offer to:lab_1 pay:2'));
    assert.equal((await rejected(a, alice, 'accept offer:o_1', 'not_offer_recipient')).option, 'offer');
    const unknown = await rejected(a, bob, 'accept offer:o_99', 'unknown_offer');
    assert.deepEqual(unknown.validValues, ['o_1']);
    const noOffer = await rejected(a, bob, 'accept', 'missing_option');
    assert.deepEqual([noOffer.option, noOffer.validValues], ['offer', ['o_1']]);
    assert.deepEqual((await rejected(a, carol, 'accept', 'no_seat')).validValues, undefined);
    await rejected(a, carol, 'accept offer:o_1', 'no_seat');
    assert.equal((await a.state()).offers.o_1?.status, 'active');
    await a.close();
  });
});

describe('reject', () => {
  test('the recipient rejects; the sender withdraws', async () => {
    const a = await started();
    assertOk(await a.run(alice, 'offer to:lab_1 pay:2'));
    assertOk(await a.run(alice, 'offer to:lab_1 pay:3'));
    const r = assertOk(await a.run(bob, 'reject offer:o_1'));
    assert.match(replyText(r), /Lab B rejected offer `o_1`/);
    const w = assertOk(await a.run(alice, 'reject offer:o_2'));
    assert.match(replyText(w), /Lab A withdrew offer `o_2`/);
    const s = await a.state();
    assert.deepEqual([s.offers.o_1?.status, s.offers.o_2?.status], ['rejected', 'withdrawn']);
    await a.close();
  });

  test('bad input: unknown or already closed offer, no seat', async () => {
    const a = await started();
    assertOk(await a.run(alice, 'offer to:lab_1 pay:2'));
    assertOk(await a.run(bob, 'reject offer:o_1'));
    // A party hears what became of its offer (e.g. a second press); an id it never saw is unknown.
    const again = await rejected(a, bob, 'reject offer:o_1', 'inactive_offer');
    assert.match(again.message, /`offer:o_1` is rejected/);
    await rejected(a, bob, 'reject offer:x', 'unknown_offer');
    await rejected(a, carol, 'reject offer:o_1', 'no_seat');
    await a.close();
  });
});

describe('counter', () => {
  test('the recipient counters: a new offer back, the original countered', async () => {
    const a = await started();
    const s = await a.state();
    assertOk(await a.run(alice, `offer to:lab_1 want:${blocksOf(s, 'lab_1')[0]} pay:1`));
    const r = assertOk(await a.run(bob, `counter offer:o_1 want:${blocksOf(s, 'lab_0')[0]} pay:0 msg:"no, this one"`));
    assert.match(r.public[0]?.title ?? '', /Lab B counters o_1 with o_2/);
    assert.deepEqual(r.public[0]?.buttons ?? [], []);
    assert.deepEqual(
      r.private.map((p) => [p.userId, p.buttons?.map((b) => b.command)]),
      [[alice.userId, ['accept offer:o_2', 'reject offer:o_2', 'counter offer:o_2']]],
    );
    const after = await a.state();
    assert.equal(after.offers.o_1?.status, 'countered');
    assert.deepEqual([after.offers.o_2?.from, after.offers.o_2?.to], ['lab_1', 'lab_0']);
    await a.close();
  });

  test("bad input: counter own offer, want blocks the original sender doesn't own, unknown offer", async () => {
    const a = await started();
    const s = await a.state();
    assertOk(await a.run(alice, 'offer to:lab_1 pay:1'));
    await rejected(a, alice, 'counter offer:o_1 pay:1', 'not_offer_recipient');
    const e = await rejected(a, bob, `counter offer:o_1 want:${blocksOf(s, 'lab_2')[0]}`, 'target_does_not_own_block');
    assert.deepEqual([e.option, e.validValues], ['want', blocksOf(s, 'lab_0')]);
    await rejected(a, bob, 'counter offer:o_7 pay:1', 'unknown_offer');
    assert.equal((await a.state()).offers.o_1?.status, 'active');
    // Error texts never list another seat's private job ids.
    assert.ok(!JSON.stringify(e).includes(jobsOf(s, 'lab_0')[0] ?? '§'));
    await a.close();
  });
});

describe('selling for credits and sealed bids (rules v3)', () => {
  test('offer with ask: the recipient sees the price; accepting pays it; counter names a price', async () => {
    const a = await started();
    const s = await a.state();
    const [give] = blocksOf(s, 'lab_0');
    const r = assertOk(await a.run(alice, `offer to:lab_1 give:${give} ask:12 msg:"12 credits and it is yours"`));
    assert.match(r.public[0]?.text ?? '', new RegExp(`o_1.*gives ${give}, wants nothing, asks 12.00 credits`));
    const o = (await a.state()).offers.o_1;
    assert.deepEqual([o?.ask, o?.payment], [12, 0]);
    const budgets = (await a.state()).labs;
    const done = assertOk(await a.run(bob, 'accept offer:o_1'));
    assert.match(
      done.public[0]?.text ?? '',
      new RegExp(`Lab A gave ${give} \\([^)]*\\); Lab B gave 12\\.00 credits\\.`),
    );
    const after = (await a.state()).labs;
    assert.equal(after.lab_1!.budget, Math.round((budgets.lab_1!.budget - 12) * 100) / 100);
    assert.equal(after.lab_0!.budget, Math.round((budgets.lab_0!.budget + 12) * 100) / 100);
    // A counter-offer with a price.
    const [bobs] = blocksOf(await a.state(), 'lab_1');
    assertOk(await a.run(alice, `offer to:lab_1 want:${bobs} pay:2`));
    assertOk(await a.run(bob, `counter offer:o_2 give:${bobs} ask:15 msg:"15 and it is yours"`));
    const c = (await a.state()).offers.o_3;
    assert.deepEqual([c?.from, c?.to, c?.ask, c?.offeredBlockIds], ['lab_1', 'lab_0', 15, [bobs]]);
    await a.close();
  });

  test('bad money input is refused with a clear error and changes nothing; a bid needs an open auction', async () => {
    const a = await started();
    const s = await a.state();
    const [give] = blocksOf(s, 'lab_0');
    const [want] = blocksOf(s, 'lab_1');
    assert.equal((await rejected(a, alice, `offer to:lab_1 give:${give} ask:-3`, 'invalid_option')).option, 'ask');
    assert.equal((await rejected(a, alice, `offer to:lab_1 give:${give} ask:NaN`, 'invalid_option')).option, 'ask');
    const both = await rejected(a, alice, `offer to:lab_1 want:${want} pay:5 ask:5`, 'pay_and_ask');
    assert.match(both.message, /not both/);
    assert.equal((await rejected(a, alice, 'offer bid:12', 'no_auction')).option, 'bid');
    assert.equal((await rejected(a, alice, 'offer to:lab_1 bid:12', 'bid_with_terms')).option, 'bid');
    await a.close();
  });
});

describe('an emergency auction with sealed bids, through the host (rules v3)', () => {
  test("a person's bid wins; the posts show the winner and the price, never the losing bids", async () => {
    const a = await arena();
    // market_round seed 3: an emergency auction in round 2 (announced when round 1 closes).
    assertOk(await a.run(alice, 'new task:market_round seed:3 round_seconds:0'), 'new');
    assertOk(await a.run(alice, 'join lab:lab_0'), 'join alice');
    assertOk(await a.run(bob, 'join lab:lab_1'), 'join bob');
    assertOk(await a.run(alice, 'start'), 'start');
    for (let r = 0; r < 2; r++) {
      assertOk(await a.run(alice, 'done'));
      assertOk(await a.run(bob, 'done'));
    }
    const s = await a.state();
    assert.equal(s.round, 2);
    const lot = observe(s, 'lab_0').auction!.lot;
    const high = Math.min(60, Math.floor(s.labs.lab_0!.budget));
    const mine = assertOk(await a.run(alice, `offer bid:${high}`));
    assert.deepEqual(mine.public, [], 'a sealed bid posts nothing publicly');
    assert.equal(mine.private[0]?.userId, alice.userId);
    assertOk(await a.run(bob, 'offer bid:8.75'));
    assertOk(await a.run(alice, 'done'));
    const closed = assertOk(await a.run(bob, 'done'));
    const after = await a.state();
    assert.equal(after.blocks[lot.id]?.owner, 'lab_0');
    const text = replyText(closed);
    assert.match(text, new RegExp(`Lab A won the emergency auction for ${lot.id} .* ${high.toFixed(2)} credits`));
    assert.ok(!text.includes('8.75'), 'the losing bid is not shown');
    assert.equal(after.auction, null, 'nor kept in the state: the auction and its bids are dropped at the sale');
    await a.close();
  });
});
