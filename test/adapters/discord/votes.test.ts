/**
 * Ballots end to end with the real discord.js Client against the local emulator: a match opened with
 * `votes:on`, two people pitch, the round-close post carries a vote button and no judge scores; a
 * spectator votes with the ephemeral pair's buttons, a repeat click and a vote on one's own pitch are
 * ephemeral errors that add no row, and the verdict on the pair reaches the voter only after the vote.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { startDiscord, type DiscordRuntime } from '../../../src/app/discord.js';
import { FakeClock } from '../../../src/host/index.js';
import { openStore, type EventStore } from '../../../src/store/index.js';
import { DiscordEmulator, type EmulatorUser } from '../../emulators/discord.js';
import { buttonIds, click, isEphemeral, payloadText, publicMessages, slash, type Answer } from './helpers.js';

const alice: EmulatorUser = { id: '410000000000000001', username: 'alice' };
const bob: EmulatorUser = { id: '410000000000000002', username: 'bob' };
const carol: EmulatorUser = { id: '410000000000000003', username: 'carol' };
const JUDGE_SCORES = /\d\.\d\d \(need \d|Winner: |won the round/;

const text = (a: Answer) => a.messages.map((m) => payloadText(m.body)).join('\n');

describe('discord: blind votes on pitches', () => {
  const emu = new DiscordEmulator();
  let store: EventStore;
  let rt: DiscordRuntime;

  before(async () => {
    await emu.start();
    store = await openStore({ sqlitePath: ':memory:' });
    rt = await startDiscord({
      env: { DISCORD_TOKEN: 'MTIz.fake.SECRET' },
      store,
      logger: pino({ level: 'silent' }),
      restApi: emu.restApi,
      softDeadlineMs: 60_000,
      hostOptions: { clock: new FakeClock(), votes: { ballotSeconds: 60 } },
    });
  });
  after(async () => {
    await rt.stop();
    await store.close();
    await emu.close();
  });

  test('buttons cast votes once per person per pair; own pitch refused; no verdict before the vote', async () => {
    const { bot, host } = rt;
    const opened = await slash(emu, bot, alice, 'new', {
      task: 'market_round',
      seed: 7,
      round_seconds: 0,
      votes: 'on',
    });
    assert.match(text(opened), /Pitches and votes are collected for research exports/);
    await slash(emu, bot, alice, 'join', { lab: 'lab_0' });
    await slash(emu, bot, bob, 'join', { lab: 'lab_1' });
    await slash(emu, bot, alice, 'start');
    const m = (await host.current(emu.channelId))!;
    for (const [u, lab] of [
      [alice, 'lab_0'],
      [bob, 'lab_1'],
    ] as const) {
      const job = Object.values(m.state!.jobs).find((j) => j.owner === lab)!;
      // Pitches that name their author every way they can: the lab's name and id, the job id, the player's name.
      const name = lab === 'lab_0' ? 'Lab A' : 'Lab B';
      const pitched = await slash(emu, bot, u, 'pitch', {
        text: `We at ${name} (${lab}, ${u.username} speaking): ${job.id} needs its GPU-hours before the deadline`,
        job: job.id,
      });
      assert.match(text(pitched), /pitches/);
    }
    await slash(emu, bot, bob, 'done');
    const closed = await slash(emu, bot, alice, 'done');
    const closePost = closed.messages.find((x) => /Round 1\/5 closed/.test(payloadText(x.body)));
    assert.ok(closePost && !isEphemeral(closePost.body));
    assert.ok(
      buttonIds(closePost.body).includes(`arena:@${m.id} vote ballot:v_1`),
      'the round-close post has a vote button',
    );
    assert.doesNotMatch(
      publicMessages(emu)
        .map((x) => payloadText(x.body))
        .join('\n'),
      JUDGE_SCORES,
      'no public post shows the judge scores',
    );
    const matchId = m.id;
    const rows = async () => (await store.listVotes({ matchId })).length;

    // carol clicks the round-close post's button: her pair, ephemeral, blind, with four choice buttons.
    const served = await click(emu, bot, carol, `arena:@${m.id} vote ballot:v_1`, closePost.body);
    assert.ok(served.messages.length >= 1 && served.messages.every((x) => isEphemeral(x.body)));
    const pairMsg = served.messages[0]!.body;
    assert.match(payloadText(pairMsg), /Ballot v_1 · pair 1 of/);
    assert.doesNotMatch(
      payloadText(pairMsg),
      /Lab [ABC]|alice|bob|lab_\d|\bj_\d|\bb_\d/i,
      'no author identifiable on the ballot',
    );
    // Discord shows player text with markdown escaped ("\[own lab\]" renders as "[own lab]").
    assert.match(
      payloadText(pairMsg).replace(/\\(.)/g, '$1'),
      /We at \[own lab\] \(\[own lab\], \[name\] speaking\): \[own job 1\] needs its GPU-hours/,
    );
    const choices = buttonIds(pairMsg);
    assert.deepEqual(
      choices,
      ['a', 'b', 'tie', 'both_bad'].map((c) => `arena:@${m.id} vote ballot:v_1 pair:1 choice:${c}`),
    );
    assert.ok(choices.every((id) => id.length <= 100));
    const before =
      publicMessages(emu)
        .map((x) => payloadText(x.body))
        .join('\n') + payloadText(pairMsg);
    assert.doesNotMatch(before, JUDGE_SCORES, 'nothing carol saw before voting holds the verdict');

    const voted = await click(emu, bot, carol, choices[1]!, pairMsg);
    assert.ok(voted.messages.every((x) => isEphemeral(x.body)));
    assert.match(text(voted), /Vote recorded: ballot v_1, pair 1/);
    assert.match(text(voted), /\d\.\d\d \(need/, "the judge's scores of the pair after the vote");
    assert.equal(await rows(), 1);

    const again = await click(emu, bot, carol, choices[0]!, pairMsg);
    assert.ok(again.messages.every((x) => isEphemeral(x.body)));
    assert.match(text(again), /duplicate_vote/);
    assert.equal(await rows(), 1, 'a repeat click adds no row');

    const own = await click(emu, bot, alice, choices[0]!, pairMsg);
    assert.ok(own.messages.every((x) => isEphemeral(x.body)));
    assert.match(text(own), /own_pitch/);
    assert.equal(await rows(), 1, 'no row for a vote on one’s own pitch');

    const rec = (await store.listVotes({ matchId }))[0]!;
    assert.equal(rec.voterId, `discord:${carol.id}`);
    assert.equal(rec.seated, false);
    assert.equal(rec.anonymous, true, 'the ballot pair was anonymous after redaction');
    assert.equal(
      rec.choice,
      rec.shownFirst === rec.pitchA ? 'b' : 'a',
      '“B is better” stored relative to the canonical order',
    );
  });
});
