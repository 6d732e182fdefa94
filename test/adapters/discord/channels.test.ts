/**
 * Private posts and buttons belong to one match, end to end: the real discord.js Client (startDiscord:
 * catalogue + round host + SQLite ':memory:') against the local emulator. Bob plays in two matches at once,
 * in channels A and B of one guild; Alice offers him o_1 in A and Carol offers him o_1 in B.
 * - Channel A's private "Lab A offers you o_1 … [Accept o_1]" is held for Bob in A: it never shows under a
 *   command of his in B (B's own offer does), and shows with his next command in A.
 * - Pressing A's Accept button in B is refused privately, and nothing moves: neither match's log grows, B's
 *   o_1 stays open, no block changes hands.
 * - After match A ended and a new match A2 with its own o_1 for Bob opened in A, pressing the old button in A
 *   is refused the same way and A2's o_1 stays open; A2's own button still works.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { FakeClock, replay, type HostedMatch } from '../../../src/host/index.js';
import { openStore, type EventStore } from '../../../src/store/index.js';
import { startDiscord, type DiscordRuntime } from '../../../src/app/discord.js';
import { DiscordEmulator, nextId, type EmulatorUser, type Place } from '../../emulators/discord.js';
import { buttonIds, click, isEphemeral, payloadText, slash as slashAt, type Answer } from './helpers.js';

const alice: EmulatorUser = { id: '320000000000000001', username: 'alice' };
const bob: EmulatorUser = { id: '320000000000000002', username: 'bob' };
const carol: EmulatorUser = { id: '320000000000000003', username: 'carol' };

describe('discord: private posts and buttons of two channels', () => {
  const emu = new DiscordEmulator();
  let store: EventStore;
  let rt: DiscordRuntime;
  let A: Place;
  let B: Place;

  before(async () => {
    await emu.start();
    A = { guildId: emu.guildId, channelId: emu.channelId };
    B = { guildId: emu.guildId, channelId: nextId() };
    store = await openStore({ sqlitePath: ':memory:' });
    rt = await startDiscord({
      env: { DISCORD_TOKEN: 'MTIz.fake.SECRET' },
      store,
      logger: pino({ level: 'silent' }),
      restApi: emu.restApi,
      softDeadlineMs: 60_000,
      hostOptions: { clock: new FakeClock(), autoDone: false },
    });
  });
  after(async () => {
    await rt.stop();
    await store.close();
    await emu.close();
  });

  const slash = (user: EmulatorUser, at: Place, sub: string, opts: Record<string, string | number> = {}) =>
    slashAt(emu, rt.bot, user, sub, opts, at);
  const press = (user: EmulatorUser, at: Place, customId: string) => click(emu, rt.bot, user, customId, undefined, at);
  const text = (a: Answer) => a.messages.map((m) => payloadText(m.body)).join('\n');
  const load = async (id: string): Promise<HostedMatch> => replay(await store.load(id))!;

  /** A running single_trade match in `at` hosted by `host` with Bob; returns it and each one's lab. */
  async function matchWithBob(
    host: EmulatorUser,
    at: Place,
  ): Promise<{ m: HostedMatch; hostLab: string; bobLab: string }> {
    await slash(host, at, 'new', { task: 'single_trade', round_seconds: 0 });
    await slash(host, at, 'join');
    await slash(bob, at, 'join');
    await slash(host, at, 'start');
    const m = (await rt.host.current(at.channelId))!;
    return { m, hostLab: rt.host.seatOf(m, `discord:${host.id}`)!, bobLab: rt.host.seatOf(m, `discord:${bob.id}`)! };
  }
  /** `host` offers Bob its first block for 1 credit: Bob's private copy (with Accept) waits in the inbox. */
  async function offerToBob(
    host: EmulatorUser,
    at: Place,
    g: { m: HostedMatch; hostLab: string; bobLab: string },
  ): Promise<string> {
    const m = (await rt.host.current(at.channelId))!;
    const give = Object.values(m.state!.blocks).find((b) => b.owner === g.hostLab)!.id;
    const sent = await slash(host, at, 'offer', { to: g.bobLab, give, pay: 1 });
    assert.match(text(sent), /makes an offer to/);
    return give;
  }

  test("A's private offer never shows in B; A's button pressed in B or after A ended is refused and nothing moves", async () => {
    const a = await matchWithBob(alice, A);
    const b = await matchWithBob(carol, B);
    assert.notEqual(a.m.id, b.m.id);
    // Bob's briefings wait in each channel; he reads them there (so the next takes hold only the offers).
    assert.match(text(await slash(bob, A, 'me')), /You play|Budget|budget/);
    assert.match(text(await slash(bob, B, 'me')), /You play|Budget|budget/);

    const giveA = await offerToBob(alice, A, a);
    const giveB = await offerToBob(carol, B, b);

    // Bob's command in B shows B's held offer with B's buttons, and nothing of A's.
    const inB = await slash(bob, B, 'status');
    const bIds = inB.messages.flatMap((m) => buttonIds(m.body));
    const heldB = inB.messages.filter((m) => isEphemeral(m.body) && /offers you o_1/.test(payloadText(m.body)));
    assert.equal(heldB.length, 1, "B's own private offer is shown in B");
    assert.ok(bIds.includes(`arena:@${b.m.id} accept offer:o_1`), "B's Accept button names match B");
    assert.ok(!bIds.some((id) => id.includes(a.m.id)), 'no button of match A in channel B');

    // Pressing A's Accept button (as the bug showed it) in B: refused privately; nothing moves anywhere.
    const seqA = await store.lastSeq(a.m.id);
    const seqB = await store.lastSeq(b.m.id);
    const foreign = await press(bob, B, `arena:@${a.m.id} accept offer:o_1`);
    assert.equal(foreign.messages.length, 1);
    assert.ok(isEphemeral(foreign.messages[0]!.body), 'the refusal is private');
    assert.match(text(foreign), /button_other_channel[\s\S]*another channel[\s\S]*Nothing was changed/);
    assert.equal(await store.lastSeq(a.m.id), seqA, "match A's log did not grow");
    assert.equal(await store.lastSeq(b.m.id), seqB, "match B's log did not grow");
    const mb = await load(b.m.id);
    assert.equal(mb.state!.offers['o_1']!.status, 'active', "B's o_1 is still open");
    assert.equal(mb.state!.blocks[giveB]!.owner, b.hostLab, "B's block did not move");

    // Bob's next command in A shows A's held offer (it waited for channel A), with A's buttons.
    const inA = await slash(bob, A, 'status');
    const aIds = inA.messages.flatMap((m) => buttonIds(m.body));
    assert.ok(
      inA.messages.some((m) => isEphemeral(m.body) && /offers you o_1/.test(payloadText(m.body))),
      "A's private offer is shown in A",
    );
    assert.ok(aIds.includes(`arena:@${a.m.id} accept offer:o_1`));
    assert.ok(!aIds.some((id) => id.includes(b.m.id)));

    // Alice ends match A and opens A2, where she offers Bob an o_1 again.
    await slash(alice, A, 'end');
    const a2 = await matchWithBob(alice, A);
    assert.notEqual(a2.m.id, a.m.id);
    await slash(bob, A, 'me');
    await offerToBob(alice, A, a2);
    const seqA2 = await store.lastSeq(a2.m.id);
    const stale = await press(bob, A, `arena:@${a.m.id} accept offer:o_1`);
    assert.ok(isEphemeral(stale.messages[0]!.body));
    assert.match(
      text(stale),
      /button_match_over[\s\S]*earlier match in this channel[\s\S]*has ended\. Nothing was changed/,
    );
    assert.equal(await store.lastSeq(a2.m.id), seqA2, "A2's log did not grow");
    assert.equal(await store.lastSeq(a.m.id), seqA + 1, 'match A only got its end event');
    assert.equal((await load(a2.m.id)).state!.offers['o_1']!.status, 'active', "A2's o_1 is still open");
    assert.equal((await load(a.m.id)).state!.blocks[giveA]!.owner, a.hostLab, "A's block never moved");

    // The button made for A2 still works: bob accepts A2's o_1.
    const accepted = await press(bob, A, `arena:@${a2.m.id} accept offer:o_1`);
    assert.match(text(accepted), /accepted o_1/);
    assert.equal((await load(a2.m.id)).state!.offers['o_1']!.status, 'accepted');
  });
});
