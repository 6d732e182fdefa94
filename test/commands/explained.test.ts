/**
 * Issue "Every point explained" (item 6), catalogue side: errors say the real reason and never echo an
 * over-long value (3); an offer's or coalition's answer buttons reach only the person who may press them,
 * and an agent recipient still gets and answers the offer (7).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { alice, assertOk, bob, blocksOf, rejected, replyText, started } from './harness.js';

describe('errors say the real reason (3)', () => {
  test('pay:-50, pay:abc, pay over the budget, text:"", a 5,000-character pitch, expires:9', async () => {
    const a = await started();
    const budget = (await a.state()).labs.lab_0!.budget.toFixed(2);
    const text = async (cmd: string, code: string) => {
      const e = await rejected(a, alice, cmd, code);
      const r = await a.run(alice, cmd);
      return { e, shown: replyText(r) };
    };
    const neg = await text('offer to:lab_1 pay:-50', 'invalid_option');
    assert.match(neg.shown, /`pay` must be ≥ 0 \(you wrote `-50`\)/);
    assert.doesNotMatch(neg.shown, /no valid value/, 'a number option has no list of valid ids to be empty');
    assert.match(
      (await text('offer to:lab_1 pay:abc', 'invalid_option')).shown,
      /`pay` must be a number of credits ≥ 0 \(you wrote `abc`\)/,
    );
    const over = await text('offer to:lab_1 pay:500', 'budget_overspend');
    assert.equal(over.e.option, 'pay');
    assert.match(over.shown, new RegExp(`\`pay\` 500 is more than your budget ${budget.replace('.', '\\.')} credits`));
    const empty = await text('message text:""', 'missing_option');
    assert.match(empty.shown, /`text` must not be empty/);
    assert.doesNotMatch(empty.shown, /no valid value/);
    assert.match((await text("message text:''", 'missing_option')).shown, /`text` must not be empty/);
    assert.match((await text('offer to:lab_1 pay:1 msg:""', 'invalid_option')).shown, /`msg` must not be empty/);
    const long = await text(`pitch text:"${'x'.repeat(5000)}"`, 'invalid_option');
    assert.match(long.shown, /`text` is too long: `x{40}…\(5,000 characters; at most 1,200\)`/);
    assert.ok(!long.shown.includes('x'.repeat(41)), 'the pitch is not echoed whole');
    assert.match(
      (await text('pitch text:"short"', 'invalid_option')).shown,
      /`text` must be at least 12 characters; yours has 5/,
    );
    assert.match(
      (await text('offer to:lab_1 pay:1 expires:9', 'invalid_option')).shown,
      /`expires` must be at most 3 \(you wrote `9`\)/,
    );
    // Id options still list what the caller may use, and say so when there is nothing.
    assert.match(replyText(await a.run(alice, 'accept')), /You have no valid value for `offer` right now/);
    await a.close();
  });

  test('a mistyped choice suggests the one meant; typed (Discord) options get the same reasons', async () => {
    const a = await started();
    assert.match(replyText(await a.run(alice, 'help stauts')), /Did you mean `status`\?/);
    assert.match(replyText(await a.run(alice, 'coalition action:propse with:lab_1')), /Did you mean `propose`\?/);
    assert.match(replyText(await a.runTyped(alice, 'offer', { to: 'lab_1', pay: -3 })), /`pay` must be ≥ 0/);
    assert.match(replyText(await a.runTyped(alice, 'ofer', {})), /Did you mean `offer`\?/);
    await a.close();
  });
});

describe('answer buttons reach only who may press them (7)', () => {
  test('an offer to an agent seat: no buttons; the scripted seat answers at once, in words, within the round', async () => {
    const a = await started();
    const r = assertOk(await a.run(alice, 'offer to:lab_2 pay:10 msg:"a gift"'));
    assert.deepEqual(
      r.public.flatMap((p) => p.buttons ?? []),
      [],
      'nobody gets Accept/Reject buttons for an agent seat',
    );
    assert.match(replyText(r), /Lab C \(scripted\) answers:\n• sent Lab A a direct message\n• accepted o_1 from Lab A/);
    // Its reason reaches the sender privately; nobody else gets a private post.
    assert.deepEqual(
      r.private.map((p) => p.userId),
      [alice.userId],
    );
    assert.match(replyText(r), /Deal on o_1: that works for us\./);
    assert.equal((await a.state()).round, 0, 'within the round');
    assert.equal((await a.state()).offers.o_1?.status, 'accepted');
    await a.close();
  });

  test('the Counter button (counter without terms) explains how to counter, with both sides’ block ids; nothing changes', async () => {
    const a = await started();
    const s = await a.state();
    const btn = assertOk(await a.run(alice, 'offer to:lab_1 pay:2')).private[0]?.buttons?.find((b) =>
      b.label.startsWith('Counter'),
    );
    assert.equal(btn?.command, 'counter offer:o_1');
    const before = await a.store.lastSeq(a.matchId!);
    const r = assertOk(await a.run(bob, btn!.command));
    assert.equal(r.public.length, 0);
    assert.equal(r.private[0]?.userId, bob.userId);
    const text = replyText(r);
    assert.match(text, /counter offer:o_1 give:<your blocks> want:<their blocks> pay:<credits>/);
    for (const b of [...blocksOf(s, 'lab_1'), ...blocksOf(s, 'lab_0')]) assert.match(text, new RegExp(b));
    assert.equal(await a.store.lastSeq(a.matchId!), before, 'no action was logged');
    assert.equal((await a.state()).offers.o_1?.status, 'active');
    // The sender cannot use it on their own offer.
    await rejected(a, alice, 'counter offer:o_1', 'not_offer_recipient');
    await a.close();
  });
});

describe('`me` shows the running reward ledger', () => {
  test('pending reward before the close, then the total by category with each entry and the formula', async () => {
    const a = await started();
    assertOk(await a.run(alice, 'offer to:lab_2 pay:10 msg:"a gift"'));
    // Lab C accepted at once; Alice's side of the trade is paid at the round close.
    const before = replyText(assertOk(await a.run(alice, 'me')));
    assert.match(before, /Your reward ledger/);
    assert.match(
      before,
      /pending [+−]\d\.\d{4} deals: offer o_1 with Lab C: you gave 10\.00 credits for nothing.*\(paid at the round close\)/,
    );
    assert.match(before, /0\.35×job_utility \+ 0\.20×deal_quality/);
    assertOk(await a.run(alice, 'done'));
    assertOk(await a.run(bob, 'done'));
    const after = replyText(assertOk(await a.run(alice, 'me')));
    assert.match(after, /Total [+−]\d\.\d{4} = deals [+−]\d\.\d{4}/);
    assert.match(after, /R1 [+−]\d\.\d{4} deals: offer o_1 with Lab C/);
    assert.doesNotMatch(after, /pending /, 'paid now');
    await a.close();
  });
});
