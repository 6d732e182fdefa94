/**
 * Private posts and buttons belong to one match, end to end through Bolt (startSlack: the real catalogue,
 * round host and SQLite ':memory:') against the Slack emulator. Bob plays in channels A and B at once;
 * Alice offers him o_1 in A and Carol offers him o_1 in B.
 * - Each private offer goes to Bob as an ephemeral message in its own channel only (chat.postEphemeral's
 *   channel), never in the other.
 * - A's Accept button (its value names match A) pressed in B is refused privately and nothing moves: neither
 *   log grows, B's o_1 stays open.
 * - After A ended and A2 opened in A with its own o_1 for Bob, the old button in A is refused the same way;
 *   A2's own button works.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import type { StartedSlack } from '../../../src/app/slack.js';
import { replay, type HostedMatch } from '../../../src/host/index.js';
import { openStore, type EventStore } from '../../../src/store/index.js';
import {
  sendSigned,
  SlackEmulator,
  type AppTarget,
  type BuiltRequest,
  type RecordedRequest,
  type SlackUser,
} from '../../emulators/slack.js';
import { alice, bob, startSlackOnEmulator } from './helpers.js';

const carol = { id: 'U0CAROL', name: 'carol' };
const A = 'C0CHANA';
const B = 'C0CHANB';

type Block = { type: string; text?: { text: string }; elements?: { action_id: string; value: string }[] };
const blocksOf = (r: RecordedRequest) => (r.body['blocks'] as Block[] | undefined) ?? [];
const buttonsOf = (r: RecordedRequest) => blocksOf(r).flatMap((b) => b.elements ?? []);
const textOf = (r: RecordedRequest) =>
  [String(r.body['text'] ?? ''), ...blocksOf(r).map((b) => b.text?.text ?? '')].join('\n');

describe('slack: private posts and buttons of two channels', () => {
  const emu = new SlackEmulator();
  let store: EventStore;
  let slack: StartedSlack;
  let target: AppTarget;

  before(async () => {
    await emu.start();
    store = await openStore({ sqlitePath: ':memory:' });
    ({ slack, target } = await startSlackOnEmulator(emu, store, pino({ level: 'silent' }), 1));
  });
  after(async () => {
    await slack.stop();
    await store.close();
    await emu.close();
  });

  async function send(req: BuiltRequest): Promise<BuiltRequest> {
    assert.equal((await sendSigned(target, req)).status, 200);
    await slack.bot.idle();
    return req;
  }
  const slash = (user: SlackUser, channel: string, text: string) => send(emu.slashCommand(user, channel, text));
  const press = (user: SlackUser, channel: string, button: { action_id: string; value: string }) =>
    send(emu.blockAction(user, channel, button));
  /** What Bob received privately in `channel` by chat.postEphemeral. */
  const bobsEphemerals = (channel: string) =>
    emu.calls('chat.postEphemeral').filter((r) => r.body['user'] === bob.id && r.body['channel'] === channel);
  const load = async (id: string): Promise<HostedMatch> => replay(await store.load(id))!;

  async function matchWithBob(
    host: SlackUser,
    channel: string,
  ): Promise<{ m: HostedMatch; hostLab: string; bobLab: string }> {
    await slash(host, channel, 'new task:single_trade round_seconds:0');
    await slash(host, channel, 'join');
    await slash(bob, channel, 'join');
    await slash(host, channel, 'start');
    const m = (await slack.host.current(channel))!;
    return { m, hostLab: slack.host.seatOf(m, `slack:${host.id}`)!, bobLab: slack.host.seatOf(m, `slack:${bob.id}`)! };
  }
  async function offerToBob(host: SlackUser, channel: string, g: { hostLab: string; bobLab: string }): Promise<void> {
    const m = (await slack.host.current(channel))!;
    const give = Object.values(m.state!.blocks).find((b) => b.owner === g.hostLab)!.id;
    await slash(host, channel, `offer to:${g.bobLab} give:${give} pay:1`);
  }
  /** Bob's private offer post in `channel` for match `matchId`, and its Accept button. */
  function acceptButton(channel: string, matchId: string): { action_id: string; value: string } {
    const post = bobsEphemerals(channel).find(
      (r) => /offers you o_1/.test(textOf(r)) && buttonsOf(r).some((e) => e.value.startsWith(`@${matchId} `)),
    );
    assert.ok(post, `Bob's private offer of ${matchId} in ${channel}`);
    return buttonsOf(post).find((e) => e.value === `@${matchId} accept offer:o_1`)!;
  }
  /** The ephemeral answers to a request (response_url). */
  const answers = (req: BuiltRequest) =>
    emu
      .responses(req.responseId!)
      .map((r) => `${String(r.body['response_type'])}: ${textOf(r)}`)
      .join('\n');

  test("A's private offer stays in A; A's button pressed in B or after A ended is refused and nothing moves", async () => {
    const a = await matchWithBob(alice, A);
    const b = await matchWithBob(carol, B);
    await offerToBob(alice, A, a);
    await offerToBob(carol, B, b);

    // Each private offer reached Bob only in its own channel.
    const acceptA = acceptButton(A, a.m.id);
    acceptButton(B, b.m.id);
    assert.ok(
      !bobsEphemerals(B).some((r) => buttonsOf(r).some((e) => e.value.startsWith(`@${a.m.id} `))),
      'nothing of match A in channel B',
    );
    assert.ok(
      !bobsEphemerals(A).some((r) => buttonsOf(r).some((e) => e.value.startsWith(`@${b.m.id} `))),
      'nothing of match B in channel A',
    );

    // A's Accept pressed in B: refused privately, nothing moves.
    const seqA = await store.lastSeq(a.m.id);
    const seqB = await store.lastSeq(b.m.id);
    const foreign = await press(bob, B, acceptA);
    assert.match(
      answers(foreign),
      /^ephemeral: [\s\S]*button_other_channel[\s\S]*another channel[\s\S]*Nothing was changed/,
    );
    assert.equal(await store.lastSeq(a.m.id), seqA);
    assert.equal(await store.lastSeq(b.m.id), seqB);
    assert.equal((await load(b.m.id)).state!.offers['o_1']!.status, 'active', "B's o_1 is still open");

    // Match A ends; A2 opens in A with an o_1 for Bob; the old button is refused there too.
    await slash(alice, A, 'end');
    const a2 = await matchWithBob(alice, A);
    await offerToBob(alice, A, a2);
    const seqA2 = await store.lastSeq(a2.m.id);
    const stale = await press(bob, A, acceptA);
    assert.match(answers(stale), /^ephemeral: [\s\S]*button_match_over[\s\S]*has ended\. Nothing was changed/);
    assert.equal(await store.lastSeq(a2.m.id), seqA2, "A2's log did not grow");
    assert.equal((await load(a2.m.id)).state!.offers['o_1']!.status, 'active', "A2's o_1 is still open");

    // A button without its match (as rendered before buttons named theirs) is refused as expired.
    const unbound = await press(bob, A, { action_id: 'arena:accept offer:o_1', value: 'accept offer:o_1' });
    assert.match(answers(unbound), /^ephemeral: [\s\S]*expired\. Nothing was changed/);
    assert.equal(await store.lastSeq(a2.m.id), seqA2);

    // A2's own button works.
    await press(bob, A, acceptButton(A, a2.m.id));
    assert.equal((await load(a2.m.id)).state!.offers['o_1']!.status, 'accepted');
  });
});
