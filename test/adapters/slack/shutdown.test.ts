/**
 * A bounded, graceful stop: `npm start -- --platform slack` (Socket Mode) mid-match, its
 * Slack API gone (the emulator stopped), gets SIGTERM: it exits 0 within `shutdown.drainSeconds` (its own
 * log says how long the drain took), and a new process on the same database resumes the match with every
 * acknowledged command in it.
 */
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../../src/store/index.js';
import { replay } from '../../../src/match/replay.js';
import { SlackEmulator } from '../../emulators/slack.js';
import { APP_TOKEN, BOT_TOKEN, alice } from './helpers.js';
import { assertBoundedStop } from '../../support/stop-log.js';

const DRAIN_SECONDS = 2;
const CHANNEL = 'C0STOP';
const db = join(mkdtempSync(join(tmpdir(), 'arena-slack-stop-')), 'arena.db');

function startBot(emu: SlackEmulator) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'info',
    SLACK_MODE: 'socket',
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_APP_TOKEN: APP_TOKEN,
    SLACK_API_URL: emu.apiUrl,
    ARENA_SHUTDOWN_DRAIN_SECONDS: String(DRAIN_SECONDS),
    ARENA_CHAT_THREADS: 'false',
  };
  // Flat posting (no match thread): the commands below are answered in the channel they are typed in.
  for (const k of Object.keys(env))
    if (
      k.startsWith('ARENA_LLM') ||
      k.startsWith('OPENAI') ||
      k === 'DATABASE_URL' ||
      k === 'ARENA_CONFIG' ||
      k === 'SLACK_SIGNING_SECRET'
    )
      delete env[k];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', '--platform', 'slack', '--db', db], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += String(c)));
  child.stderr.on('data', (c: Buffer) => (out += String(c)));
  const exited = new Promise<{ code: number | null }>((resolve) => child.on('exit', (code) => resolve({ code })));
  // A test that fails must not leave a bot running (generous: a loaded machine starts a bot slowly).
  const killer = setTimeout(() => child.kill('SIGKILL'), 600_000);
  void exited.then(() => clearTimeout(killer));
  const logs = () =>
    out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { child, exited, output: () => out, logs };
}

/** `/arena <text>` over the socket; resolves with what the bot posted for it (response_url or chat.post*). */
async function ask(emu: SlackEmulator, text: string): Promise<string> {
  const from = emu.requests.length;
  const req = emu.slashCommand(alice, CHANNEL, text);
  await emu.sendEnvelope(req, { timeoutMs: 60_000 });
  const answered = (x: { path: string }) =>
    x.path === `/response/${req.responseId}` || /chat\.post(Message|Ephemeral)/.test(x.path);
  await emu.waitFor((x) => emu.requests.indexOf(x) >= from && answered(x), 60_000);
  return emu.requests
    .slice(from)
    .filter(answered)
    .map((x) => JSON.stringify(x.body))
    .join('\n');
}

describe('slack: SIGTERM with the platform gone', () => {
  const emus: SlackEmulator[] = [];
  after(async () => {
    for (const e of emus) await e.close();
  });

  test('exits 0 within the drain time; a restart resumes the match with nothing acknowledged lost', async () => {
    const emu = new SlackEmulator();
    await emu.start();
    emus.push(emu);
    const bot = startBot(emu);
    await emu.socketConnected();
    await ask(emu, 'new task:market_round seed:11 round_seconds:600');
    await ask(emu, 'join');
    await ask(emu, 'start');
    await ask(emu, 'pitch text:"We need reliable GPU capacity for our training run this week."');

    await emu.close();
    bot.child.kill('SIGTERM');
    const { code } = await bot.exited;
    assert.equal(code, 0, bot.output().slice(-2000));
    const stopped = assertBoundedStop(bot.logs(), {
      begin: 'slack: shutting down',
      end: 'slack: drained, closing the store',
      drainSeconds: DRAIN_SECONDS,
    });
    if (process.env.DUMP_STOP) console.log('slack stop:', JSON.stringify(stopped));
    assert.ok(!bot.output().includes(BOT_TOKEN) && !bot.output().includes(APP_TOKEN));

    const store = await openStore({ sqlitePath: db });
    const [rec] = await store.listUnfinished();
    assert.ok(rec, 'the match is still unfinished');
    const m = replay(await store.load(rec.id))!;
    await store.close();
    assert.equal(m.phase, 'running');
    assert.equal(m.state!.pitches.length, 1, 'the acknowledged pitch is kept');

    const emu2 = new SlackEmulator();
    await emu2.start();
    emus.push(emu2);
    const bot2 = startBot(emu2);
    await emu2.socketConnected();
    const status = await ask(emu2, 'status');
    assert.match(status, /round 1\/5/i);
    assert.match(status, /We need reliable GPU capacity/);
    bot2.child.kill('SIGTERM');
    assert.equal((await bot2.exited).code, 0);
  });
});
