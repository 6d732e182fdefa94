/**
 * The consent flow through the real Bolt App against the local Slack emulator
 * (docs/PREFERENCE-DATA.md#consent-and-erasure): a first pitch is answered, ephemerally, with the data
 * notice and its two Block Kit buttons; pressing "I agree" records the consent; `/arena privacy` shows it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { StartedSlack } from '../../../src/app/slack.js';
import { openStore, type EventStore } from '../../../src/store/index.js';
import { sendSigned, SlackEmulator, type AppTarget, type BuiltRequest, type SlackUser } from '../../emulators/slack.js';
import { alice, bob, captureLogger, startSlackOnEmulator } from './helpers.js';

const CHANNEL = 'C0PRIVACY';
type Block = {
  type: string;
  text?: { text: string };
  fields?: { text: string }[];
  elements?: { action_id: string; value: string }[];
};
const texts = (body: Record<string, unknown>): string => {
  const out = [String(body['text'] ?? '')];
  for (const b of (body['blocks'] as Block[] | undefined) ?? []) {
    if (b.text) out.push(b.text.text);
    for (const f of b.fields ?? []) out.push(f.text);
  }
  return out.join('\n');
};
const buttonsOf = (body: Record<string, unknown>) =>
  ((body['blocks'] as Block[] | undefined) ?? []).flatMap((b) => b.elements ?? []);

describe('slack: consent to research exports', () => {
  const emu = new SlackEmulator();
  const { logger } = captureLogger();
  let store: EventStore;
  let slack: StartedSlack;
  let target: AppTarget;

  before(async () => {
    await emu.start();
    store = await openStore({ sqlitePath: ':memory:' });
    ({ slack, target } = await startSlackOnEmulator(emu, store, logger));
  });
  after(async () => {
    await slack.stop();
    await store.close();
    await emu.close();
  });

  async function send(req: BuiltRequest): Promise<void> {
    const res = await sendSigned(target, req, {});
    assert.equal(res.status, 200);
    await slack.bot.idle();
  }
  async function slash(user: SlackUser, text: string): Promise<BuiltRequest> {
    const req = emu.slashCommand(user, CHANNEL, text);
    await send(req);
    return req;
  }
  const answered = (req: BuiltRequest) => emu.responses(req.responseId!).map((r) => r.body);

  test('the notice with two buttons after a first pitch; "I agree" records it; privacy shows it', async () => {
    await slash(alice, 'new task:market_round seed:7 round_seconds:0');
    await slash(alice, 'join lab:lab_0');
    await slash(bob, 'join lab:lab_1');
    await slash(alice, 'start');
    const m = (await slack.host.current(CHANNEL))!;
    const pitched = await slash(alice, 'pitch text:"Our training job needs one more block before its deadline"');
    const notice = answered(pitched).find((b) => /may we use your words and votes/.test(texts(b)));
    assert.ok(notice, answered(pitched).map(texts).join('\n---\n'));
    assert.equal(notice['response_type'], 'ephemeral');
    const buttons = buttonsOf(notice);
    assert.deepEqual(
      buttons.map((e) => e.value),
      [`@${m.id} privacy consent:on`, `@${m.id} privacy consent:off`],
    );
    assert.equal((await store.getConsent(`slack:${alice.id}`))?.state, 'asked');

    const agree = emu.blockAction(alice, CHANNEL, buttons[0]!);
    await send(agree);
    assert.match(answered(agree).map(texts).join('\n'), /Consent given/);
    assert.ok(answered(agree).every((b) => b['response_type'] === 'ephemeral'));
    assert.equal((await store.getConsent(`slack:${alice.id}`))?.state, 'granted');

    const again = await slash(alice, 'pitch text:"Our training job still needs one more block, now"');
    assert.doesNotMatch(answered(again).map(texts).join('\n'), /may we use your words and votes/, 'asked once');
    const shown = await slash(alice, 'privacy');
    assert.match(answered(shown).map(texts).join('\n'), /Consent: you agreed/);
    assert.ok(answered(shown).every((b) => b['response_type'] === 'ephemeral'));
  });
});
