/**
 * Channel posts at the real rate: at most one chat.postMessage per second per channel (Slack's limit),
 * checked on the emulator's arrival timestamps (a rate-limit property, so this test reads the clock);
 * another channel is not held up by a busy one; host posts (publish) share the channel's queue.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SlackBot } from '../../../src/adapters/slack/bot.js';
import { sendSigned, SlackEmulator, type RecordedRequest } from '../../emulators/slack.js';
import { alice, bob, captureLogger, eventsUrl, FakeBackend, SIGNING_SECRET, startTestBot } from './helpers.js';

const A = 'C0BUSY';
const B = 'C0OTHER';
const WARM = 'C0WARM';
/** Slack allows 1 message/s per channel; arrival jitter on a loaded machine is allowed 50 ms. */
const MIN_GAP_MS = 950;

const header = (r: RecordedRequest) =>
  (r.body['blocks'] as { type: string; text?: { text: string } }[])[0]?.text?.text ?? '';

describe('slack channel posts at the real 1 message/s per channel', () => {
  const emu = new SlackEmulator();
  const { logger } = captureLogger();
  let bot: SlackBot;

  before(async () => {
    await emu.start();
    bot = await startTestBot(emu, 'http', { backend: new FakeBackend(), logger });
  });

  after(async () => {
    await bot.stop();
    await emu.close();
  });

  test('consecutive posts to one channel arrive ≥ ~1 s apart; other channels are not held up', async () => {
    const target = { url: eventsUrl(bot), signingSecret: SIGNING_SECRET };
    // Warm-up in a third channel, outside the measured window: a cold first post (loading and JIT of
    // the whole path) would reach the emulator late and shrink the first measured gap.
    await sendSigned(target, emu.slashCommand(alice, WARM, 'status'));
    await bot.idle();
    await sendSigned(target, emu.slashCommand(alice, A, 'burst'));
    // Channel B's command runs only once A's first post has arrived, so its work cannot delay that
    // arrival (which would also shrink the first gap); it then overlaps A's wait for the next slot.
    await emu.waitFor((r) => r.method === 'chat.postMessage' && r.body['channel'] === A);
    await sendSigned(target, emu.slashCommand(bob, B, 'status'));
    await bot.publish(A, { public: [{ title: 'Timer close', text: 'round closed by the timer' }], private: [] });
    await bot.idle();

    const inA = emu.calls('chat.postMessage').filter((r) => r.body['channel'] === A);
    const inB = emu.calls('chat.postMessage').filter((r) => r.body['channel'] === B);
    assert.deepEqual(inA.map(header), ['Post 1', 'Post 2', 'Post 3', 'Timer close'], 'posts keep their order');
    assert.equal(inB.length, 1);
    for (let i = 1; i < inA.length; i++) {
      const gap = inA[i]!.at - inA[i - 1]!.at;
      assert.ok(gap >= MIN_GAP_MS, `posts ${i} and ${i + 1} in one channel are ${gap} ms apart`);
    }
    // Channel B's post went out while A's queue still held its burst: queued behind A it would come
    // after Post 3 (≥ 2 s after Post 1). Compared with Post 3, not Post 2, so B's command has ~2 s,
    // not ~1 s, to complete on a loaded machine.
    assert.ok(inB[0]!.at < inA[2]!.at, 'a busy channel does not delay another channel');
  });
});
