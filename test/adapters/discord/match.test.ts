/**
 * End to end: the real discord.js Client (startDiscord: catalogue + round host + SQLite ':memory:')
 * against the local emulator. Two people play a whole market_round match (seed 7, no round timer) with
 * a scripted third seat, through slash commands, buttons, the pitch modal and autocomplete; then a
 * timed match's round is closed by the timer and posted to the channel. Every public message of the
 * session is scanned for private values taken from the engine state in the store.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { observe } from '../../../src/engine/index.js';
import type { MatchState } from '../../../src/engine/types.js';
import { FakeClock, replay, type HostedMatch } from '../../../src/host/index.js';
import { openStore, type EventStore } from '../../../src/store/index.js';
import { startDiscord, type DiscordRuntime } from '../../../src/app/discord.js';
import { DiscordEmulator, type EmulatorUser } from '../../emulators/discord.js';
import {
  answerOf,
  buttonIds,
  click,
  isEphemeral,
  payloadText,
  publicMessages,
  slash,
  submitModal,
  type Answer,
} from './helpers.js';
import { leaksIn as leaksInText } from '../watch-checks.js';

const TOKEN = 'MTIz.fake-discord-token.SECRET';
const alice: EmulatorUser = { id: '310000000000000001', username: 'alice' };
const bob: EmulatorUser = { id: '310000000000000002', username: 'bob' };

/** Every engine state the match went through (after each event), from the stored log. */
async function statesOf(store: EventStore, matchId: string): Promise<MatchState[]> {
  const events = await store.load(matchId);
  const out: MatchState[] = [];
  let m: HostedMatch | null = null;
  for (const ev of events) {
    m = replay([ev], m);
    if (m?.state) out.push(m.state);
  }
  return out;
}

const allText = (a: Answer) => a.messages.map((m) => payloadText(m.body)).join('\n');

describe('discord: a full match end to end', () => {
  const emu = new DiscordEmulator();
  const clock = new FakeClock();
  const logs: string[] = [];
  let store: EventStore;
  let rt: DiscordRuntime;
  let matchId = '';

  before(async () => {
    await emu.start();
    store = await openStore({ sqlitePath: ':memory:' });
    const logger = pino(
      { level: 'info' },
      new Writable({ write: (c: Buffer, _e, cb) => (logs.push(String(c)), cb()) }),
    );
    rt = await startDiscord({
      env: { DISCORD_TOKEN: TOKEN },
      store,
      logger,
      restApi: emu.restApi,
      softDeadlineMs: 60_000,
      hostOptions: { clock, autoDone: false },
    });
  });
  after(async () => {
    await rt.stop();
    await store.close();
    await emu.close();
  });

  const current = async (): Promise<HostedMatch> => {
    const m = replay(await store.load(matchId));
    assert.ok(m?.state, 'match running');
    return m;
  };

  test('two people and a scripted seat play market_round to the end through interactions', async () => {
    const { bot, host } = rt;
    const ch = emu.channelId;

    // Lobby: alice opens it (slash), bob joins with the lobby's button, alice joins with a slash command.
    const opened = await slash(emu, bot, alice, 'new', { task: 'market_round', seed: 7, round_seconds: 0 });
    assert.equal(opened.callbacks[0]!.type, 4);
    assert.ok(!isEphemeral(opened.messages[0]!.body));
    matchId = (await host.current(ch))!.id;
    assert.deepEqual(
      buttonIds(opened.messages[0]!.body),
      [`arena:@${matchId} join`, `arena:@${matchId} start`],
      'buttons name their match',
    );
    const joined = await click(
      emu,
      bot,
      bob,
      `arena:@${matchId} join`,
      emu.messages.get(`${opened.d.token}/@original`),
    );
    assert.match(allText(joined), /taken by 👤 bob/u);
    await slash(emu, bot, alice, 'join');

    // Start is deferred (scripted seats act) and edited; alice's private brief is ephemeral; bob's waits for him.
    const started = await slash(emu, bot, alice, 'start');
    assert.equal(started.callbacks[0]!.type, 5, 'start is deferred');
    assert.deepEqual(started.callbacks[0]!.data, { flags: 0 });
    const edit = started.messages.find((m) => m.via === 'edit');
    assert.ok(edit && /Match started/.test(payloadText(edit.body)));
    const briefs = started.messages.filter((m) => /You play/.test(payloadText(m.body)));
    assert.equal(briefs.length, 1, "only alice's own brief in her interaction");
    assert.ok(isEphemeral(briefs[0]!.body));
    assert.ok(
      started.messages.some((m) => buttonIds(m.body).includes('arena-inbox')),
      'a button tells bob a private update waits',
    );

    let m = await current();
    const labOf = (u: EmulatorUser) => host.seatOf(m, `discord:${u.id}`)!;
    const [labA, labB] = [labOf(alice), labOf(bob)];
    assert.ok(labA && labB && labA !== labB);

    // bob: his held brief, then his private view, all ephemeral.
    const bobMe = await slash(emu, bot, bob, 'me');
    assert.equal(bobMe.callbacks[0]!.type, 4);
    assert.ok(bobMe.messages.length >= 2 && bobMe.messages.every((x) => isEphemeral(x.body)));
    assert.match(payloadText(bobMe.messages[0]!.body), /You play/);

    let closes = 0;
    while (!m.state!.over) {
      const round = m.state!.round;
      if (round === 0) {
        // The pitch modal: `/arena pitch` without text opens it (type 9); the submit runs pitch.
        const opening = await slash(emu, bot, alice, 'pitch');
        assert.equal(opening.callbacks[0]!.type, 9);
        const modal = opening.callbacks[0]!.data as { custom_id: string };
        const aliceJob = observe(m.state!, labA).self.jobs[0]!.id;
        const pitched = await submitModal(emu, bot, alice, modal.custom_id, {
          text: 'We need reliable GPU capacity for our training run.',
          job: aliceJob,
        });
        assert.equal(pitched.callbacks[0]!.type, 4);
        assert.ok(!isEphemeral(pitched.messages[0]!.body));
        assert.match(payloadText(pitched.messages[0]!.body), /pitches/);

        // Autocomplete offers alice only her own pending jobs.
        const ac = emu.dispatchAutocomplete(alice, 'arena', 'allocate', [
          { name: 'job', type: 3, value: '', focused: true },
        ]);
        await bot.handled(ac.id);
        const choices = (answerOf(emu, ac).callbacks[0]!.data as { choices: { value: string }[] }).choices;
        const pending = observe(m.state!, labA)
          .self.jobs.filter((j) => j.outcome === 'pending')
          .map((j) => j.id);
        assert.deepEqual(choices.map((c) => c.value).sort(), [...pending].sort());

        // alice buys one of bob's blocks. The public offer has no answer buttons (alice would see them too);
        // bob's Accept / Reject / Counter wait for him behind "My private update", and he accepts from there.
        const bobBlock = observe(m.state!, labB).self.blocks.find((b) => b.status === 'available')!;
        const offer = await slash(emu, bot, alice, 'offer', {
          to: labB,
          want: bobBlock.id,
          pay: 5,
          msg: 'five credits for one block',
        });
        const publicIds = offer.messages.filter((x) => !isEphemeral(x.body)).flatMap((x) => buttonIds(x.body));
        assert.ok(
          !publicIds.some((id) => /^arena:@m_\w+ (accept|reject|counter) offer:/.test(id)),
          'no answer buttons on the public offer',
        );
        assert.ok(publicIds.includes('arena-inbox'), 'the public offer points bob to his private update');
        assert.ok(
          offer.messages
            .filter((x) => isEphemeral(x.body))
            .every((x) => !buttonIds(x.body).some((id) => id.startsWith(`arena:@${matchId} accept`))),
          'alice gets no accept button',
        );
        const inbox = await click(emu, bot, bob, 'arena-inbox');
        const bobOffer = inbox.messages.find(
          (x) =>
            isEphemeral(x.body) && buttonIds(x.body).some((id) => id.startsWith(`arena:@${matchId} accept offer:`)),
        );
        assert.ok(bobOffer, "bob's private offer post carries the accept button");
        assert.ok(buttonIds(bobOffer.body).some((id) => id.startsWith(`arena:@${matchId} counter offer:`)));
        const accept = buttonIds(bobOffer.body).find((id) => id.startsWith(`arena:@${matchId} accept offer:`))!;
        const accepted = await click(emu, bot, bob, accept, bobOffer.body);
        assert.ok(accepted.callbacks.length >= 1);
        m = await current();
        assert.equal(m.state!.blocks[bobBlock.id]!.owner, labA, 'the trade executed');
      }

      // Each person allocates usable blocks to a pending job (private answer when it says which job).
      for (const [u, lab] of [
        [alice, labA],
        [bob, labB],
      ] as const) {
        const obs = observe(m.state!, lab);
        const job = obs.self.jobs.find((j) => j.outcome === 'pending' && j.deadlineRound >= round);
        const blocks = job
          ? obs.self.blocks.filter((b) => b.status === 'available' && b.reliability >= job.minReliability)
          : [];
        if (!job || blocks.length === 0) continue;
        const alloc = await slash(emu, bot, u, 'allocate', { job: job.id, blocks: blocks.map((b) => b.id).join(',') });
        assert.ok(alloc.messages.length > 0);
      }

      // bob is done (deferred, edited); alice's done closes the round — by button in round 1.
      const bobDone = await slash(emu, bot, bob, 'done');
      assert.equal(bobDone.callbacks[0]!.type, 5);
      const aliceDone =
        round === 1 ? await click(emu, bot, alice, `arena:@${matchId} done`) : await slash(emu, bot, alice, 'done');
      assert.equal(aliceDone.callbacks[0]!.type, 5, 'the round-closing done is deferred');
      const closed = aliceDone.reqs.find((r) => r.method === 'PATCH' && r.path.endsWith('/messages/@original'));
      assert.ok(closed, 'the deferred round close is edited (PATCH @original)');
      assert.ok(
        aliceDone.messages.some(
          (x) => new RegExp(`Round ${round + 1}/5 closed`).test(payloadText(x.body)) && !isEphemeral(x.body),
        ),
      );
      // Private round rewards: alice's ephemeral here; bob's held behind the "My private update" button.
      assert.ok(
        aliceDone.messages.some((x) => /your round \d+ reward/.test(payloadText(x.body)) && isEphemeral(x.body)),
      );
      closes++;
      m = await current();
      const upd = await click(emu, bot, bob, 'arena-inbox');
      assert.ok(upd.messages.length > 0 && upd.messages.every((x) => isEphemeral(x.body)));
      assert.ok(
        upd.messages.some((x) => /your round \d+ reward/.test(payloadText(x.body))),
        "bob's held round reward",
      );
    }
    assert.equal(closes, 5);
    assert.ok(publicMessages(emu).some((x) => /Match over/.test(payloadText(x.body))));
    // Every reply of the match came through interaction callbacks / webhooks, none as a channel post.
    assert.equal(publicMessages(emu).filter((x) => x.via === 'channel').length, 0);
    // Every private-looking answer was ephemeral.
    for (const x of emu.requests) {
      const body = (x.path.endsWith('/callback') ? (x.body as { data?: Record<string, unknown> }).data : x.body) as
        Record<string, unknown> | undefined;
      if (!body || typeof body !== 'object' || !('embeds' in body)) continue;
      if (/only you see this|You play Lab|your round \d+ reward|^✗ /m.test(payloadText(body)))
        assert.ok(isEphemeral(body), payloadText(body).slice(0, 80));
    }
  });

  test('a timed round closed by the timer is posted to the channel, with the next deadline as <t:…:R>', async () => {
    const { bot, host } = rt;
    await slash(emu, bot, alice, 'new', { task: 'single_trade', seed: 3, round_seconds: 30 });
    await slash(emu, bot, alice, 'join');
    const started = await slash(emu, bot, alice, 'start');
    const startText = started.messages.map((x) => payloadText(x.body)).join('\n');
    const deadline = Math.floor((clock.now() + 30_000) / 1000);
    assert.ok(startText.includes(`<t:${deadline}:R>`), 'the round timer is a relative timestamp');
    const before = emu.requests.length;
    await clock.advance(30_000);
    await host.idle();
    await bot.idle();
    const posts = emu.requests
      .slice(before)
      .filter((r) => r.method === 'POST' && r.path === `/api/v10/channels/${emu.channelId}/messages`);
    assert.ok(posts.length >= 1, 'the timer close went to the channel');
    assert.equal(posts[0]!.authorization, `Bot ${TOKEN}`);
    const text = posts.map((p) => payloadText(p.body as Record<string, unknown>)).join('\n');
    assert.match(text, /Round 1\/3 closed/);
    assert.ok(text.includes(`<t:${deadline + 30}:R>`), 'the next round shows its deadline');
    assert.ok(posts.some((p) => buttonIds(p.body as Record<string, unknown>).includes('arena-inbox')));
    const mine = await click(emu, bot, alice, 'arena-inbox');
    assert.ok(mine.messages.some((x) => /your round 1 reward/.test(payloadText(x.body)) && isEphemeral(x.body)));
    await slash(emu, bot, alice, 'end');
  });

  test('no public message carries a private value of any seat', async () => {
    const states = await statesOf(store, matchId);
    assert.ok(states.length > 10);
    const settled = new Set<string>();
    const leaksIn = (text: string): string[] => leaksInText(states, text, settled);
    const pub = publicMessages(emu);
    assert.ok(pub.length > 20);
    assert.deepEqual(
      pub.flatMap((x) => leaksIn(payloadText(x.body))),
      [],
    );
    // The scan is not blind: the ephemeral messages of the same session do carry such values.
    const ephemeral = emu.requests
      .map((r) =>
        r.path.endsWith('/callback')
          ? (r.body as { data?: Record<string, unknown> }).data
          : (r.body as Record<string, unknown>),
      )
      .filter(
        (b): b is Record<string, unknown> => typeof b === 'object' && b !== null && 'embeds' in b && isEphemeral(b),
      );
    const found = ephemeral.flatMap((b) => leaksIn(payloadText(b)));
    for (const kind of ['budget of', 'value of', 'needs', 'your round'])
      assert.ok(
        found.some((f) => f.includes(kind)),
        `scanner finds "${kind}" in private posts`,
      );
    if (process.env.DUMP_PUBLIC) for (const x of pub) console.log(`--- ${x.via}\n${payloadText(x.body)}`);
  });

  test('logs name match, seat and command and never the token or private values', () => {
    const lines = logs.map((l) => JSON.parse(l) as Record<string, unknown>);
    const answered = lines.filter((l) => l.msg === 'discord: command answered');
    assert.ok(answered.some((l) => l.matchId === matchId && typeof l.seat === 'string' && l.command === 'done'));
    const all = logs.join('');
    assert.ok(!all.includes(TOKEN));
    assert.ok(!/[Bb]udget \d/.test(all));
  });
});
