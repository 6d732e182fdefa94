/** status, me, done, autocomplete, and the match-over / unexpected-error paths. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { completions, runText, setCommandErrorSink } from '../../src/commands/index.js';
import type { ArenaHost } from '../../src/commands/context.js';
import {
  CHANNEL,
  alice,
  arena,
  assertOk,
  blocksOf,
  bob,
  carol,
  jobsOf,
  lobby,
  rejected,
  replyText,
  started,
} from './harness.js';

describe('status', () => {
  test('lobby: seats and buttons; running: a public view without any private value', async () => {
    const a = await lobby();
    const l = assertOk(await a.run(carol, 'status'));
    assert.match(replyText(l), /lab_0: Lab A \(👤 Alice\)/);
    assertOk(await a.run(alice, 'start'));
    const r = assertOk(await a.run(carol, 'status'));
    assert.equal(r.private.length, 0);
    const text = replyText(r);
    assert.match(r.public[0]?.title ?? '', /market_round — round 1\/5/);
    const s = await a.state();
    for (const j of Object.keys(s.jobs)) assert.ok(!text.includes(j), `status leaks job id ${j}`);
    for (const lab of s.labIds)
      assert.ok(!text.includes(s.labs[lab]!.budget.toFixed(2)), `status leaks the budget of ${lab}`);
    assert.match(text, /Waiting for\nLab A \(👤 Alice\), Lab B \(👤 Bob\)/);
    await a.close();
  });

  test('bad input: no match; unknown option', async () => {
    const a = await arena();
    await rejected(a, carol, 'status', 'no_match');
    assertOk(await a.run(alice, 'new'));
    await rejected(a, carol, 'status verbose:true', 'unknown_option');
    await a.close();
  });
});

describe('me', () => {
  test('private view of own jobs, blocks and incoming offers with accept/reject buttons', async () => {
    const a = await started();
    assertOk(await a.run(alice, 'offer to:lab_1 pay:4'));
    const r = assertOk(await a.run(bob, 'me'));
    assert.equal(r.public.length, 0);
    assert.equal(r.private[0]?.userId, bob.userId);
    const text = replyText(r);
    const s = await a.state();
    for (const j of jobsOf(s, 'lab_1')) assert.match(text, new RegExp(j));
    for (const j of [...jobsOf(s, 'lab_0'), ...jobsOf(s, 'lab_2')]) assert.ok(!text.includes(j), `me leaks ${j}`);
    for (const b of blocksOf(s, 'lab_1')) assert.match(text, new RegExp(b));
    assert.match(text, new RegExp(`Budget ${s.labs.lab_1!.budget.toFixed(2)}`));
    const buttons = r.private[0]?.buttons?.map((b) => b.command);
    assert.deepEqual(
      buttons,
      ['accept offer:o_1', 'reject offer:o_1', 'offer', 'done'],
      'the offer builder button (offer with no options) before done',
    );
    await a.close();
  });

  test('in the lobby it says which seat; bad input: no seat, no match', async () => {
    const a = await arena();
    await rejected(a, alice, 'me', 'no_match');
    assertOk(await a.run(alice, 'new seed:7'));
    await rejected(a, alice, 'me', 'no_seat');
    assertOk(await a.run(alice, 'join'));
    assert.match(replyText(assertOk(await a.run(alice, 'me'))), /You hold Lab A \(lab_0\)/);
    await a.close();
  });
});

describe('done', () => {
  test('waits for every person, then the round closes; repeated done is a private note', async () => {
    const a = await started();
    const first = assertOk(await a.run(alice, 'done'));
    assert.match(replyText(first), /Lab A is done with round 1\/5\. Waiting for: Lab B \(👤 Bob\)/);
    const again = assertOk(await a.run(alice, 'done'));
    assert.equal(again.public.length, 0);
    assert.match(replyText(again), /already said done/);
    const close = assertOk(await a.run(bob, 'done'));
    assert.ok(close.public.some((p) => /Round 1\/5 closed/.test(p.title ?? '')));
    assert.equal((await a.state()).round, 1);
    await a.close();
  });

  test('playing every round to the end gives the final leaderboard; then commands find no match', async () => {
    const a = await started();
    let last = '';
    for (let round = 0; round < 5; round++) {
      assertOk(await a.run(alice, 'done'));
      last = replyText(assertOk(await a.run(bob, 'done')));
    }
    assert.match(last, /Match over: final leaderboard/);
    assert.equal(await a.host.current(CHANNEL), null);
    await rejected(a, alice, 'done', 'no_match');
    await rejected(a, alice, 'me', 'no_match');
    await a.close();
  });

  test('bad input: not started, no seat', async () => {
    const a = await lobby();
    await rejected(a, alice, 'done', 'not_started');
    assertOk(await a.run(alice, 'start'));
    await rejected(a, carol, 'done', 'no_seat');
    await a.close();
  });
});

describe('completions', () => {
  test("only the caller's own ids, other labs' blocks for want, all labs; lists complete the last item", async () => {
    const a = await started();
    const s = await a.state();
    const values = async (kind: Parameters<typeof completions>[3], partial: string, option?: string) =>
      (await completions(a.host, CHANNEL, alice, kind, partial, option ? { option } : {})).map((c) => c.value);
    assert.deepEqual(await values('blocks', ''), blocksOf(s, 'lab_0'));
    assert.deepEqual(await values('jobs', ''), jobsOf(s, 'lab_0'));
    assert.deepEqual(await values('lab', 'lab_'), ['lab_0', 'lab_1', 'lab_2']);
    const want = await values('blocks', '', 'want');
    assert.deepEqual(want.sort(), [...blocksOf(s, 'lab_1'), ...blocksOf(s, 'lab_2')].sort());
    const [b0, b1] = blocksOf(s, 'lab_0');
    assert.deepEqual(
      await values('blocks', `${b0},`),
      blocksOf(s, 'lab_0')
        .slice(1)
        .map((b) => `${b0},${b}`),
    );
    assert.deepEqual(await values('blocks', `${b0},${b1}`), [`${b0},${b1}`]);
    assertOk(await a.run(bob, 'offer to:lab_0 pay:1'));
    assert.deepEqual(await values('offer', ''), ['o_1']);
    assert.deepEqual(await completions(a.host, CHANNEL, carol, 'blocks', ''), [], 'no seat, no ids');
    await a.close();
  });
});

describe('unexpected errors', () => {
  test('a host that throws gives a private internal_error and reaches the error sink', async () => {
    const seen: unknown[] = [];
    setCommandErrorSink((e) => seen.push(e));
    const broken = {
      current: async () => {
        throw new Error('db down');
      },
    } as unknown as ArenaHost;
    const r = await runText(broken, CHANNEL, alice, 'status');
    assert.equal(r.error?.code, 'internal_error');
    assert.equal(r.public.length, 0);
    assert.equal(seen.length, 1);
    setCommandErrorSink(() => {});
  });
});
