/**
 * The Slack adapter in HTTP mode (real Bolt App, default HTTPReceiver) against the local emulator with a
 * fake command backend: signature checks, acks, how replies travel (response_url, chat.postEphemeral,
 * chat.postMessage), buttons, the pitch modal, retries and logs. The real catalogue and host are
 * covered by match.test.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SlackBot } from '../../../src/adapters/slack/bot.js';
import { PITCH_CALLBACK_ID } from '../../../src/adapters/slack/modal.js';
import { sendSigned, SlackEmulator, type AppTarget } from '../../emulators/slack.js';
import {
  alice,
  bob,
  BOT_TOKEN,
  captureLogger,
  eventsUrl,
  FakeBackend,
  SIGNING_SECRET,
  startTestBot,
} from './helpers.js';

const CHANNEL = 'C0HTTP';

type Block = {
  type: string;
  text?: { text: string };
  fields?: { text: string }[];
  elements?: { action_id: string; value: string; style?: string }[];
};

describe('slack bot in HTTP mode (fake backend)', () => {
  const emu = new SlackEmulator();
  const backend = new FakeBackend();
  const { logger, lines } = captureLogger();
  let bot: SlackBot;
  let target: AppTarget;

  before(async () => {
    await emu.start();
    bot = await startTestBot(emu, 'http', { backend, logger, postIntervalMs: 0 });
    target = { url: eventsUrl(bot), signingSecret: SIGNING_SECRET };
  });

  after(async () => {
    await bot.stop();
    await emu.close();
  });

  test('start-up calls auth.test with the bot token', async () => {
    const auth = await emu.waitFor((r) => r.method === 'auth.test');
    assert.equal(auth.authorization, `Bearer ${BOT_TOKEN}`);
  });

  test('a signed slash command is acked with an empty 200; the private answer goes to its response_url', async () => {
    const req = emu.slashCommand(alice, CHANNEL, 'me');
    const res = await sendSigned(target, req);
    assert.equal(res.status, 200);
    assert.equal(res.body, '');
    await bot.idle();
    const answers = emu.responses(req.responseId!);
    assert.equal(answers.length, 1);
    const body = answers[0]!.body;
    assert.equal(body['response_type'], 'ephemeral');
    assert.equal(body['replace_original'], false);
    const blocks = body['blocks'] as Block[];
    assert.equal(blocks[0]!.type, 'header');
    assert.equal(blocks[1]!.text!.text, 'budget *101.53*');
    const call = backend.calls.at(-1)!;
    assert.deepEqual(call, {
      kind: 'text',
      channelId: CHANNEL,
      caller: { userId: `slack:${alice.id}`, displayName: 'alice', isAdmin: false },
      text: 'me',
    });
    assert.equal(emu.calls('chat.postMessage').length, 0, 'a private answer is never posted to the channel');
  });

  test('a wrongly signed request gets 401 and runs nothing', async () => {
    const before = backend.calls.length;
    const req = emu.slashCommand(alice, CHANNEL, 'status');
    const res = await sendSigned(target, req, { wrongSecret: 'not-the-secret' });
    assert.equal(res.status, 401);
    await bot.idle();
    assert.equal(backend.calls.length, before);
    assert.equal(emu.responses(req.responseId!).length, 0);
  });

  test('public posts go to chat.postMessage; other people get chat.postEphemeral', async () => {
    const posted = emu.calls('chat.postMessage').length;
    const req = emu.slashCommand(alice, CHANNEL, 'done');
    assert.equal((await sendSigned(target, req)).status, 200);
    await bot.idle();
    const posts = emu.calls('chat.postMessage').slice(posted);
    assert.deepEqual(
      posts.map((p) => (p.body['blocks'] as Block[])[0]!.text!.text),
      ['Round 1 closed', 'Round 2 is open'],
    );
    assert.ok(posts.every((p) => p.body['channel'] === CHANNEL && p.authorization === `Bearer ${BOT_TOKEN}`));
    const fields = (posts[0]!.body['blocks'] as Block[]).find((b) => b.fields)!.fields!;
    assert.equal(fields[0]!.text, '*Leaderboard*\nLab A 0.1');
    const eph = emu.calls('chat.postEphemeral').filter((r) => r.body['user'] === bob.id);
    assert.equal(eph.length, 1);
    assert.equal(eph[0]!.body['channel'], CHANNEL);
    assert.match(String(eph[0]!.body['text']), /bob reward 0\.2/);
    const mine = emu.responses(req.responseId!);
    assert.equal(mine.length, 1);
    assert.match(String(mine[0]!.body['text']), /your reward 0\.1/);
    assert.doesNotMatch(
      JSON.stringify(posts.map((p) => p.body)),
      /reward 0\.[12]/,
      'private rewards never reach the channel',
    );
  });

  test('a button (block_actions) runs its command text and answers on its response_url', async () => {
    const posted = emu.calls('chat.postMessage').length;
    await sendSigned(target, emu.slashCommand(alice, CHANNEL, 'status'));
    await bot.idle();
    const post = emu.calls('chat.postMessage')[posted]!;
    const blocks = post.body['blocks'] as Block[];
    assert.equal(blocks[1]!.text!.text, 'ran &lt;status&gt; &amp; more', 'player-visible text is escaped');
    const button = blocks.find((b) => b.type === 'actions')!.elements![0]!;
    assert.deepEqual(
      { ...button, text: undefined },
      {
        type: 'button',
        action_id: 'arena:@m_1 accept offer:o_1',
        value: '@m_1 accept offer:o_1',
        style: 'primary',
        text: undefined,
      },
    );

    const click = emu.blockAction(bob, CHANNEL, button);
    const res = await sendSigned(target, click);
    assert.equal(res.status, 200);
    await bot.idle();
    const call = backend.calls.at(-1)!;
    assert.equal(call.text, 'accept offer:o_1');
    assert.equal(call.match, 'm_1', 'the match the button was made for goes with it');
    assert.equal(call.caller.userId, `slack:${bob.id}`);
    assert.equal(call.channelId, CHANNEL);
  });

  test('`/arena pitch` opens the modal; its submission runs pitch with the fields', async () => {
    const before = backend.calls.length;
    const req = emu.slashCommand(alice, CHANNEL, 'pitch');
    assert.equal((await sendSigned(target, req)).status, 200);
    await bot.idle();
    assert.equal(backend.calls.length, before, 'the form opens without running the command');
    const open = emu.calls('views.open').at(-1)!;
    assert.equal(open.body['trigger_id'], req.triggerId);
    const view = open.body['view'] as {
      callback_id: string;
      private_metadata: string;
      blocks: { block_id: string; optional: boolean }[];
    };
    assert.equal(view.callback_id, PITCH_CALLBACK_ID);
    assert.deepEqual(
      view.blocks.map((b) => [b.block_id, b.optional]),
      [
        ['text', false],
        ['job', true],
      ],
    );

    const tooShort = emu.viewSubmission(alice, {
      callback_id: view.callback_id,
      private_metadata: view.private_metadata,
      values: { text: 'short', job: null },
    });
    const rejected = await sendSigned(target, tooShort);
    assert.equal(rejected.status, 200);
    assert.equal(JSON.parse(rejected.body).response_action, 'errors');
    assert.ok(JSON.parse(rejected.body).errors.text);
    await bot.idle();
    assert.equal(backend.calls.length, before, 'a too-short pitch runs nothing');

    const posted = emu.calls('chat.postMessage').length;
    const sub = emu.viewSubmission(alice, {
      callback_id: view.callback_id,
      private_metadata: view.private_metadata,
      values: { text: 'j_0_1 needs 6 GPU-hours by round 2', job: 'j_0_1' },
    });
    const ok = await sendSigned(target, sub);
    assert.equal(ok.status, 200);
    assert.equal(ok.body, '', 'a valid submission is acked empty (the modal closes)');
    await bot.idle();
    const call = backend.calls.at(-1)!;
    assert.deepEqual(
      { kind: call.kind, text: call.text, channelId: call.channelId, options: call.options },
      {
        kind: 'command',
        text: 'pitch',
        channelId: CHANNEL,
        options: { text: 'j_0_1 needs 6 GPU-hours by round 2', job: 'j_0_1' },
      },
    );
    const eph = emu.calls('chat.postEphemeral').at(-1)!;
    assert.equal(eph.body['user'], alice.id);
    assert.match(String(eph.body['text']), /Your pitch is in/);
    assert.equal(emu.calls('chat.postMessage').length, posted + 1);
  });

  test('a retried request (same payload, x-slack-retry-num: 1) is applied once', async () => {
    const before = backend.calls.length;
    const req = emu.slashCommand(alice, CHANNEL, 'offer to:lab_1 pay:5');
    assert.equal((await sendSigned(target, req)).status, 200);
    const retry = await sendSigned(target, req, { retryNum: 1 });
    assert.equal(retry.status, 200, 'the retry is acked so Slack stops retrying');
    await bot.idle();
    assert.equal(backend.calls.length, before + 1);
    assert.ok(lines.some((l) => l.includes('duplicate request ignored') && l.includes('"retryNum":1')));
    // A retried button click is deduplicated too.
    const click = emu.blockAction(bob, CHANNEL, { action_id: 'arena:@m_1 status', value: '@m_1 status' });
    await sendSigned(target, click);
    await sendSigned(target, click, { retryNum: 2 });
    await bot.idle();
    assert.equal(backend.calls.length, before + 2);
  });

  test('a failing command becomes an internal_error notice for the caller only', async () => {
    const posted = emu.calls('chat.postMessage').length;
    const req = emu.slashCommand(alice, CHANNEL, 'boom');
    assert.equal((await sendSigned(target, req)).status, 200);
    await bot.idle();
    const answers = emu.responses(req.responseId!);
    assert.equal(answers.length, 1);
    assert.match(String(answers[0]!.body['text']), /internal_error/);
    assert.equal(emu.calls('chat.postMessage').length, posted);
  });

  test('an empty reply gets a short "Done." notice', async () => {
    const req = emu.slashCommand(alice, CHANNEL, 'quiet');
    await sendSigned(target, req);
    await bot.idle();
    assert.match(String(emu.responses(req.responseId!)[0]!.body['text']), /Done\./);
  });

  test('when the response_url fails, the caller still gets the answer through chat.postEphemeral', async () => {
    emu.responseStatus = 404;
    try {
      const req = emu.slashCommand(alice, CHANNEL, 'bad');
      await sendSigned(target, req);
      await bot.idle();
      assert.equal(emu.responses(req.responseId!).length, 1);
      const eph = emu.calls('chat.postEphemeral').at(-1)!;
      assert.equal(eph.body['user'], alice.id);
      assert.match(String(eph.body['text']), /bad_token/);
    } finally {
      emu.responseStatus = 200;
    }
  });

  test('publish (timer round closes) posts publicly and sends each person their ephemeral', async () => {
    const posted = emu.calls('chat.postMessage').length;
    const eph = emu.calls('chat.postEphemeral').length;
    await bot.publish(CHANNEL, {
      public: [{ title: 'Round 2 closed', text: 'by the timer' }],
      private: [
        { userId: `slack:${alice.id}`, text: 'alice reward' },
        { userId: `slack:${bob.id}`, text: 'bob reward' },
        { userId: 'discord:123', text: 'not a slack user' },
      ],
    });
    await bot.idle();
    assert.equal(emu.calls('chat.postMessage').length, posted + 1);
    const sent = emu
      .calls('chat.postEphemeral')
      .slice(eph)
      .map((r) => [r.body['user'], r.body['text']]);
    assert.deepEqual(sent, [
      [alice.id, 'alice reward'],
      [bob.id, 'bob reward'],
    ]);
  });

  test('logs carry match id, seat and command, and no token, secret or private text', async () => {
    const req = emu.slashCommand(alice, CHANNEL, 'message to:lab_1 text:"secret plan xyzzy"');
    await sendSigned(target, req);
    await bot.idle();
    const answered = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l['msg'] === 'slack: command answered');
    assert.ok(
      answered.some(
        (l) =>
          l['matchId'] === 'm_fake1' &&
          l['seat'] === 'lab_0' &&
          l['command'] === 'message' &&
          l['platform'] === 'slack',
      ),
    );
    const all = lines.join('\n');
    for (const secret of [BOT_TOKEN, SIGNING_SECRET, 'xyzzy', 'A private note', 'budget'])
      assert.ok(!all.includes(secret), `logs must not contain ${secret}`);
  });

  test('the ack does not wait for the command: a slow command is acked at once', async () => {
    const slow = new FakeBackend();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    slow.runText = async (channelId, caller, text) => {
      await gate;
      return FakeBackend.prototype.runText.call(slow, channelId, caller, text);
    };
    const bot2 = await startTestBot(emu, 'http', { backend: slow, logger, postIntervalMs: 0 });
    try {
      const req = emu.slashCommand(alice, CHANNEL, 'me');
      const res = await sendSigned({ url: eventsUrl(bot2), signingSecret: SIGNING_SECRET }, req);
      // The ack came back while the command is still blocked: nothing has answered yet.
      assert.equal(res.status, 200);
      assert.equal(emu.responses(req.responseId!).length, 0);
      release();
      await bot2.idle();
      assert.equal(emu.responses(req.responseId!).length, 1);
    } finally {
      release();
      await bot2.stop();
    }
  });
});
