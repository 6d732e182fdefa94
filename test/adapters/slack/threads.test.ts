/**
 * Matches in their own thread on Slack, end to end: the real Bolt App (startSlack with threads on, the real
 * catalogue, host and SQLite store) against the emulator. alice and bob each open a single_trade match in
 * the same channel with `/arena new`: each posts a card in the channel, and the match plays in the card's
 * thread. bob takes his seat with the Join button of the lobby post in his thread; everything else is typed
 * in the channel (Slack sends slash commands without a thread), where each person's command finds their own
 * match. Both are played to the end, interleaved. Afterwards the channel's top level holds exactly the two
 * cards, edited in place (chat.update) to the result; every other post is in its match's thread.
 * `DUMP_CARDS=1` prints a card in the lobby and after the match (docs/CHAT.md quotes them).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sendSigned, type SlackUser } from '../../emulators/slack.js';
import { alice, bob, slackSession } from './helpers.js';

const CHANNEL = 'C0THREADS';
type Json = Record<string, unknown>;
type Block = {
  type: string;
  text?: { text: string };
  fields?: { text: string }[];
  elements?: { action_id: string; value: string }[];
};

/** The visible text of a message: fallback text and block texts. */
const textOf = (m: Json): string =>
  [
    String(m['text'] ?? ''),
    ...((m['blocks'] as Block[] | undefined) ?? []).flatMap((b) => [
      b.text?.text ?? '',
      ...(b.fields ?? []).map((f) => f.text),
    ]),
  ].join('\n');

describe('slack: two matches in one channel, each in the thread of its card', () => {
  const session = slackSession(true);
  const emu = session.emu;

  async function slash(user: SlackUser, text: string): Promise<string> {
    const req = emu.slashCommand(user, CHANNEL, text);
    const res = await sendSigned(session.target, req);
    assert.equal(res.status, 200, text);
    await session.slack.bot.idle();
    return emu
      .responses(req.responseId!)
      .map((r) => textOf(r.body))
      .join('\n');
  }

  test('both played to the end: the channel holds only the two cards, each match posts in its thread', async () => {
    const toldA = await slash(alice, 'new task:single_trade seed:7 round_seconds:0');
    assert.match(toldA, /is open in the thread under its card/);
    await slash(bob, 'new task:single_trade seed:8 round_seconds:0');
    const cards = emu.channelMessages(CHANNEL);
    assert.equal(cards.length, 2, 'two cards in the channel');
    const [tsA, tsB] = cards.map((c) => String(c['ts'])) as [string, string];
    const lobbyCard = structuredClone(cards[0]!);
    assert.match(textOf(lobbyCard), /single_trade: lobby \(0\/2 seats taken\)/);
    assert.match(
      textOf(emu.channelMessages(CHANNEL, tsA)[0] ?? {}),
      /Host: 👤 alice/u,
      "alice's lobby is the first post of her thread",
    );

    // bob joins with the Join button of the lobby post in his thread; alice by typing in the channel.
    const lobbyB = emu.channelMessages(CHANNEL, tsB)[0]!;
    const join = (lobbyB['blocks'] as Block[]).flatMap((b) => b.elements ?? []).find((e) => / join$/.test(e.value))!;
    assert.ok(join, 'the lobby post has a Join button');
    const pressed = emu.blockAction(bob, CHANNEL, { action_id: join.action_id, value: join.value }, tsB);
    assert.equal((await sendSigned(session.target, pressed)).status, 200);
    await session.slack.bot.idle();
    await slash(alice, 'join');
    await slash(alice, 'start');
    await slash(bob, 'start');
    const mA = await session.slack.host.current(`${CHANNEL}/${tsA}`);
    const mB = await session.slack.host.current(`${CHANNEL}/${tsB}`);
    assert.ok(mA && mB && mA.phase === 'running' && mB.phase === 'running', 'both matches started');
    assert.ok(session.slack.host.seatOf(mB, `slack:${bob.id}`), "bob's button seated him in his own match");
    assert.equal(session.slack.host.seatOf(mA, `slack:${bob.id}`), null);

    for (let i = 0; i < 10; i++) {
      const a = await session.slack.host.current(`${CHANNEL}/${tsA}`);
      const b = await session.slack.host.current(`${CHANNEL}/${tsB}`);
      if (!a && !b) break;
      if (a) await slash(alice, 'done');
      if (b) await slash(bob, 'done');
    }
    await session.slack.bot.idle();
    assert.equal(await session.slack.host.current(`${CHANNEL}/${tsA}`), null, "alice's match is over");
    assert.equal(await session.slack.host.current(`${CHANNEL}/${tsB}`), null, "bob's match is over");

    const top = emu.channelMessages(CHANNEL);
    assert.deepEqual(
      top.map((m) => m['ts']),
      [tsA, tsB],
      'the channel holds only the two cards',
    );
    for (const card of top) {
      assert.match(textOf(card), /single_trade: over after 3 rounds/);
      assert.ok(card['edited'], 'the card was edited in place (chat.update)');
    }
    const topPosts = emu.calls('chat.postMessage').filter((r) => r.body['thread_ts'] === undefined);
    assert.equal(topPosts.length, 2, 'nothing but the two cards was posted outside the threads');
    for (const [ts, who] of [
      [tsA, 'alice'],
      [tsB, 'bob'],
    ] as const) {
      const text = emu.channelMessages(CHANNEL, ts).map(textOf).join('\n');
      for (const r of [1, 2, 3])
        assert.match(text, new RegExp(`Round ${r}/3 closed`), `round ${r} close in ${who}'s thread`);
      assert.match(text, /Match over/);
    }
    assert.ok(
      !emu.channelMessages(CHANNEL, tsA).map(textOf).join('\n').includes(mB.id),
      "alice's thread holds nothing of bob's match",
    );
    assert.ok(
      !emu.channelMessages(CHANNEL, tsB).map(textOf).join('\n').includes(mA.id),
      "bob's thread holds nothing of alice's match",
    );
    // Ephemerals for someone other than the caller go to the match's thread.
    for (const e of emu.calls('chat.postEphemeral'))
      assert.ok([tsA, tsB].includes(String(e.body['thread_ts'])), 'an ephemeral of a thread match is in its thread');
    if (process.env.DUMP_CARDS) console.log(JSON.stringify({ lobby: lobbyCard, over: emu.posted.get(tsA) }, null, 2));
  });
});
