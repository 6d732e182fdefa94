/** Lifecycle commands against the real round host: new, join, seat, start, end, help. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CHANNEL, alice, arena, assertOk, bob, carol, lobby, rejected, replyText, started } from './harness.js';

describe('new', () => {
  test('opens a lobby hosted by the caller, public post with Join/Start buttons', async () => {
    const a = await arena();
    const r = assertOk(await a.run(alice, 'new task:single_trade seed:12 round_seconds:30 holdout:false'));
    assert.equal(r.private.length, 0);
    assert.match(r.public[0]?.title ?? '', /single_trade \(2 seats, 30 s rounds\)/);
    assert.ok(!JSON.stringify(r.public).includes('seed'), 'the seed (which determines private values) is not public');
    assert.deepEqual(r.public[0]?.buttons?.map((b) => b.command), ['join', 'start']);
    const m = await a.match();
    assert.equal(m.hostUserId, alice.userId);
    assert.deepEqual(m.settings, { task: 'single_trade', seed: 12, roundSeconds: 30, holdout: false });
    await a.close();
  });

  test('typed options (Discord) work the same', async () => {
    const a = await arena();
    assertOk(await a.runTyped(alice, 'new', { task: 'coalition_market', seed: 3, round_seconds: 0, holdout: true }));
    assert.deepEqual((await a.match()).settings, { task: 'coalition_market', seed: 3, roundSeconds: 0, holdout: true });
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
    assert.equal((await rejected(a, alice, { name: 'new', options: { rounds: 3 } }, 'unknown_option')).option, 'rounds');
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
    assert.match(r.public[0]?.title ?? '', /Lab C \(lab_2\) is taken by Bob/);
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
    assert.doesNotMatch(JSON.stringify(r.public), /rule_based_expert/, 'the policy stays hidden until the match is over');
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
    assert.equal((await rejected(a, alice, 'seat lab:lab_2 agent:llm policy:selfish model:x', 'invalid_option')).option, 'policy');
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
  test('lists every command privately; explains one', async () => {
    const a = await arena();
    const all = assertOk(await a.run(carol, 'help'));
    assert.equal(all.public.length, 0);
    for (const name of ['offer', 'pitch', 'coalition', 'seat', 'done']) assert.match(replyText(all), new RegExp(`\`${name}`));
    const one = assertOk(await a.run(carol, 'help offer'));
    assert.match(replyText(one), /offer to:<lab>/);
    assert.match(replyText(one), /Example: `offer to:lab_1/);
    const e = await rejected(a, carol, 'help command:fly', 'invalid_option');
    assert.ok(e.validValues?.includes('allocate'));
    await a.close();
  });
});
