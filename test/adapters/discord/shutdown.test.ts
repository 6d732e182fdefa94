/**
 * A bounded, graceful stop: `npm start -- --platform discord` mid-match, its Discord API
 * gone (the emulator stopped), gets SIGTERM: it exits 0 within `shutdown.drainSeconds` (its own log says how
 * long the drain took), and a new process on the same database (a new emulator with the same guild and
 * channel) resumes the match with every acknowledged command in it. A second signal exits at once.
 */
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../../src/store/index.js';
import { replay } from '../../../src/match/replay.js';
import { DiscordEmulator, type Dispatched, type EmulatorUser } from '../../emulators/discord.js';
import { assertBoundedStop } from '../../support/stop-log.js';

const TOKEN = 'MTIz.shutdown-test.SECRET';
const DRAIN_SECONDS = 2;
const alice: EmulatorUser = { id: '330000000000000001', username: 'alice' };
const dir = mkdtempSync(join(tmpdir(), 'arena-discord-stop-'));
const db = join(dir, 'arena.db');

function startBot(emu: DiscordEmulator) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'info',
    DISCORD_TOKEN: TOKEN,
    DISCORD_API_URL: emu.restApi,
    ARENA_SHUTDOWN_DRAIN_SECONDS: String(DRAIN_SECONDS),
    ARENA_CHAT_THREADS: 'false',
  };
  // Flat posting (no match thread): the commands below are answered in the channel they are typed in.
  for (const k of Object.keys(env))
    if (k.startsWith('ARENA_LLM') || k.startsWith('OPENAI') || k === 'DATABASE_URL' || k === 'ARENA_CONFIG')
      delete env[k];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', '--platform', 'discord', '--db', db], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += String(c)));
  child.stderr.on('data', (c: Buffer) => (out += String(c)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  // A test that fails must not leave a bot running (generous: a loaded machine starts a bot slowly).
  const killer = setTimeout(() => child.kill('SIGKILL'), 600_000);
  void exited.then(() => clearTimeout(killer));
  const logs = () =>
    out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  /** The first log line matching `pred`, once it was written (the test's own timeout bounds the wait). */
  const logLine = async (pred: (l: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> => {
    for (let gone = false; ;) {
      const found = logs().find(pred);
      if (found) return found;
      if (gone) throw new Error(`the bot exited without that log line:\n${out}`);
      // pino writes to stderr, other output to stdout: wake on either, or on exit.
      const more = new Promise((r) => (child.stdout.once('data', r), child.stderr.once('data', r)));
      gone = await Promise.race([more.then(() => false), exited.then(() => true)]);
    }
  };
  return { child, exited, output: () => out, logs, logLine };
}

/** Dispatch `/arena <sub>` and wait for its answer (a reply callback, or the edit of a deferred one). */
async function ask(emu: DiscordEmulator, sub: string, opts: Record<string, string | number> = {}): Promise<Dispatched> {
  const options = Object.entries(opts).map(([name, value]) => ({
    name,
    type: typeof value === 'number' ? 4 : 3,
    value,
  }));
  const d = emu.dispatchSlash(alice, 'arena', sub, options);
  await emu.waitFor(
    (r) =>
      r.path.includes(d.token) &&
      (r.method === 'PATCH' || (r.path.endsWith('/callback') && (r.body as { type: number }).type === 4)),
    60_000,
  );
  return d;
}

describe('discord: SIGTERM with the platform gone', () => {
  const ids = { applicationId: '340000000000000001', guildId: '340000000000000002', channelId: '340000000000000003' };
  const emus: DiscordEmulator[] = [];
  after(async () => {
    for (const e of emus) await e.close();
  });

  test('exits 0 within the drain time; a restart resumes the match with nothing acknowledged lost', async () => {
    const emu = await new DiscordEmulator(ids).start();
    emus.push(emu);
    const bot = startBot(emu);
    await emu.whenIdentified();
    await ask(emu, 'new', { task: 'market_round', seed: 11, round_seconds: 600 });
    await ask(emu, 'join');
    await ask(emu, 'start');
    await ask(emu, 'pitch', { text: 'We need reliable GPU capacity for our training run this week.' });
    await ask(emu, 'message', { text: 'anyone selling blocks?' });

    // The platform goes away, then a command arrives that can no longer be answered, then SIGTERM.
    await emu.close();
    bot.child.kill('SIGTERM');
    const { code } = await bot.exited;
    assert.equal(code, 0, bot.output().slice(-2000));
    const stopped = assertBoundedStop(bot.logs(), {
      begin: 'discord: stopping',
      end: 'discord: drained, closing the store',
      drainSeconds: DRAIN_SECONDS,
    });
    if (process.env.DUMP_STOP) console.log('discord stop:', JSON.stringify(stopped));
    assert.ok(!bot.output().includes(TOKEN));

    // Everything acknowledged is in the log.
    const store = await openStore({ sqlitePath: db });
    const [rec] = await store.listUnfinished();
    assert.ok(rec, 'the match is still unfinished');
    const events = await store.load(rec.id);
    const m = replay(events)!;
    await store.close();
    assert.equal(m.phase, 'running');
    assert.equal(m.state!.pitches.length, 1, 'the acknowledged pitch is kept');
    assert.ok(
      m.state!.messages.some((x) => x.text === 'anyone selling blocks?'),
      'the acknowledged message is kept',
    );

    // A new process on the same database, against a new emulator with the same guild and channel.
    const emu2 = await new DiscordEmulator(ids).start();
    emus.push(emu2);
    const bot2 = startBot(emu2);
    await emu2.whenIdentified();
    const d = await ask(emu2, 'status');
    const answer = emu2
      .forInteraction(d)
      .map((r) => JSON.stringify(r.body))
      .join('\n');
    assert.match(answer, /round 1\/5/i);
    assert.match(answer, /We need reliable GPU capacity/);
    const restored = await bot2.logLine((l) => l.msg === 'round host restored matches');
    assert.equal(restored.count, 1, 'the match was restored');

    // A second signal during the stop exits at once (or the stop was already over: 0).
    bot2.child.kill('SIGTERM');
    await bot2.logLine((l) => l.msg === 'discord: stopping');
    bot2.child.kill('SIGTERM');
    const second = await bot2.exited;
    assert.ok(
      second.code === 0 || second.code === 143,
      `exit ${String(second.code)} ${String(second.signal)}: ${bot2.output().slice(-3000)}`,
    );
  });
});
