/**
 * The consent flow through the real discord.js Client against the local emulator
 * (docs/PREFERENCE-DATA.md#consent-and-erasure): a person's first pitch is answered, privately, with the
 * data notice and its two buttons; pressing "I agree" records the consent; `/arena privacy` shows it; the
 * notice is not shown again.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { startDiscord, type DiscordRuntime } from '../../../src/app/discord.js';
import { FakeClock } from '../../../src/host/index.js';
import { openStore, type EventStore } from '../../../src/store/index.js';
import { DiscordEmulator, type EmulatorUser } from '../../emulators/discord.js';
import { buttonIds, click, isEphemeral, payloadText, slash, type Answer } from './helpers.js';

const alice: EmulatorUser = { id: '420000000000000001', username: 'alice' };
const bob: EmulatorUser = { id: '420000000000000002', username: 'bob' };
const text = (a: Answer) => a.messages.map((m) => payloadText(m.body)).join('\n');

describe('discord: consent to research exports', () => {
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
      hostOptions: { clock: new FakeClock() },
    });
  });
  after(async () => {
    await rt.stop();
    await store.close();
    await emu.close();
  });

  test('the notice with two buttons after a first pitch; "I agree" records it; privacy shows it', async () => {
    const { bot, host } = rt;
    await slash(emu, bot, alice, 'new', { task: 'market_round', seed: 7, round_seconds: 0, votes: 'on' });
    await slash(emu, bot, alice, 'join', { lab: 'lab_0' });
    await slash(emu, bot, bob, 'join', { lab: 'lab_1' });
    await slash(emu, bot, alice, 'start');
    const m = (await host.current(emu.channelId))!;
    const pitched = await slash(emu, bot, alice, 'pitch', {
      text: 'Our training job needs one more block before its deadline',
    });
    const notice = pitched.messages.find((x) => /may we use your words and votes/.test(payloadText(x.body)));
    assert.ok(notice, text(pitched));
    assert.ok(isEphemeral(notice.body), 'shown to alice alone');
    assert.deepEqual(buttonIds(notice.body), [
      `arena:@${m.id} privacy consent:on`,
      `arena:@${m.id} privacy consent:off`,
    ]);
    assert.equal((await store.getConsent(`discord:${alice.id}`))?.state, 'asked');

    const agreed = await click(emu, bot, alice, `arena:@${m.id} privacy consent:on`, notice.body);
    assert.ok(agreed.messages.every((x) => isEphemeral(x.body)));
    assert.match(text(agreed), /Consent given/);
    assert.equal((await store.getConsent(`discord:${alice.id}`))?.state, 'granted');

    const again = await slash(emu, bot, alice, 'pitch', { text: 'Our training job still needs one more block, now' });
    assert.doesNotMatch(text(again), /may we use your words and votes/, 'asked once');
    const shown = await slash(emu, bot, alice, 'privacy');
    assert.ok(shown.messages.every((x) => isEphemeral(x.body)));
    assert.match(text(shown), /Consent: you agreed/);
    assert.match(text(shown), /1 match you held a seat in/);

    // bob declines with the other button.
    const bobPitch = await slash(emu, bot, bob, 'pitch', {
      text: 'Our inference job misses its deadline without a block',
    });
    const bobNotice = bobPitch.messages.find((x) => /may we use your words and votes/.test(payloadText(x.body)))!;
    await click(emu, bot, bob, `arena:@${m.id} privacy consent:off`, bobNotice.body);
    assert.equal((await store.getConsent(`discord:${bob.id}`))?.state, 'declined');
  });
});
