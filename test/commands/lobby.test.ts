/** Lifecycle commands against the real round host: new, join, seat, start, end, help. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { COMMAND_SPECS, type Reply } from '../../src/commands/index.js';
import { CHANNEL, alice, arena, assertOk, bob, carol, lobby, rejected, replyText, started } from './harness.js';
import { plainOf } from '../../src/chat/player-text.js';

describe('new', () => {
  test('opens a lobby hosted by the caller, public post with Join/Start buttons', async () => {
    const a = await arena();
    const r = assertOk(await a.run(alice, 'new task:single_trade seed:12 round_seconds:30 holdout:false'));
    assert.equal(r.private.length, 0);
    assert.match(r.public[0]?.title ?? '', /single_trade \(2 seats, 30 s rounds\)/);
    assert.ok(!JSON.stringify(r.public).includes('seed'), 'the seed (which determines private values) is not public');
    assert.deepEqual(
      r.public[0]?.buttons?.map((b) => b.command),
      ['join', 'start'],
    );
    const m = await a.match();
    assert.equal(m.hostUserId, alice.userId);
    assert.deepEqual(m.settings, {
      task: 'single_trade',
      seed: 12,
      hostSeeded: true,
      roundSeconds: 30,
      holdout: false,
    });
    assert.match(
      JSON.stringify(r.public),
      /Seeded by the host: the host may know every private value/,
      'a chosen seed is said on the lobby',
    );
    await a.close();
  });

  test('typed options (Discord) work the same', async () => {
    const a = await arena();
    assertOk(await a.runTyped(alice, 'new', { task: 'coalition_market', seed: 3, round_seconds: 0, holdout: true }));
    assert.deepEqual((await a.match()).settings, {
      task: 'coalition_market',
      seed: 3,
      hostSeeded: true,
      roundSeconds: 0,
      holdout: true,
    });
    await a.close();
  });

  test('bad input: unknown task, bad seed, unknown option, a match already open', async () => {
    const a = await arena();
    const e = await rejected(a, alice, 'new task:huge_market', 'invalid_option');
    assert.equal(e.option, 'task');
    assert.deepEqual(e.validValues, ['single_trade', 'market_round', 'coalition_market']);
    assert.equal((await rejected(a, alice, 'new seed:-1', 'invalid_option')).option, 'seed');
    assert.equal((await rejected(a, alice, 'new seed:abc', 'invalid_option')).option, 'seed');
    assert.equal((await rejected(a, alice, 'new round_seconds:999999', 'invalid_option')).option, 'round_seconds');
    assert.equal(
      (await rejected(a, alice, { name: 'new', options: { rounds: 3 } }, 'unknown_option')).option,
      'rounds',
    );
    assert.equal(await a.host.current(CHANNEL), null, 'nothing was created');
    assertOk(await a.run(alice, 'new'));
    await rejected(a, bob, 'new', 'match_exists');
    await a.close();
  });
});

describe('join', () => {
  test('claims the named seat, or the first free one', async () => {
    const a = await arena();
    assertOk(await a.run(alice, 'new seed:7'));
    const r = assertOk(await a.run(bob, 'join lab:lab_2'));
    assert.match(plainOf(r.public[0]?.title ?? ''), /Lab C \(lab_2\) is taken by 👤 Bob/);
    assertOk(await a.run(carol, 'join'));
    const m = await a.match();
    assert.equal(a.host.seatOf(m, bob.userId), 'lab_2');
    assert.equal(a.host.seatOf(m, carol.userId), 'lab_0');
    await a.close();
  });

  test('bad input: no match, unknown seat, taken seat, already seated, after start', async () => {
    const a = await arena();
    await rejected(a, bob, 'join', 'no_match');
    assertOk(await a.run(alice, 'new seed:7'));
    const unknown = await rejected(a, bob, 'join lab:lab_9', 'unknown_seat');
    assert.deepEqual(unknown.validValues, ['lab_0', 'lab_1', 'lab_2']);
    await rejected(a, bob, 'join lab:lab-1', 'invalid_option');
    assertOk(await a.run(alice, 'join lab:lab_0'));
    await rejected(a, bob, 'join lab:lab_0', 'seat_taken');
    await rejected(a, alice, 'join lab:lab_1', 'already_seated');
    assertOk(await a.run(alice, 'start'));
    await rejected(a, bob, 'join', 'not_in_lobby');
    await a.close();
  });
});

describe('seat', () => {
  test('the host gives a seat to a scripted policy (default cooperative)', async () => {
    const a = await lobby();
    const r = assertOk(await a.run(alice, 'seat lab:lab_2 agent:scripted policy:rule_based_expert'));
    assert.match(r.public[0]?.title ?? '', /Lab C \(scripted\) is seated/);
    assert.doesNotMatch(
      JSON.stringify(r.public),
      /rule_based_expert/,
      'the policy stays hidden until the match is over',
    );
    assert.deepEqual((await a.match()).drivers.lab_2, { kind: 'scripted', policy: 'rule_based_expert' });
    await a.close();
  });

  test('bad input: not the host, missing/unknown options, llm without model, person-held seat, after start', async () => {
    const a = await lobby();
    await rejected(a, bob, 'seat lab:lab_2 agent:scripted', 'not_host');
    const missing = await rejected(a, alice, 'seat agent:scripted', 'missing_option');
    assert.equal(missing.option, 'lab');
    const agent = await rejected(a, alice, 'seat lab:lab_2 agent:human', 'invalid_option');
    assert.deepEqual(agent.validValues, ['scripted', 'llm']);
    const policy = await rejected(a, alice, 'seat lab:lab_2 agent:scripted policy:genius', 'invalid_option');
    assert.ok(policy.validValues?.includes('deceptive'));
    const noModel = await rejected(a, alice, 'seat lab:lab_2 agent:llm', 'invalid_driver');
    assert.equal(noModel.option, 'model');
    assert.match(noModel.message, /ARENA_AGENT_MODEL/, 'without a default model the error names the setting');
    assert.equal(
      (await rejected(a, alice, 'seat lab:lab_2 agent:llm policy:selfish model:x', 'invalid_option')).option,
      'policy',
    );
    assert.equal((await rejected(a, alice, 'seat lab:lab_2 agent:scripted model:x', 'invalid_option')).option, 'model');
    // No LLM agents are wired in this host: the host refuses the model.
    await rejected(a, alice, 'seat lab:lab_2 agent:llm model:gpt-x', 'invalid_driver');
    await rejected(a, alice, 'seat lab:lab_1 agent:scripted', 'seat_taken');
    await rejected(a, alice, 'seat lab:lab_7 agent:scripted', 'unknown_seat');
    assertOk(await a.run(alice, 'start'));
    await rejected(a, alice, 'seat lab:lab_2 agent:scripted', 'not_in_lobby');
    await a.close();
  });
});

describe('start', () => {
  test('the host starts: public start posts, a private briefing per person; free seats scripted', async () => {
    const a = await lobby();
    const r = assertOk(await a.run(alice, 'start'));
    assert.match(r.public[0]?.title ?? '', /Match started/);
    assert.deepEqual(r.private.map((p) => p.userId).sort(), [alice.userId, bob.userId].sort());
    const m = await a.match();
    assert.equal(m.phase, 'running');
    assert.equal(m.drivers.lab_2?.kind, 'scripted');
    await a.close();
  });

  test('bad input: not the host, no match, already started', async () => {
    const a = await arena();
    await rejected(a, alice, 'start', 'no_match');
    assertOk(await a.run(alice, 'new seed:7'));
    await rejected(a, bob, 'start', 'not_host');
    await rejected(a, alice, 'start now:1', 'unknown_option');
    assertOk(await a.run(alice, 'start'));
    await rejected(a, alice, 'start', 'not_in_lobby');
    await a.close();
  });

  test('an admin who is not the host may start', async () => {
    const a = await lobby();
    assertOk(await a.run({ ...carol, isAdmin: true }, 'start'));
    await a.close();
  });
});

describe('end', () => {
  test('the host ends a running match: standings posted, channel free again', async () => {
    const a = await started();
    const r = assertOk(await a.run(alice, 'end'));
    assert.match(r.public[0]?.title ?? '', /ended by the host/);
    assert.equal(await a.host.current(CHANNEL), null);
    // The match is over: seat commands now find no match, and change nothing.
    await rejected(a, alice, 'offer to:lab_1 pay:1', 'no_match');
    await rejected(a, bob, 'done', 'no_match');
    await a.close();
  });

  test('bad input: not the host, no match', async () => {
    const a = await started();
    await rejected(a, bob, 'end', 'not_host');
    await rejected(a, carol, 'end', 'not_host');
    assertOk(await a.run(alice, 'end'));
    await rejected(a, alice, 'end', 'no_match');
    await a.close();
  });
});

describe('help', () => {
  const listed = (r: Reply) => [...replyText(r).matchAll(/^• `([a-z_]+)/gm)].map((m) => m[1]);

  test('lists privately only the commands that work for the caller now; explains any one', async () => {
    const a = await arena();
    // No match: only what works without one.
    const none = assertOk(await a.run(carol, 'help'));
    assert.equal(none.public.length, 0);
    // `me` with no match here lists your matches in other channels.
    assert.deepEqual(listed(none), ['help', 'new', 'me', 'vote', 'stats', 'leaderboard', 'privacy']);
    assert.match(none.private[0]?.title ?? '', /no match in this channel/);
    const one = assertOk(await a.run(carol, 'help offer'));
    assert.match(replyText(one), /offer \[to:<lab>\]/);
    assert.match(replyText(one), /Examples?: `offer to:lab_1/);
    assert.match(replyText(one), /Not available here now: There is no match in this channel/);
    const e = await rejected(a, carol, 'help command:fly', 'invalid_option');
    assert.ok(e.validValues?.includes('allocate'));
    await a.close();
  });

  test('lobby: the host sees seat/start/end, a seated player no join, a newcomer join; running: seat actions only to players', async () => {
    const a = await arena();
    assertOk(await a.run(alice, 'new task:market_round seed:7 round_seconds:0'));
    assertOk(await a.run(alice, 'join lab:lab_0'));
    // Votes are off in this match (the harness's default), so `vote` is left out throughout.
    assert.deepEqual(listed(assertOk(await a.run(alice, 'help'))), [
      'help',
      'seat',
      'start',
      'status',
      'me',
      'end',
      'stats',
      'leaderboard',
      'privacy',
    ]);
    assert.deepEqual(listed(assertOk(await a.run(bob, 'help'))), [
      'help',
      'join',
      'status',
      'me',
      'stats',
      'leaderboard',
      'privacy',
    ]);
    assertOk(await a.run(bob, 'join lab:lab_1'));
    assertOk(await a.run(alice, 'start'));
    const player = listed(assertOk(await a.run(bob, 'help')));
    assert.deepEqual(player, [
      'help',
      'status',
      'me',
      'offer',
      'accept',
      'reject',
      'counter',
      'pitch',
      'reserve',
      'release',
      'coalition',
      'allocate',
      'message',
      'done',
      'finish',
      'stats',
      'leaderboard',
      'privacy',
      'chart',
    ]);
    const spectator = listed(assertOk(await a.run(carol, 'help')));
    // `me` works for anyone: its reminder settings, or your matches elsewhere.
    assert.deepEqual(spectator, ['help', 'status', 'me', 'stats', 'leaderboard', 'privacy', 'chart']);
    await a.close();
  });

  test('votes on: `vote` is listed', async () => {
    const a = await arena();
    assertOk(await a.run(alice, 'new seed:7 votes:on'));
    assert.ok(listed(assertOk(await a.run(bob, 'help'))).includes('vote'));
    await a.close();
  });

  test('never doubles "(host)": host-only commands say it once, in their description', async () => {
    const a = await arena();
    assertOk(await a.run(alice, 'new seed:7'));
    const text = replyText(assertOk(await a.run(alice, 'help')));
    assert.ok(!text.includes('(host) (host)'), text);
    for (const s of COMMAND_SPECS.filter((x) => x.access === 'host')) {
      assert.equal(s.description.split('(host)').length - 1, 1, `${s.name}: "${s.description}"`);
      assert.ok(
        text.split('\n').some((l) => l.startsWith(`• \`${s.name}`) && l.endsWith('(host)')),
        s.name,
      );
    }
    await a.close();
  });

  test('the console: no lobby commands, `quit` listed; on chat platforms no `quit`', async () => {
    const a = await arena();
    const you = { userId: 'console:you', displayName: 'you', isAdmin: false };
    assertOk(await a.run(you, 'new task:market_round seed:7 round_seconds:0'));
    // In the console's own lobby (a moment before it starts the match itself) nothing of the lobby is offered.
    const lobbyHelp = assertOk(await a.run(you, 'help'));
    for (const n of ['new', 'join', 'seat', 'start']) assert.ok(!listed(lobbyHelp).includes(n), n);
    assertOk(await a.run(you, 'join lab:lab_0'));
    assertOk(await a.run(you, 'start'));
    const r = assertOk(await a.run(you, 'help'));
    const text = replyText(r);
    assert.match(text, /^• `quit` — Leave the console/m);
    assert.match(text, /^Type `command name:value …`/m);
    assert.ok(!/^• `(new|join|seat|start)\b/m.test(text), text);
    assert.match(
      replyText(assertOk(await a.run(you, 'help join'))),
      /Not available here now: the console opens, seats and starts its match itself/,
    );
    assert.ok(!replyText(assertOk(await a.run(alice, 'help'))).includes('`quit`'));
    await a.close();
  });
});
