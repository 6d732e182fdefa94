/**
 * Ballots in the round host: one opens when a round with two or more pitches closes (votes on), the
 * judge's scores stay out of the round-close post, votes are one per person per pair and never on one's
 * own pitch, a ballot closes with the next round (or on its clock at match end) and posts the verdict,
 * and a restart keeps the ballot, its votes and its clock.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runText } from '../../src/commands/index.js';
import type { Caller, Reply } from '../../src/commands/types.js';
import { FakeClock, RoundHost } from '../../src/host/index.js';
import { openStore, type EventStore } from '../../src/store/index.js';
import { harness, person, postText, publicText, publishedText, tempDb, type Harness } from './helpers.js';

const alice = person('alice');
const bob = person('bob');
const carol = person('carol');
const dave = person('dave');
const CH = 'ballots';

/** Every text a reply shows `who` (public posts and their own private posts). */
const seenBy = (who: Caller, ...replies: Reply[]) =>
  replies
    .flatMap((r) => [...r.public.map(postText), ...r.private.filter((p) => p.userId === who.userId).map(postText)])
    .join('\n');

/** Judge output as the round-close post shows it without a ballot: "0.59 (need …" and "Winner: …". */
const JUDGE_SCORES = /\d\.\d\d \(need \d|Winner: |won the round/;

async function run(h: Harness, who: Caller, text: string): Promise<Reply> {
  return runText(h.host, CH, who, text);
}

/** A running market_round (seed 7, no round timer, votes on): alice lab_0, bob lab_1, lab_2 dave or scripted. */
async function started(h: Harness, withDave = false): Promise<string> {
  assert.equal((await run(h, alice, 'new task:market_round seed:7 round_seconds:0 votes:on')).error, undefined);
  await run(h, alice, 'join lab:lab_0');
  await run(h, bob, 'join lab:lab_1');
  if (withDave) await run(h, dave, 'join lab:lab_2');
  await run(h, alice, 'start');
  const m = await h.host.current(CH);
  assert.ok(m);
  return m.id;
}

/** Every person seated pitches for a pending job, then says done; returns the last (closing) reply. */
async function pitchRound(h: Harness): Promise<Reply> {
  const m = await h.host.current(CH);
  assert.ok(m?.state);
  const people = [alice, bob, dave]
    .map((who) => [who, h.host.seatOf(m, who.userId)] as const)
    .filter(([, lab]) => lab !== null);
  for (const [who, lab] of people) {
    const job = Object.values(m.state.jobs).find((j) => j.owner === lab && j.outcome === 'pending');
    const text = job
      ? `${job.id} still needs GPU-hours before its deadline`
      : 'we need GPU capacity for our remaining work';
    await run(h, who, `pitch text:"${text}"${job ? ` job:${job.id}` : ''}`);
  }
  let last: Reply | null = null;
  for (const [who] of people) last = await run(h, who, 'done');
  return last!;
}

const votesOf = (store: EventStore, matchId: string) => store.listVotes({ matchId });

describe('ballots in the round host', () => {
  test('a ballot per round, blind posts, one vote per person per pair, never on your own pitch', async () => {
    const h = await harness({ votes: { ballotSeconds: 60 } });
    const id = await started(h, true);
    const closed = await pitchRound(h);
    const m = await h.host.current(CH);
    assert.equal(m?.ballots.length, 1);
    const ballot = m!.ballots[0]!;
    assert.equal(ballot.id, 'v_1');
    assert.equal(ballot.closesAt, null, 'closes with the next round');
    assert.deepEqual(
      ballot.pitches.map((p) => p.id),
      ['p0_lab_0', 'p0_lab_1', 'p0_lab_2'],
    );
    assert.deepEqual(ballot.pairs, [
      ['p0_lab_0', 'p0_lab_1'],
      ['p0_lab_0', 'p0_lab_2'],
      ['p0_lab_1', 'p0_lab_2'],
    ]);
    assert.ok(
      ballot.judge && ballot.judge.scores.length >= 2,
      'the judge decision of the round is kept with the ballot',
    );

    // The round-close post: an invitation to vote, no judge scores.
    assert.doesNotMatch(publicText(closed), JUDGE_SCORES);
    assert.match(publicText(closed), /hidden while ballot v_1 is open/);
    assert.ok(closed.public.some((p) => p.buttons?.some((b) => b.command === 'vote ballot:v_1')));

    // carol (no seat) is served every pair, one at a time; the pair is blind.
    const served = await run(h, carol, 'vote');
    assert.equal(served.error, undefined);
    assert.equal(served.public.length, 0, 'pairs are private');
    const pairPost = served.private[0]!;
    assert.equal(pairPost.userId, carol.userId);
    assert.match(pairPost.title ?? '', /Ballot v_1 · pair 1 of/);
    assert.doesNotMatch(
      postText(pairPost),
      /Lab [ABC]|alice|bob|dave|lab_|\bj_\d|\bb_\d/,
      'authors hidden: no lab, player, job or block id',
    );
    assert.match(
      postText(pairPost),
      /\[own job 1\] still needs GPU-hours/,
      'the job id that names its owner is replaced',
    );
    assert.deepEqual(
      pairPost.buttons?.map((b) => b.command),
      ['a', 'b', 'tie', 'both_bad'].map((c) => `vote ballot:v_1 pair:1 choice:${c}`),
    );
    assert.ok(
      pairPost.buttons!.every((b) => b.id.length <= 100),
      'fits a Discord custom_id',
    );
    assert.doesNotMatch(seenBy(carol, closed, served), JUDGE_SCORES, 'no judge verdict before the vote');

    const voted = await run(h, carol, 'vote ballot:v_1 pair:1 choice:a');
    assert.equal(voted.error, undefined);
    assert.match(postText(voted.private[0]!), /Vote recorded/);
    assert.match(postText(voted.private[0]!), /Pitch A was Lab [ABC]/, 'authors shown after the vote');
    assert.match(postText(voted.private[0]!), /\d\.\d\d \(need/, "the judge's scores of the pair after the vote");
    const rows = await votesOf(h.store, id);
    assert.equal(rows.length, 1);
    const [pa, pb] = ballot.pairs[0]!;
    assert.deepEqual(
      { ...rows[0], createdAt: '' },
      {
        matchId: id,
        round: 0,
        ballotId: 'v_1',
        pair: 1,
        pitchA: pa,
        pitchB: pb,
        choice: rows[0]!.shownFirst === pa ? 'a' : 'b',
        shownFirst: rows[0]!.shownFirst,
        voterId: carol.userId,
        seated: false,
        createdAt: '',
        anonymous: true,
      },
    );

    // Repeat and own-pitch votes: clear private errors, no row.
    const again = await run(h, carol, 'vote ballot:v_1 pair:1 choice:b');
    assert.equal(again.error?.code, 'duplicate_vote');
    assert.equal(again.public.length, 0);
    const own = await run(h, alice, 'vote ballot:v_1 pair:1 choice:a');
    assert.equal(own.error?.code, 'own_pitch', 'pair 1 holds lab_0 and lab_1');
    assert.match(postText(own.private[0]!), /your own seat's pitch/);
    assert.equal((await votesOf(h.store, id)).length, 1);

    // A seated voter may vote on pairs without their pitch, and is recorded as seated.
    const aliceNext = await run(h, alice, 'vote');
    assert.match(aliceNext.private[0]!.title ?? '', /pair 3 of 3/, 'lab_1 vs lab_2 is the only pair without lab_0');
    assert.equal((await run(h, alice, 'vote ballot:v_1 pair:3 choice:tie')).error, undefined);
    assert.equal((await votesOf(h.store, id)).find((v) => v.voterId === alice.userId)?.seated, true);
    assert.match(
      postText((await run(h, alice, 'vote')).private[0]!),
      /judged every pair of ballot v_1 open to you \(1\)/,
    );

    // The next round's close closes v_1 (verdict posted) and opens v_2.
    const second = await pitchRound(h);
    const text = publicText(second);
    assert.match(text, /Ballot v_1 closed \(round 1 pitches\): the next round closed/);
    assert.match(text, /\d\.\d\d \(need/, 'the judge of round 1 is shown once its ballot closed');
    assert.match(text, /hidden while ballot v_2 is open/);
    const after = await h.host.current(CH);
    assert.equal(after?.ballots[0]?.closed?.reason, 'next_round');
    assert.equal((await run(h, carol, 'vote ballot:v_1 pair:2 choice:a')).error?.code, 'ballot_closed');
    await h.host.stop();
  });

  test('the last ballot stays open ballotSeconds after the match ends, then closes on its clock', async () => {
    const h = await harness({ votes: { ballotSeconds: 60 } });
    const id = await started(h);
    let last: Reply | null = null;
    for (let r = 0; r < 5; r++) last = await pitchRound(h);
    assert.match(publicText(last!), /Match over: final leaderboard/);
    assert.equal(await h.host.current(CH), null, 'the channel is free for a new match');
    const t0 = h.clock.now();
    // Votes still go to the finished match's open ballot.
    const served = await run(h, carol, 'vote');
    assert.match(served.private[0]!.title ?? '', /Ballot v_5 · pair 1/);
    assert.equal((await run(h, carol, 'vote ballot:v_5 pair:1 choice:both_bad')).error, undefined);
    await h.clock.advance(59_000);
    await h.host.idle();
    assert.doesNotMatch(publishedText(h), /Ballot v_5 closed/);
    await h.clock.advance(1_000);
    await h.host.idle();
    assert.match(publishedText(h), /Ballot v_5 closed \(round 5 pitches\): its time ran out/);
    assert.match(publishedText(h), /1 vote from 1 person \(0 seated, 1 spectators\)/);
    const events = await h.store.load(id);
    const closedAt = events.find((e) => e.body.type === 'ballot_closed' && e.body.ballotId === 'v_5')?.at;
    assert.equal(closedAt, new Date(t0 + 60_000).toISOString());
    assert.equal((await run(h, carol, 'vote')).error?.code, 'no_ballot');
    await h.host.stop();
  });

  test('host `end` mid-ballot gives the open ballot a clock; ballotSeconds 0 closes it with the match', async () => {
    const h = await harness({ votes: { ballotSeconds: 30 } });
    const id = await started(h);
    await pitchRound(h);
    await run(h, alice, 'end');
    const events = await h.store.load(id);
    const deadline = events.at(-1)!.body;
    assert.equal(deadline.type, 'ballot_deadline');
    await h.clock.advance(30_000);
    await h.host.idle();
    assert.match(publishedText(h), /Ballot v_1 closed/);

    const z = await harness({ votes: { ballotSeconds: 0 } });
    await started(z);
    await pitchRound(z);
    const ended = await runText(z.host, CH, alice, 'end');
    assert.match(publicText(ended), /Ballot v_1 closed \(round 1 pitches\): the match ended/);
    await h.host.stop();
    await z.host.stop();
  });

  test('votes off: no ballot, the judge scores in the round-close post as before', async () => {
    const h = await harness();
    await run(h, alice, 'new task:market_round seed:7 round_seconds:0 votes:off');
    await run(h, alice, 'join lab:lab_0');
    await run(h, bob, 'join lab:lab_1');
    await run(h, alice, 'start');
    const closed = await pitchRound(h);
    assert.match(publicText(closed), /\d\.\d\d \(need/);
    assert.equal((await h.host.current(CH))?.ballots.length, 0);
    assert.equal((await run(h, carol, 'vote')).error?.code, 'no_ballot');
    await h.host.stop();
  });

  test('a person over the rate limit gets a private error and no row', async () => {
    const h = await harness({ votes: { perMinute: 1 } });
    const id = await started(h, true);
    await pitchRound(h);
    assert.equal((await run(h, carol, 'vote ballot:v_1 pair:1 choice:a')).error, undefined);
    const limited = await run(h, carol, 'vote ballot:v_1 pair:2 choice:a');
    assert.equal(limited.error?.code, 'rate_limited');
    assert.match(postText(limited.private[0]!), /at most 1 votes a minute/);
    assert.equal((await votesOf(h.store, id)).length, 1);
    await h.host.stop();
  });

  test('restart mid-ballot: the ballot and its votes are intact and it closes on time', async () => {
    const db = tempDb();
    const clock = new FakeClock();
    try {
      const store1 = await openStore({ sqlitePath: db.path });
      const one = await harness({ store: store1, clock, votes: { ballotSeconds: 120 } });
      const id = await started(one);
      await pitchRound(one); // v_1 open until the next round closes
      assert.equal((await run(one, carol, 'vote ballot:v_1 pair:1 choice:a')).error, undefined);
      const before = await one.host.current(CH);
      await one.host.stop(); // the process dies (its timers with it)
      await store1.close();

      const store2 = await openStore({ sqlitePath: db.path });
      const two = await harness({ store: store2, clock, votes: { ballotSeconds: 120 } });
      await two.host.restore();
      const after = await two.host.current(CH);
      assert.deepEqual(after?.ballots, before?.ballots, 'the ballot is intact');
      assert.equal((await votesOf(store2, id)).length, 1, 'its vote is intact');
      assert.equal(
        (await run(two, carol, 'vote ballot:v_1 pair:1 choice:b')).error?.code,
        'duplicate_vote',
        'still one vote per pair after the restart',
      );
      const served = await run(two, carol, 'vote ballot:v_1 pair:1');
      assert.match(postText(served.private[0]!), /You already voted on pair 1/);
      // Play to the end: v_1 closes with round 2, v_5 opens at the end with a 120 s clock.
      for (let r = 0; r < 4; r++) await pitchRound(two);
      assert.equal(await two.host.current(CH), null);
      assert.equal((await run(two, carol, 'vote ballot:v_5 pair:1 choice:tie')).error, undefined);
      const endAt = clock.now();
      await two.host.stop();
      await store2.close();

      // Killed again with the final ballot open; restarted 50 s later, its clock still ends at endAt + 120 s.
      await clock.advance(50_000);
      const store3 = await openStore({ sqlitePath: db.path });
      const three = await harness({ store: store3, clock, votes: { ballotSeconds: 120 } });
      await three.host.restore();
      assert.equal(three.host.ballotDueAt(id, 'v_5'), endAt + 120_000, "the finished match's ballot clock is re-armed");
      await clock.advance(69_000);
      await three.host.idle();
      assert.doesNotMatch(publishedText(three), /Ballot v_5 closed/);
      await clock.advance(1_000);
      await three.host.idle();
      assert.match(publishedText(three), /Ballot v_5 closed \(round 5 pitches\): its time ran out/);
      const votes = await votesOf(store3, id);
      assert.deepEqual(
        votes.map((v) => `${v.ballotId}/${v.pair}/${v.voterId}`),
        ['v_1/1/test:carol', 'v_5/1/test:carol'],
      );
      const closedEv = (await store3.load(id)).filter((e) => e.body.type === 'ballot_closed');
      assert.deepEqual(
        closedEv.map((e) => (e.body.type === 'ballot_closed' ? `${e.body.ballotId}:${e.body.reason}` : '')),
        ['v_1:next_round', 'v_2:next_round', 'v_3:next_round', 'v_4:next_round', 'v_5:timer'],
      );
      assert.equal(closedEv.at(-1)!.at, new Date(endAt + 120_000).toISOString());

      // A fourth start finds nothing left open.
      await three.host.stop();
      const four = new RoundHost({ store: store3, clock, publish: async () => {} });
      await four.restore();
      assert.equal(four.ballotDueAt(id, 'v_5'), null);
      await four.stop();
      await store3.close();
    } finally {
      db.cleanup();
    }
  });

  test('two hosts on one store close a ballot once', async () => {
    const clock = new FakeClock();
    const one = await harness({ clock, votes: { ballotSeconds: 10 } });
    const id = await started(one);
    for (let r = 0; r < 5; r++) await pitchRound(one);
    const two = await harness({ store: one.store, clock, votes: { ballotSeconds: 10 } });
    await two.host.restore();
    assert.equal(two.host.ballotDueAt(id, 'v_5'), one.host.ballotDueAt(id, 'v_5'));
    await clock.advance(10_000);
    await one.host.idle();
    await two.host.idle();
    const closes = (await one.store.load(id)).filter(
      (e) => e.body.type === 'ballot_closed' && e.body.ballotId === 'v_5',
    );
    assert.equal(closes.length, 1);
    const posts = [...one.published, ...two.published].filter((p) =>
      p.reply.public.some((x) => /Ballot v_5 closed/.test(x.title ?? '')),
    );
    assert.equal(posts.length, 1, 'posted once');
    await one.host.stop();
    await two.host.stop();
  });
});
