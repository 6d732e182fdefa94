import assert from 'node:assert/strict';
import { ARCHETYPES } from '../../src/engine/policies/index.js';
import { describe, test } from 'node:test';
import { DEADLINE_FIELD } from '../../src/host/index.js';
import { codeOf, harness, person, postText, publicText, publishedText, replayed, seatOf, unwrap } from './helpers.js';

const alice = person('alice');
const bob = person('bob');
const carol = person('carol');

describe('round host lifecycle', () => {
  test('new → join → start → act → done → close … → final leaderboard', async () => {
    const h = await harness();
    const { host, store } = h;
    const lobby = unwrap(
      await host.create('c1', 'console', alice, { task: 'market_round', seed: 11, roundSeconds: 0 }),
    );
    assert.equal(lobby.phase, 'lobby');
    assert.equal(lobby.hostUserId, alice.userId);
    assert.equal((await host.current('c1'))?.id, lobby.id);

    const j1 = unwrap(await host.join('c1', bob, 'lab_1'));
    assert.equal(j1.lab, 'lab_1');
    const j2 = unwrap(await host.join('c1', alice));
    assert.equal(j2.lab, 'lab_0', 'first free seat');

    const started = unwrap(await host.start('c1', alice));
    const m = started.match;
    assert.equal(m.phase, 'running');
    assert.equal(m.settings.seed, 11, 'the host chose it');
    assert.deepEqual(
      m.drivers['lab_2'],
      { kind: 'scripted', policy: ARCHETYPES[(11 + 2) % ARCHETYPES.length] },
      'seat 2 gets the archetype rotated by the seed',
    );
    assert.doesNotMatch(
      publicText(started.reply),
      /scripted: /,
      "a scripted seat's policy is not public while the match runs",
    );
    assert.equal(m.state?.round, 0);
    assert.match(publicText(started.reply), /Round 1\/5 is open/);
    assert.deepEqual(
      started.reply.private.map((p) => p.userId).sort(),
      [alice.userId, bob.userId].sort(),
      'each person gets a briefing',
    );
    assert.equal((await store.getMatch(m.id))?.status, 'running');

    const aliceJobs = Object.values(m.state?.jobs ?? {})
      .filter((j) => j.owner === 'lab_0')
      .map((j) => j.id);
    const pitch = unwrap(
      await host.act('c1', alice, {
        action_type: 'make_pitch',
        message: `We need capacity for ${aliceJobs.join(', ')} soon.`,
        job_ids: aliceJobs,
      }),
    );
    assert.equal(pitch.result.ok, true);
    assert.equal(pitch.result.code, 'pitch_recorded');
    const bad = unwrap(await host.act('c1', bob, '{"action_type":"nope"'));
    assert.equal(bad.result.ok, false, 'engine errors come back as results');
    assert.equal(bad.result.code, 'malformed_action');

    const d1 = unwrap(await host.done('c1', alice));
    assert.equal(d1.closed, null);
    assert.deepEqual(d1.match.done, ['lab_0']);
    assert.equal(unwrap(await host.done('c1', alice)).closed, null, 'done twice is harmless');
    const d2 = unwrap(await host.done('c1', bob));
    assert.ok(d2.closed, 'the last person done closes the round');
    const closeText = publicText(d2.closed);
    assert.match(closeText, /Round 1\/5 closed: every seat is done/);
    assert.match(closeText, /Lab A: \d\.\d\d \(need/, 'judged pitch with its parts');
    assert.match(closeText, /Leaderboard/);
    assert.match(closeText, /Round 2\/5 is open/);
    assert.equal(d2.match.state?.round, 1);
    assert.deepEqual(d2.match.done, []);
    const priv = d2.closed.private;
    const rewardPosts = priv.filter((p) => /your round 1 reward/.test(p.title ?? ''));
    assert.deepEqual(
      rewardPosts.map((p) => p.userId).sort(),
      [alice.userId, bob.userId].sort(),
      'each person gets their round post',
    );
    for (const p of rewardPosts) {
      // The round's ledger: each non-zero change with its reason, then the round total and the new total.
      assert.match(
        p.text,
        /^Round 1: ([+−]\d\.\d{4} → total|no change to your reward; total) [+−]\d\.\d{4}\.$/m,
        'round and running total',
      );
      assert.doesNotMatch(p.text, /^[+−]0\.0000 /m, 'zero entries are not printed');
    }
    assert.equal(h.published.length, 0, 'a close caused by a command is returned, not published');

    let last = d2;
    for (let round = 1; round < 5; round++) {
      unwrap(await host.done('c1', alice));
      last = unwrap(await host.done('c1', bob));
      assert.ok(last.closed);
    }
    assert.equal(last.match.phase, 'over');
    assert.equal(last.match.state?.over, true);
    const finalText = publicText(last.closed);
    assert.match(finalText, /Round 5\/5 closed/);
    assert.match(finalText, /Match over: final leaderboard/);
    assert.match(finalText, /Winner: Lab [ABC]/);
    assert.equal((await store.getMatch(m.id))?.status, 'over');
    assert.equal(await host.current('c1'), null);
    assert.equal(codeOf(await host.act('c1', alice, { action_type: 'wait' })), 'no_match');

    const fromLog = await replayed(store, m.id);
    assert.equal(JSON.stringify(fromLog), JSON.stringify(last.match), 'the match is the replay of its log');
    const events = await store.load(m.id);
    assert.equal(events.filter((e) => e.body.type === 'round_closed').length, 5);

    unwrap(await host.create('c1', 'console', bob, { task: 'single_trade', seed: 1 }));
    await host.stop();
  });

  test('round timer: deadline field, closes when it runs out, timer re-armed each round', async () => {
    // Without auto-done: this person's jobs may be out of reach, and the timer is what is tested here.
    const h = await harness({ autoDone: false });
    const { host, clock } = h;
    unwrap(await host.create('t1', 'console', alice, { task: 'single_trade', seed: 3, roundSeconds: 60 }));
    unwrap(await host.join('t1', alice));
    const t0 = clock.now();
    const s = unwrap(await host.start('t1', alice));
    assert.equal(s.match.roundDeadline, t0 + 60_000);
    const open = s.reply.public.find((p) => /is open/.test(p.title ?? ''));
    assert.equal(open?.fields?.find((f) => f.name === DEADLINE_FIELD)?.value, new Date(t0 + 60_000).toISOString());

    await clock.advance(59_000);
    await host.idle();
    assert.equal(h.published.length, 0);
    await clock.advance(1_000);
    await host.idle();
    assert.equal(h.published.length, 1);
    assert.equal(h.published[0]?.channelId, 't1');
    assert.match(publishedText(h), /Round 1\/3 closed: the round timer ran out/);
    const m1 = await host.current('t1');
    assert.equal(m1?.state?.round, 1);
    assert.equal(m1?.roundDeadline, t0 + 120_000);

    // done before the timer closes early; the old timer must not close the next round.
    const d = unwrap(await host.done('t1', alice));
    assert.ok(d.closed);
    assert.equal(d.match.state?.round, 2);
    await clock.advance(59_000);
    await host.idle();
    assert.equal((await host.current('t1'))?.state?.round, 2, 'round 3 runs its own 60 s');
    await clock.advance(1_000);
    await host.idle();
    assert.equal(await host.current('t1'), null, 'last round closed by the timer: match over');
    assert.match(publishedText(h), /Match over: final leaderboard/);
    await host.stop();
  });
});

describe('round host permissions', () => {
  test('one match per channel, one seat per person, seat and host checks', async () => {
    const { host } = await harness({ adminUserIds: ['test:root'] });
    assert.equal(codeOf(await host.join('p1', alice)), 'no_match');
    assert.equal(codeOf(await host.create('p1', 'console', alice, { task: 'nope' as never })), 'invalid_settings');
    const bad = await host.create('p1', 'console', alice, { roundSeconds: -1 });
    assert.equal(!bad.ok && bad.error.option, 'roundSeconds');
    unwrap(await host.create('p1', 'console', alice, { task: 'market_round', seed: 5, roundSeconds: 0 }));
    assert.equal(codeOf(await host.create('p1', 'console', bob, {})), 'match_exists');
    unwrap(await host.create('p2', 'console', bob, {}));

    unwrap(await host.join('p1', alice, 'Lab B'));
    assert.equal(codeOf(await host.join('p1', alice, 'lab_0')), 'already_seated');
    assert.equal(codeOf(await host.join('p1', bob, 'lab_1')), 'seat_taken');
    assert.equal(codeOf(await host.join('p1', bob, 'lab_9')), 'unknown_seat');
    assert.equal(codeOf(await host.act('p1', alice, { action_type: 'wait' })), 'not_running');
    assert.equal(codeOf(await host.done('p1', alice)), 'not_running');

    assert.equal(codeOf(await host.assign('p1', bob, 'lab_2', { kind: 'scripted', policy: 'selfish' })), 'not_host');
    assert.equal(
      codeOf(await host.assign('p1', alice, 'lab_1', { kind: 'scripted', policy: 'selfish' })),
      'seat_taken',
    );
    assert.equal(
      codeOf(await host.assign('p1', alice, 'lab_2', { kind: 'scripted', policy: 'genius' as never })),
      'invalid_driver',
    );
    assert.equal(
      codeOf(await host.assign('p1', alice, 'lab_2', { kind: 'llm', model: 'gpt' })),
      'invalid_driver',
      'no agents configured',
    );
    const assigned = unwrap(await host.assign('p1', alice, 'lab_2', { kind: 'scripted', policy: 'rule_based_expert' }));
    assert.deepEqual(assigned.drivers['lab_2'], { kind: 'scripted', policy: 'rule_based_expert' });
    assert.equal(codeOf(await host.join('p1', bob, 'lab_2')), 'seat_taken');
    unwrap(await host.join('p1', bob));

    assert.equal(codeOf(await host.start('p1', bob)), 'not_host');
    const started = unwrap(await host.start('p1', person('mod', true)));
    assert.equal(started.match.drivers['lab_0']?.kind, 'human', 'an admin may start');
    assert.equal(seatOf(started.match, bob), 'lab_0');
    assert.equal(codeOf(await host.start('p1', alice)), 'not_in_lobby');
    assert.equal(codeOf(await host.join('p1', carol)), 'not_in_lobby');
    assert.equal(codeOf(await host.act('p1', carol, { action_type: 'wait' })), 'not_your_seat');
    assert.equal(codeOf(await host.done('p1', carol)), 'not_your_seat');
    assert.equal(host.seatOf(started.match, carol.userId), null);
    assert.equal(host.seatOf(started.match, alice.userId), 'lab_1');

    assert.equal(codeOf(await host.end('p1', bob)), 'not_host');
    const ended = unwrap(await host.end('p1', person('root')));
    assert.equal(ended.match.phase, 'over');
    assert.match(publicText(ended.reply), /Match ended by the host/);
    assert.equal(await host.current('p1'), null);
    const cancelled = unwrap(await host.end('p2', bob));
    assert.match(postText(cancelled.reply.public[0] ?? { text: '' }), /cancelled/);
    await host.stop();
  });
});

test('an llm seat assigned without a model gets the configured default agent model', async () => {
  const agentFor = () => ({ act: async () => [] });
  const { host } = await harness({ agentFor, defaultAgentModel: 'default-m' });
  const alice = person('alice');
  unwrap(await host.create('c-llm', 'test', alice, { task: 'market_round', seed: 2, roundSeconds: 0 }));
  const m = unwrap(await host.assign('c-llm', alice, 'lab_2', { kind: 'llm', model: '' }));
  assert.deepEqual(m.drivers['lab_2'], { kind: 'llm', model: 'default-m' });
  const named = unwrap(await host.assign('c-llm', alice, 'lab_1', { kind: 'llm', model: 'mine' }));
  assert.deepEqual(named.drivers['lab_1'], { kind: 'llm', model: 'mine' });
  await host.stop();
});
