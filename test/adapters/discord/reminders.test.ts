/**
 * Reminder pings end to end under a fake clock (discord.js against the emulator; the host with reminders on
 * and a 10 s last call): in a 60 s round where alice said `done` and bob has done nothing, bob alone is
 * mentioned at 30 s (half the round left) and at 50 s (10 s before the close), each a channel post whose
 * `allowed_mentions` names only him; nothing is posted before those times. After `me reminders:off`
 * he is not pinged in the next round. In a round without a timer, alice's `done` leaves the round waiting
 * only for bob: one ping for him.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../../src/host/index.js';
import { type EmulatorUser, type RecordedRequest } from '../../emulators/discord.js';
import { payloadText, slash, discordSession } from './helpers.js';

type Json = Record<string, unknown>;
const alice: EmulatorUser = { id: '370000000000000001', username: 'alice' };
const bob: EmulatorUser = { id: '370000000000000002', username: 'bob' };

describe('discord: reminder pings', () => {
  const clock = new FakeClock();
  const session = discordSession({
    hostOptions: { clock, autoDone: false, reminders: { enabled: true, lastCallSeconds: 10 } },
  });
  const emu = session.emu;

  /** Channel posts that mention someone, made since request `from`. */
  const pings = (from: number): RecordedRequest[] =>
    emu.requests
      .slice(from)
      .filter(
        (r) =>
          r.method === 'POST' &&
          r.path === `/api/v10/channels/${emu.channelId}/messages` &&
          ((r.body as Json).allowed_mentions as Json | undefined)?.users !== undefined,
      );
  const advance = async (ms: number) => {
    await clock.advance(ms);
    await session.rt.host.idle();
    await session.rt.bot.idle();
  };

  test('a timed round: bob alone, at half time and 10 s before the close; not after he opts out', async () => {
    const { bot } = session.rt;
    await slash(emu, bot, alice, 'new', { task: 'single_trade', seed: 3, round_seconds: 60 });
    await slash(emu, bot, alice, 'join');
    await slash(emu, bot, bob, 'join');
    await slash(emu, bot, alice, 'start');
    await slash(emu, bot, alice, 'done');
    const from = emu.requests.length;

    await advance(29_000);
    assert.equal(pings(from).length, 0, 'nothing before half time');
    await advance(1_000);
    const half = pings(from);
    assert.equal(half.length, 1, 'one ping at half time');
    const body = half[0]!.body as Json;
    assert.deepEqual(body.allowed_mentions, { parse: [], users: [bob.id] }, 'only bob may be notified');
    assert.equal(body.content, `<@${bob.id}>`);
    assert.match(payloadText(body), /Round 1\/3 closes in 30 s and you have not acted/);
    assert.ok(!payloadText(body).includes(alice.id) && !/alice/.test(payloadText(body)), 'alice (done) is not named');

    await advance(19_000);
    assert.equal(pings(from).length, 1, 'nothing between the two pings');
    await advance(1_000);
    const last = pings(from)[1]!.body as Json;
    assert.deepEqual(last.allowed_mentions, { parse: [], users: [bob.id] });
    assert.match(payloadText(last), /closes in 10 s/);

    // bob opts out; the timer closes round 1 at 60 s; round 2 pings nobody.
    const opted = await slash(emu, bot, bob, 'me', { reminders: 'off' });
    assert.match(opted.messages.map((x) => payloadText(x.body)).join('\n'), /Your reminders\noff/);
    const closedAt = emu.requests.length;
    await advance(10_000);
    assert.ok(
      emu.requests.slice(closedAt).some((r) => /Round 1\/3 closed/.test(payloadText(r.body as Json))),
      'the timer closed round 1',
    );
    await slash(emu, bot, alice, 'done');
    const next = emu.requests.length;
    await advance(60_000);
    assert.equal(pings(next).length, 0, 'no ping for a person who turned them off');
    // A channel setting is for admins only.
    const refused = await slash(emu, bot, bob, 'me', { channel_reminders: 'off' });
    assert.match(refused.messages.map((x) => payloadText(x.body)).join('\n'), /not_admin/);
    await slash(emu, bot, alice, 'end');
  });

  test('no timer: a done that leaves the round waiting only for bob pings him once', async () => {
    const { bot } = session.rt;
    await slash(emu, bot, bob, 'me', { reminders: 'on' });
    await slash(emu, bot, alice, 'new', { task: 'single_trade', seed: 4, round_seconds: 0 });
    await slash(emu, bot, alice, 'join');
    await slash(emu, bot, bob, 'join');
    await slash(emu, bot, alice, 'start');
    const from = emu.requests.length;
    await slash(emu, bot, alice, 'done');
    await session.rt.host.idle();
    await bot.idle();
    const got = pings(from);
    assert.equal(got.length, 1);
    assert.deepEqual((got[0]!.body as Json).allowed_mentions, { parse: [], users: [bob.id] });
    assert.match(payloadText(got[0]!.body as Json), /waiting only for you/);
    // Taking the done back and saying it again does not ping twice in the round.
    await slash(emu, bot, alice, 'done', { undo: true });
    await slash(emu, bot, alice, 'done');
    await session.rt.host.idle();
    await bot.idle();
    assert.equal(pings(from).length, 1, 'once per round');
    if (process.env.DUMP_PINGS) console.log(JSON.stringify(got[0]!.body, null, 2));
    await slash(emu, bot, alice, 'end');
  });
});
