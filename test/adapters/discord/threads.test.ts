/**
 * Matches in their own thread, end to end: the real discord.js Client (startDiscord with threads on) against
 * the emulator. alice and bob each open a single_trade match in the same channel; each `new` posts a card in
 * the channel and opens a public thread on it. alice plays hers from inside its thread, bob his from the
 * channel (the command finds his match through the channel's threads). Both matches are played to the end,
 * interleaved round by round. Afterwards the channel holds exactly the two cards (edited in place to the
 * result, never re-posted), every round post is in its match's thread, and both threads are archived.
 * `DUMP_CARDS=1` prints a card's payload in the lobby and after the match (docs/CHAT.md quotes them).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../../src/host/index.js';
import { type EmulatorUser, type Place } from '../../emulators/discord.js';
import { isEphemeral, payloadText, slash, discordSession } from './helpers.js';

type Json = Record<string, unknown>;
const alice: EmulatorUser = { id: '350000000000000001', username: 'alice' };
const bob: EmulatorUser = { id: '350000000000000002', username: 'bob' };

describe('discord: two matches in one channel, each in its own thread', () => {
  const clock = new FakeClock();
  const session = discordSession({ threads: true, hostOptions: { clock, autoDone: false } });
  const emu = session.emu;

  test('both played to the end: the channel holds only the two cards, each match posts in its thread', async () => {
    const { bot, host } = session.rt;
    const ch = emu.channelId;
    const threadOf = (m: Json): Place => ({
      guildId: emu.guildId,
      channelId: (m.thread as Json).id as string,
      parentId: ch,
    });

    const openedA = await slash(emu, bot, alice, 'new', { task: 'single_trade', seed: 7, round_seconds: 0 });
    assert.equal(
      emu.threads.size,
      1,
      `alice's new opened a thread: ${openedA.messages.map((x) => payloadText(x.body)).join(' / ')}`,
    );
    const openedB = await slash(emu, bot, bob, 'new', { task: 'single_trade', seed: 8, round_seconds: 0 });
    assert.equal(emu.threads.size, 2, "bob's new opened a second thread in the same channel");
    // The caller is told privately where the lobby is; nothing public is answered in the channel.
    for (const o of [openedA, openedB])
      assert.ok(
        o.messages.length > 0 && o.messages.every((x) => isEphemeral(x.body)),
        'new answers its caller privately in the channel',
      );

    const cards = emu.channelMessages(ch);
    assert.equal(cards.length, 2, 'two cards in the channel');
    const [placeA, placeB] = cards.map(threadOf) as [Place, Place];
    assert.deepEqual(
      [placeA.channelId, placeB.channelId],
      cards.map((c) => c.id),
      'each thread opens on its card',
    );
    const lobbyCard = structuredClone(emu.messages.get(placeA.channelId)!);
    assert.match(payloadText(lobbyCard), /single_trade: lobby \(0\/2 seats taken\)/);
    assert.match(
      payloadText(emu.channelMessages(placeA.channelId)[0] ?? {}),
      /Host: 👤 alice/u,
      "alice's lobby is the first post of her thread",
    );

    // alice joins and starts inside her thread; bob does the same from the channel (his match is found there).
    await slash(emu, bot, alice, 'join', {}, placeA);
    await slash(emu, bot, bob, 'join');
    await slash(emu, bot, alice, 'start', {}, placeA);
    await slash(emu, bot, bob, 'start');
    const mA = await host.current(placeA.channelId);
    const mB = await host.current(placeB.channelId);
    assert.ok(mA && mB && mA.id !== mB.id && mA.phase === 'running' && mB.phase === 'running');
    assert.equal(mA.parentChannelId, ch);
    assert.equal(host.seatOf(mB, `discord:${bob.id}`) !== null, true, "bob's channel commands reached his match");

    // Interleaved: alice's done in her thread, bob's from the channel, until both are over.
    for (let round = 0; round < 10; round++) {
      const [a, b] = [await host.current(placeA.channelId), await host.current(placeB.channelId)];
      if (!a && !b) break;
      if (a) await slash(emu, bot, alice, 'done', {}, placeA);
      if (b) await slash(emu, bot, bob, 'done');
    }
    await host.idle();
    await bot.idle();
    assert.equal(await host.current(placeA.channelId), null, "alice's match is over");
    assert.equal(await host.current(placeB.channelId), null, "bob's match is over");

    // The channel: only the two cards, now the results; every other public post of each match in its thread.
    const channel = emu.channelMessages(ch);
    assert.deepEqual(
      channel.map((m) => m.id),
      [placeA.channelId, placeB.channelId],
      'the channel holds only the two cards',
    );
    for (const card of channel) {
      assert.match(payloadText(card), /single_trade: over after 3 rounds/);
      assert.ok(card.edited_timestamp, 'the card was edited in place');
    }
    const cardPosts = emu.requests.filter((r) => r.method === 'POST' && r.path === `/api/v10/channels/${ch}/messages`);
    assert.equal(cardPosts.length, 2, 'each card was posted once, never re-posted');
    for (const [place, host_] of [
      [placeA, 'alice'],
      [placeB, 'bob'],
    ] as const) {
      const text = emu.channelMessages(place.channelId).map(payloadText).join('\n');
      for (const r of [1, 2, 3])
        assert.match(text, new RegExp(`Round ${r}/3 closed`), `round ${r} close in ${host_}'s thread`);
      assert.match(text, /Match over/);
      assert.match(text, new RegExp(`Host: 👤 ${host_}`, 'u'));
      const meta = emu.threads.get(place.channelId)!.thread_metadata as Json;
      assert.equal(meta.archived, true, `${host_}'s thread archived at the end`);
    }
    // Neither thread holds the other match's posts.
    const idA = mA.id;
    const idB = mB.id;
    assert.ok(!emu.channelMessages(placeA.channelId).map(payloadText).join('\n').includes(idB));
    assert.ok(!emu.channelMessages(placeB.channelId).map(payloadText).join('\n').includes(idA));
    if (process.env.DUMP_CARDS) {
      const pick = (m: Json) => ({
        content: m.content,
        embeds: m.embeds,
        components: m.components,
        thread: { id: (m.thread as Json).id, name: (m.thread as Json).name },
      });
      console.log(JSON.stringify({ lobby: pick(lobbyCard), over: pick(emu.messages.get(placeA.channelId)!) }, null, 2));
    }
    assert.deepEqual(emu.refused, [], 'no request broke a documented Discord limit');
  });

  test('me in a channel without a match of yours lists your matches elsewhere on the server', async () => {
    const { bot, host } = session.rt;
    await slash(emu, bot, alice, 'new', { task: 'single_trade', seed: 9, round_seconds: 0 });
    const m = (await host.matchesOf(`discord:${alice.id}`, 'discord'))[0]!;
    const other: Place = { guildId: emu.guildId, channelId: '350000000000000099' };
    const me = await slash(emu, bot, alice, 'me', {}, other);
    const text = me.messages.map((x) => payloadText(x.body)).join('\n');
    assert.ok(me.messages.every((x) => isEphemeral(x.body)));
    assert.match(text, /Your matches elsewhere/);
    assert.ok(text.includes(`\`${m.id}\` single_trade, lobby, the thread under its card in <#${emu.channelId}>`), text);
    // bob has none: the usual error.
    const none = await slash(emu, bot, bob, 'me', {}, other);
    assert.match(none.messages.map((x) => payloadText(x.body)).join('\n'), /no_match/);
    await slash(emu, bot, alice, 'end');
  });
});
