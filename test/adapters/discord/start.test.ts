/**
 * `npm start -- --platform discord` as a process: a missing DISCORD_TOKEN is named (exit 2); with a token
 * and DISCORD_API_URL pointing at the emulator the bot logs in, answers `/arena help`, and stops on
 * SIGTERM (exit 0) without printing the token, nor the key in its LLM endpoint's URL.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { DiscordEmulator } from '../../emulators/discord.js';

const TOKEN = 'MTIz.start-test-token.SECRET';
const LLM_KEY = 'sk-llm-key-IN-URL-SECRET';

function startMain(env: NodeJS.ProcessEnv) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', '--platform', 'discord', '--db', ':memory:'],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += String(c)));
  child.stderr.on('data', (c: Buffer) => (out += String(c)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
}

const baseEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info' };
  for (const k of Object.keys(env))
    if (k.startsWith('DISCORD_') || k.startsWith('ARENA_LLM') || k.startsWith('OPENAI')) delete env[k];
  return env;
};

describe('npm start -- --platform discord', () => {
  const emu = new DiscordEmulator();
  before(() => emu.start());
  after(() => emu.close());

  test('names the missing DISCORD_TOKEN and exits 2', async () => {
    const p = startMain(baseEnv());
    assert.equal(await p.exited, 2);
    assert.match(p.output(), /DISCORD_TOKEN is not set/);
  });

  test('logs in to the emulator, answers a command, stops on SIGTERM', async () => {
    // An LLM endpoint whose URL carries a key: logged without it.
    const llm = { ARENA_LLM_BASE_URL: `http://arena:${LLM_KEY}@127.0.0.1:9/v1`, ARENA_AGENT_MODEL: 'small-local' };
    const p = startMain({ ...baseEnv(), DISCORD_TOKEN: TOKEN, DISCORD_API_URL: emu.restApi, ...llm });
    try {
      await emu.whenIdentified();
      assert.equal(emu.identifies[0]!.token, TOKEN);
      assert.equal(emu.identifies[0]!.intents, 1, 'Guilds intent only');
      const d = emu.dispatchSlash({ id: '320000000000000001', username: 'carol' }, 'arena', 'help');
      const cb = await emu.waitFor((r) => r.path === `/api/v10/interactions/${d.id}/${d.token}/callback`);
      assert.equal((cb.body as { type: number }).type, 4);
    } finally {
      p.child.kill('SIGTERM');
    }
    assert.equal(await p.exited, 0);
    assert.ok(!p.output().includes(TOKEN), 'the token is never printed');
    assert.ok(!p.output().includes(LLM_KEY), "the LLM URL's key is never printed");
    assert.match(
      p.output(),
      /LLM endpoint http:\/\/arena:\*\*\*@127\.0\.0\.1:9\/v1/,
      'the endpoint is logged with its key masked',
    );
    assert.match(p.output(), /discord: ready/);
  });
});
