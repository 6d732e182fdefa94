/**
 * Races through the real discord.js Client against the local Discord emulator: two
 * presses of Accept at once, withdraw-vs-accept, a round timer that fires while a command is in flight, and
 * a pitch/done that arrives after its round closed. In every case: one log entry (or none), no invalid-action
 * penalty, and a clear private (ephemeral) error for whoever lost.
 *
 * "In flight" is made deterministic without any wall clock: the test holds the command between the moment
 * the catalogue read the match (the round it was written for) and the moment the host takes the match lock,
 * fires the round timer with the fake clock meanwhile, then lets the command go on.
 */
import { describe, test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { FakeClock, replay, type HostedMatch } from '../../src/host/index.js';
import { openStore, type EventStore } from '../../src/store/index.js';
import { startDiscord, type DiscordRuntime } from '../../src/app/discord.js';
import { DiscordEmulator, type EmulatorUser } from '../emulators/discord.js';
import { answerOf, isEphemeral, payloadText, slash, type Answer } from '../adapters/discord/helpers.js';

const alice: EmulatorUser = { id: '320000000000000001', username: 'alice' };
const bob: EmulatorUser = { id: '320000000000000002', username: 'bob' };

const textOf = (a: Answer) => a.messages.map((m) => payloadText(m.body)).join('\n');
const ephemeralOnly = (a: Answer) => a.messages.length > 0 && a.messages.every((m) => isEphemeral(m.body));

describe('races through the real Discord client', () => {
  const emu = new DiscordEmulator();
  const clock = new FakeClock();
  let store: EventStore;
  let rt: DiscordRuntime;

  before(async () => {
    await emu.start();
    store = await openStore({ sqlitePath: ':memory:' });
    rt = await startDiscord({
      env: { DISCORD_TOKEN: 'MTIz.race.SECRET' },
      store,
      logger: pino({ level: 'silent' }),
      restApi: emu.restApi,
      softDeadlineMs: 60_000,
      hostOptions: { clock },
    });
  });
  after(async () => {
    await rt.stop();
    await store.close();
    await emu.close();
  });

  /** A running market_round match (alice and bob seated, one scripted seat) with `round_seconds`. */
  async function started(roundSeconds: number): Promise<{ id: string; labA: string; labB: string }> {
    const { bot, host } = rt;
    await slash(emu, bot, alice, 'new', { task: 'market_round', seed: 7, round_seconds: roundSeconds });
    await slash(emu, bot, alice, 'join');
    await slash(emu, bot, bob, 'join');
    await slash(emu, bot, alice, 'start');
    const m = (await host.current(emu.channelId))!;
    return { id: m.id, labA: host.seatOf(m, `discord:${alice.id}`)!, labB: host.seatOf(m, `discord:${bob.id}`)! };
  }
  const matchOf = async (id: string): Promise<HostedMatch> => replay(await store.load(id))!;
  /** The logged actions of `type` (on `offer` when given). */
  const actionsOf = async (id: string, type: string, offer?: string) =>
    (await store.load(id)).filter((e) => {
      const a = e.body.type === 'action' ? (e.body.action as { action_type?: string; offer_id?: string }) : null;
      return a?.action_type === type && (offer === undefined || a.offer_id === offer);
    });
  async function offerFromAlice(id: string, labB: string): Promise<string> {
    const r = await slash(emu, rt.bot, alice, 'offer', { to: labB, pay: 2 });
    assert.ok(!/✗/.test(textOf(r)), textOf(r));
    const offers = Object.values((await matchOf(id)).state!.offers);
    return offers.at(-1)!.id;
  }
  /** Hold the next host.act call until `release()`; `reached` resolves once a command is waiting there. */
  function holdNextAct(): { reached: Promise<void>; release: () => void } {
    const host = rt.host;
    const original = host.act.bind(host);
    let release!: () => void;
    let reached!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const arrived = new Promise<void>((r) => (reached = r));
    host.act = async (...args: Parameters<typeof host.act>) => {
      host.act = original;
      reached();
      await gate;
      return original(...args);
    };
    return { reached: arrived, release };
  }
  // Each test ends its match (also when it failed), so the next one can open a new one in the channel.
  afterEach(async () => void (await slash(emu, rt.bot, alice, 'end')));

  test('two presses of Accept at once: one accept logged, the other an ephemeral error, no penalty', async () => {
    const { id, labB } = await started(0);
    const offer = await offerFromAlice(id, labB);
    const before = (await matchOf(id)).state!.seats[labB]!;
    const d1 = emu.dispatchButton(bob, `arena:@${id} accept offer:${offer}`);
    const d2 = emu.dispatchButton(bob, `arena:@${id} accept offer:${offer}`);
    await Promise.all([rt.bot.handled(d1.id), rt.bot.handled(d2.id)]);
    const answers = [answerOf(emu, d1), answerOf(emu, d2)];
    const lost = answers.filter((a) => /✗/.test(textOf(a)));
    assert.equal(lost.length, 1, 'exactly one press fails');
    assert.ok(ephemeralOnly(lost[0]!), 'the loser is told privately');
    assert.match(textOf(lost[0]!), /inactive_offer/);
    assert.equal((await actionsOf(id, 'accept_offer', offer)).length, 1, 'one accept in the log');
    const after = (await matchOf(id)).state!.seats[labB]!;
    assert.equal(after.invalidActions, before.invalidActions, 'no invalid action counted');
    assert.equal(after.roundReward.invalid_action_penalty, before.roundReward.invalid_action_penalty);
  });

  test('withdraw vs accept: whoever loses gets an ephemeral error, one of the two is logged, nobody is penalised', async () => {
    const { id, labA, labB } = await started(0);
    const offer = await offerFromAlice(id, labB);
    const before = (await matchOf(id)).state!.seats;
    const dw = emu.dispatchSlash(alice, 'arena', 'reject', [{ name: 'offer', type: 3, value: offer }]);
    const da = emu.dispatchButton(bob, `arena:@${id} accept offer:${offer}`);
    await Promise.all([rt.bot.handled(dw.id), rt.bot.handled(da.id)]);
    const [w, a] = [answerOf(emu, dw), answerOf(emu, da)];
    const lost = [w, a].filter((x) => /✗/.test(textOf(x)));
    assert.equal(lost.length, 1, 'exactly one of the two fails');
    assert.ok(ephemeralOnly(lost[0]!));
    const logged =
      (await actionsOf(id, 'accept_offer', offer)).length + (await actionsOf(id, 'reject_offer', offer)).length;
    assert.equal(logged, 1, 'only the winner is in the log');
    const after = (await matchOf(id)).state!.seats;
    for (const lab of [labA, labB]) {
      assert.equal(after[lab]!.invalidActions, before[lab]!.invalidActions, `${lab} not penalised`);
      assert.equal(after[lab]!.roundReward.invalid_action_penalty, before[lab]!.roundReward.invalid_action_penalty);
    }
  });

  test('the round timer fires while an accept is in flight: refused as round_closed, nothing logged, no penalty', async () => {
    const { id, labB } = await started(30);
    const offer = await offerFromAlice(id, labB);
    const penaltiesBefore = (await matchOf(id)).state!.seats[labB]!.invalidActions;
    const held = holdNextAct();
    const d = emu.dispatchButton(bob, `arena:@${id} accept offer:${offer}`);
    await held.reached;
    await clock.advance(30_000);
    await rt.host.idle();
    assert.equal((await matchOf(id)).state!.round, 1, 'the timer closed round 1 meanwhile');
    held.release();
    await rt.bot.handled(d.id);
    const a = answerOf(emu, d);
    assert.ok(ephemeralOnly(a), 'the error is private');
    assert.match(textOf(a), /round_closed/);
    assert.match(textOf(a), /Round 1 closed before your command arrived/);
    assert.equal((await actionsOf(id, 'accept_offer', offer)).length, 0, 'the accept is not in the log');
    assert.equal((await matchOf(id)).state!.seats[labB]!.invalidActions, penaltiesBefore, 'no invalid action counted');
  });

  test('a pitch and a done written for round 1 that arrive after it closed are refused, never moved to round 2', async () => {
    const { id, labA } = await started(30);
    const held = holdNextAct();
    const d = emu.dispatchSlash(alice, 'arena', 'pitch', [
      { name: 'text', type: 3, value: 'We need reliable GPU capacity for our training run.' },
    ]);
    await held.reached;
    await clock.advance(30_000);
    await rt.host.idle();
    held.release();
    await rt.bot.handled(d.id);
    const a = answerOf(emu, d);
    assert.ok(ephemeralOnly(a));
    assert.match(textOf(a), /round_closed/);
    const m = await matchOf(id);
    assert.equal(m.state!.round, 1);
    assert.equal((await actionsOf(id, 'submit_pitch')).length, 0, 'no pitch in the log');
    assert.equal(m.state!.pitches.filter((p) => p.lab === labA).length, 0, 'no pitch of alice in round 2');
    assert.equal(m.state!.seats[labA]!.invalidActions, 0);

    // `done` for round 2 held while the timer closes round 2: it must not end round 3 early.
    const doneHeld = holdDone();
    const dd = emu.dispatchSlash(alice, 'arena', 'done');
    await doneHeld.reached;
    await clock.advance(30_000);
    await rt.host.idle();
    doneHeld.release();
    await rt.bot.handled(dd.id);
    assert.match(textOf(answerOf(emu, dd)), /round_closed/);
    const m3 = await matchOf(id);
    assert.equal(m3.state!.round, 2);
    assert.ok(!m3.done.includes(labA), 'alice is not marked done in round 3');
  });

  /** Hold the next host.done call until `release()` (as {@link holdNextAct}). */
  function holdDone(): { reached: Promise<void>; release: () => void } {
    const host = rt.host;
    const original = host.done.bind(host);
    let release!: () => void;
    let reached!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const arrived = new Promise<void>((r) => (reached = r));
    host.done = async (...args: Parameters<typeof host.done>) => {
      host.done = original;
      reached();
      await gate;
      return original(...args);
    };
    return { reached: arrived, release };
  }
});
