/**
 * Socket Mode: the real Bolt App with socketMode opens `apps.connections.open` (app token) on the
 * emulator, connects to its WebSocket, acks a slash-command envelope and answers it; a retried envelope
 * (`retry_attempt`, new envelope_id, same payload) is acked but applied once; a button envelope works too.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SlackBot } from '../../../src/adapters/slack/bot.js';
import { startSlack, type StartedSlack } from '../../../src/app/slack.js';
import { openStore, type EventStore } from '../../../src/store/index.js';
import { SlackEmulator } from '../../emulators/slack.js';
import { alice, APP_TOKEN, BOT_TOKEN, captureLogger, FakeBackend, startTestBot } from './helpers.js';
import { waitUntil } from '../../support/wait.js';

const CHANNEL = 'C0SOCK';

describe('slack bot in Socket Mode (fake backend)', () => {
  const emu = new SlackEmulator();
  const backend = new FakeBackend();
  const { logger, lines } = captureLogger();
  let bot: SlackBot;

  before(async () => {
    await emu.start();
    bot = await startTestBot(emu, 'socket', { backend, logger, postIntervalMs: 0 });
    await emu.socketConnected();
  });

  after(async () => {
    await bot.stop();
    // Let the SocketModeClient finish its close handshake before the server goes, or it reports an
    // SMWebsocketError (testing notes): wait for the socket to close rather than for a fixed time.
    await waitUntil('the Socket Mode client to disconnect', () => emu.openSockets === 0);
    await emu.close();
  });

  test('connects with the app token and no HTTP port', () => {
    const open = emu.calls('apps.connections.open');
    assert.equal(open.length, 1);
    assert.equal(open[0]!.authorization, `Bearer ${APP_TOKEN}`);
    assert.equal(bot.port, null);
  });

  test('a slash command envelope is acked and answered', async () => {
    const req = emu.slashCommand(alice, CHANNEL, 'done');
    const ack = await emu.sendEnvelope(req);
    assert.deepEqual(ack, {}, 'acked with an empty payload');
    await bot.idle();
    assert.deepEqual(
      backend.calls.map((c) => c.text),
      ['done'],
    );
    assert.match(String(emu.responses(req.responseId!)[0]!.body['text']), /your reward 0\.1/);
    const posts = emu.calls('chat.postMessage').filter((r) => r.body['channel'] === CHANNEL);
    assert.equal(posts.length, 2);
  });

  test('a retried envelope (retry_attempt: 1) is acked but applied once', async () => {
    const before = backend.calls.length;
    const req = emu.slashCommand(alice, CHANNEL, 'me');
    await emu.sendEnvelope(req);
    const retryAck = await emu.sendEnvelope(req, { retryAttempt: 1 });
    assert.deepEqual(retryAck, {});
    await bot.idle();
    assert.equal(backend.calls.length, before + 1);
    assert.equal(emu.responses(req.responseId!).length, 1);
    assert.ok(lines.some((l) => l.includes('duplicate request ignored') && l.includes('"retryNum":1')));
  });

  test('a button envelope runs its command', async () => {
    const req = emu.blockAction(alice, CHANNEL, { action_id: 'arena:@m_1 status', value: '@m_1 status' });
    await emu.sendEnvelope(req);
    await bot.idle();
    assert.equal(backend.calls.at(-1)!.text, 'status');
    assert.equal(backend.calls.at(-1)!.caller.userId, `slack:${alice.id}`);
  });
});

describe('the logs of a Socket Mode session hold no token', () => {
  test('connect, a command, a retried envelope, a button and the stop are logged at debug level, without any token', async () => {
    const emu = new SlackEmulator();
    await emu.start();
    const { logger, lines } = captureLogger('debug');
    const bot = await startTestBot(emu, 'socket', { backend: new FakeBackend(), logger, postIntervalMs: 0 });
    try {
      await emu.socketConnected();
      const req = emu.slashCommand(alice, CHANNEL, 'me');
      await emu.sendEnvelope(req);
      await emu.sendEnvelope(req, { retryAttempt: 1 });
      await emu.sendEnvelope(emu.blockAction(alice, CHANNEL, { action_id: 'arena:@m_1 status', value: '@m_1 status' }));
      await bot.idle();
    } finally {
      await bot.stop();
      await waitUntil('the Socket Mode client to disconnect', () => emu.openSockets === 0);
      await emu.close();
    }
    // The session was logged (else "no token in the logs" would hold of empty logs).
    const messages = lines.map((l) => (JSON.parse(l) as { msg?: string }).msg);
    for (const m of ['slack: ready', 'slack: command answered', 'slack: duplicate request ignored', 'slack: stopped'])
      assert.ok(messages.includes(m), `"${m}" was logged: ${messages.join(' | ')}`);
    assert.equal(messages.filter((m) => m === 'slack: command answered').length, 2, 'the command and the button');
    const all = lines.join('\n');
    for (const secret of [APP_TOKEN, BOT_TOKEN, 'xoxb-', 'xapp-'])
      assert.ok(!all.includes(secret), `a log line holds ${secret.slice(0, 5)}…`);
  });
});

describe('startSlack in Socket Mode (real catalogue and host)', () => {
  const emu = new SlackEmulator();
  const { logger } = captureLogger();
  let store: EventStore;
  let slack: StartedSlack;

  before(async () => {
    await emu.start();
    store = await openStore({ sqlitePath: ':memory:' });
    slack = await startSlack({
      env: { SLACK_MODE: 'socket', SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_APP_TOKEN: APP_TOKEN, SLACK_API_URL: emu.apiUrl },
      store,
      logger,
      clientOptions: { retryConfig: { retries: 0 } },
      postIntervalMs: 0,
    });
    await emu.socketConnected();
  });

  after(async () => {
    await slack.stop();
    await waitUntil('the Socket Mode client to disconnect', () => emu.openSockets === 0);
    await store.close();
    await emu.close();
  });

  test('`/arena new` over the socket opens a lobby and posts it to the channel', async () => {
    assert.equal(slack.port, undefined);
    const ack = await emu.sendEnvelope(emu.slashCommand(alice, CHANNEL, 'new task:single_trade seed:7'));
    assert.deepEqual(ack, {});
    await slack.bot.idle();
    const rec = await store.activeMatchInChannel(CHANNEL);
    assert.ok(rec, 'the match is in the store');
    assert.equal(rec.platform, 'slack');
    const post = emu.calls('chat.postMessage').find((r) => r.body['channel'] === CHANNEL);
    assert.ok(post);
    assert.match(String(post.body['text']), /Lobby/);
  });
});
