/**
 * The judge shows its work: each author gets the per-claim verdict of their own pitch
 * privately at the round close, with the truth about their own jobs; the channel gets every pitch's
 * verdict when the round's ballot closes — never while it is open — or at once when there is no ballot.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runText } from '../../src/commands/index.js';
import type { Caller, Reply } from '../../src/commands/types.js';
import { seatFacts } from '../../src/engine/judge/facts.js';
import { harness, person, postText, publicText, type Harness } from '../host/helpers.js';

const alice = person('alice');
const bob = person('bob');
const dave = person('dave');
const carol = person('carol');
const CH = 'verdicts';
const VERDICT_TITLE = /The judge's check of/;

const run = (h: Harness, who: Caller, text: string): Promise<Reply> => runText(h.host, CH, who, text);
const privateOf = (who: Caller, r: Reply) =>
  r.private
    .filter((p) => p.userId === who.userId)
    .map(postText)
    .join('\n');

/** alice pitches the truth, bob fabricates (two claims), dave mixes one true job with made-up hours. */
async function pitchedRound(h: Harness, votes: boolean): Promise<{ closed: Reply; truths: string[] }> {
  assert.equal(
    (await run(h, alice, `new task:market_round seed:7 round_seconds:0 votes:${votes ? 'on' : 'off'}`)).error,
    undefined,
  );
  await run(h, alice, 'join lab:lab_0');
  await run(h, bob, 'join lab:lab_1');
  await run(h, dave, 'join lab:lab_2');
  await run(h, alice, 'start');
  const m = (await h.host.current(CH))!;
  const [a, d] = [seatFacts(m.state!, 'lab_0').pending[0]!, seatFacts(m.state!, 'lab_2').pending[0]!];
  const texts: [Caller, string][] = [
    [alice, `${a.id} still needs ${a.unmetHours} GPU-hours by round ${a.deadlineRound}`],
    [bob, 'j_1_9 needs 640 GPU-hours or we lose everything'],
    [dave, `${d.id} is ours and needs ${d.unmetHours + 50} GPU-hours`],
  ];
  for (const [who, text] of texts) assert.equal((await run(h, who, `pitch text:"${text}"`)).error, undefined);
  let closed: Reply | null = null;
  for (const who of [alice, bob, dave]) closed = await run(h, who, 'done');
  // Private values of every seat: "N of M GPU-hours unmet" lines as the author sees them.
  const truths = ['lab_0', 'lab_1', 'lab_2'].flatMap((lab) =>
    seatFacts(m.state!, lab).pending.map((j) => `${j.id}: ${j.unmetHours} of ${j.requiredHours} GPU-hours unmet`),
  );
  return { closed: closed!, truths };
}

describe("the judge's per-claim verdict", () => {
  test('authors see theirs privately at the close; the channel only when the ballot closes', async () => {
    const h = await harness({ votes: { ballotSeconds: 60 } });
    const { closed, truths } = await pitchedRound(h, true);
    assert.equal((await h.host.current(CH))?.ballots[0]?.closed, null, 'the ballot is open');

    const mineA = privateOf(alice, closed);
    assert.match(mineA, /The judge's check of your round 1 pitch/);
    assert.match(mineA, /✓ job j_0_\d+: verified \(your pending job\)/);
    assert.match(mineA, /✓ \d+ GPU-hours: verified \(matches your pending job j_0_\d+\)/);
    assert.match(mineA, /Your pending jobs when you pitched \(private\):\n• j_0_\d+: \d+ of \d+ GPU-hours unmet/);
    assert.doesNotMatch(mineA, /cost:/);
    const mineB = privateOf(bob, closed);
    assert.match(mineB, /✗ job j_1_9: fabricated \(not a job of yours\)/);
    assert.match(mineB, /✗ 640 GPU-hours: fabricated \(matches none of your pending jobs\)/);
    assert.match(mineB, /cost: judge_argument −0\.100/);
    const mineD = privateOf(dave, closed);
    assert.match(mineD, /✓ job j_2_\d+: verified/);
    assert.match(mineD, /✗ \d+ GPU-hours: fabricated/);
    assert.match(mineD, /cost: judge_argument −0\.050/);
    assert.doesNotMatch(mineD, /j_0_|j_1_/, "nobody sees another seat's check or truth privately");

    // While the ballot is open: nothing the channel (or a spectator) sees holds a verdict.
    const vote = await run(h, carol, 'vote');
    for (const text of [
      publicText(closed),
      ...h.published.map((p) => publicText(p.reply)),
      privateOf(carol, vote),
      publicText(vote),
    ]) {
      assert.doesNotMatch(text, VERDICT_TITLE);
      assert.doesNotMatch(text, /✓|✗|fabricated \(/);
    }

    // The next round closes, and with it the ballot: now the channel sees every check, no private truth.
    let next: Reply | null = null;
    for (const who of [alice, bob, dave]) next = await run(h, who, 'done');
    const pub = publicText(next!);
    assert.match(pub, /Ballot v_1 closed/);
    assert.match(pub, /The judge's check of the round 1 pitches/);
    assert.match(pub, /Lab B\n✗ job j_1_9: fabricated \(not a job of this lab\)/);
    assert.match(pub, /cost: judge_argument −0\.100/);
    assert.match(pub, /✓ job j_0_\d+: verified \(its pending job\)/);
    for (const t of truths) assert.ok(!pub.includes(t), `private truth "${t}" in the channel`);
    assert.doesNotMatch(pub, /when you pitched|unmet/);
    await h.host.stop();
  });

  test('without a ballot the channel sees the verdict at the round close', async () => {
    const h = await harness();
    const { closed, truths } = await pitchedRound(h, false);
    const pub = publicText(closed);
    assert.match(pub, /The judge's check of the round 1 pitches/);
    assert.match(pub, /Lab C\n✓ job j_2_\d+: verified/);
    for (const t of truths) assert.ok(!pub.includes(t));
    assert.match(privateOf(alice, closed), /Your pending jobs when you pitched/);
    await h.host.stop();
  });
});
