/**
 * `npm start` with an LLM endpoint configured (the local OpenAI-compatible emulator): `--seat lab_2=llm:<m>`
 * seats an LLM agent, ARENA_JUDGE_MODEL makes the LLM judge score pitches, and the banner says so. Without
 * an endpoint the banner says the rule judge and scripted seats are used, and `--seat …=llm` is refused.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startOpenAiEmulator, type OpenAiEmulator } from '../../emulators/openai.js';
import { verdictFor, v } from '../../agents/helpers.js';
import { spawnScript, tempDir } from './spawn.js';

const WAIT_REPLY = JSON.stringify({ plan: null, actions: [{ action_type: 'wait' }], pitch: null });

describe('console with an LLM endpoint', () => {
  let emu: OpenAiEmulator;
  before(async () => {
    emu = await startOpenAiEmulator();
    emu.setResponder((req) => (req.body?.model === 'judge-m' ? { content: verdictFor(req, () => v(0.6)) } : { content: WAIT_REPLY }));
  });
  after(() => emu.close());

  test('seats an LLM agent and uses the LLM judge', { timeout: 120_000 }, async () => {
    process.env.ARENA_LLM_BASE_URL = emu.baseURL;
    process.env.ARENA_JUDGE_MODEL = 'judge-m';
    process.env.OPENAI_API_KEY = 'sk-test';
    const db = join(tempDir(), 'arena.db');
    const p = spawnScript('src/cli/main.ts', ['--db', db, '--task', 'market_round', '--seed', '3', '--round-seconds', '0', '--seat', 'lab_2=llm:agent-m']);
    delete process.env.ARENA_LLM_BASE_URL;
    delete process.env.ARENA_JUDGE_MODEL;
    delete process.env.OPENAI_API_KEY;
    p.send('pitch text:"we need our GPU-hours before the deadline, please"');
    // The LLM seat acts asynchronously at each round open: say `done` once per round, after the close.
    for (let r = 1; r <= 5; r++) {
      p.send('done');
      await p.waitFor(new RegExp(`Round ${r}/5 closed`), 60_000);
    }
    p.child.stdin.end();
    const { code } = await p.exited;
    const out = p.out();
    assert.equal(code, 0, `exit code; stderr:\n${p.err()}`);
    assert.match(out, /LLM seats: lab_2 \(agent-m\)/);
    assert.match(out, /Judge: the LLM judge/);
    assert.match(out, /Match over: final leaderboard/);
    const models = emu.chatRequests().map((r) => r.body?.model);
    assert.ok(models.filter((m) => m === 'agent-m').length >= 5, `the LLM seat was asked every round (${models.join(',')})`);
    assert.ok(models.includes('judge-m'), 'the LLM judge was asked about the pitch');
  });

  test('without an endpoint it says the rule judge decides and refuses LLM seats', { timeout: 60_000 }, async () => {
    const db = join(tempDir(), 'arena.db');
    const plain = spawnScript('src/cli/main.ts', ['--db', db, '--task', 'single_trade', '--seed', '1', '--round-seconds', '0']);
    plain.send('end');
    plain.child.stdin.end();
    assert.equal((await plain.exited).code, 0);
    assert.match(plain.out(), /No LLM endpoint configured: the rule judge decides/);
    assert.match(plain.out(), /Judge: the grounded rule judge/);
    const refused = spawnScript('src/cli/main.ts', ['--db', db, '--seat', 'lab_1=llm:m']);
    refused.child.stdin.end();
    assert.equal((await refused.exited).code, 2);
    assert.match(refused.err(), /needs an LLM endpoint/);
  });
});
