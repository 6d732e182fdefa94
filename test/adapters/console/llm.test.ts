/**
 * `npm start` with an LLM endpoint configured (the local OpenAI-compatible emulator): `--seat lab_2=llm:<m>`
 * seats an LLM agent, ARENA_JUDGE_MODEL makes the LLM judge score pitches, and the banner says so. Without
 * an endpoint the banner says the rule judge and scripted seats are used, and `--seat …=llm` is refused; so it
 * is, before any call, when the day's token budget is already spent.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startOpenAiEmulator, type OpenAiEmulator } from '../../emulators/openai.js';
import { contestedSeed, honest, market, verdictFor, v } from '../../agents/helpers.js';
import { openStore } from '../../../src/store/index.js';
import { CONSOLE_CHANNEL } from '../../../src/adapters/console/session.js';
import { spawnScript, tempDir } from './spawn.js';

const WAIT_REPLY = JSON.stringify({ plan: null, actions: [{ action_type: 'wait' }], pitch: null });
/** A seed where the person's (lab_0) and the LLM seat's (lab_2) truthful pitches are contenders, so the LLM judge asks its model. */
const SEED = contestedSeed(0, ['lab_0', 'lab_2']);
const seatPitch = honest(market(SEED), 'lab_2');
/** The LLM seat waits and pitches the truth (as of round 1). */
const SEAT_REPLY = JSON.stringify({
  plan: null,
  actions: [{ action_type: 'wait' }],
  pitch: { message: seatPitch.text, job_ids: seatPitch.jobs },
});

describe('console with an LLM endpoint', () => {
  let emu: OpenAiEmulator;
  before(async () => {
    emu = await startOpenAiEmulator();
    emu.setResponder((req) =>
      req.body?.model === 'judge-m'
        ? { content: verdictFor(req, () => v(0.6)) }
        : { content: req.body?.model === 'agent-m' ? SEAT_REPLY : WAIT_REPLY },
    );
  });
  after(() => emu.close());

  test('seats an LLM agent and uses the LLM judge', { timeout: 120_000 }, async () => {
    process.env.ARENA_LLM_BASE_URL = emu.baseURL;
    process.env.ARENA_JUDGE_MODEL = 'judge-m';
    process.env.OPENAI_API_KEY = 'sk-test';
    const db = join(tempDir(), 'arena.db');
    const p = spawnScript('src/cli/main.ts', [
      '--db',
      db,
      '--task',
      'market_round',
      '--seed',
      String(SEED),
      '--round-seconds',
      '0',
      '--seat',
      'lab_2=llm:agent-m',
    ]);
    delete process.env.ARENA_LLM_BASE_URL;
    delete process.env.ARENA_JUDGE_MODEL;
    delete process.env.OPENAI_API_KEY;
    const mine = honest(market(SEED), 'lab_0');
    p.send(`pitch text:"${mine.text}" job:${mine.jobs.join(',')}`);
    // The LLM seat acts asynchronously at each round open, and a judged close posts its results after the
    // judge's answer: say `done` once per round, then wait for the next round (or the end).
    for (let r = 1; r <= 5; r++) {
      p.send('done');
      await p.waitFor(r < 5 ? new RegExp(`Round ${r + 1}/5 is open`) : /Match over/, 60_000);
    }
    p.child.stdin.end();
    const { code } = await p.exited;
    const out = p.out();
    assert.equal(code, 0, `exit code; stderr:\n${p.err()}`);
    assert.match(out, /LLM seats: lab_2 \(agent-m\)/);
    assert.match(out, /Judge: the LLM judge/);
    assert.match(out, /Match over: final leaderboard/);
    const models = emu.chatRequests().map((r) => r.body?.model);
    assert.ok(
      models.filter((m) => m === 'agent-m').length >= 5,
      `the LLM seat was asked every round (${models.join(',')})`,
    );
    assert.ok(models.includes('judge-m'), 'the LLM judge was asked about the two truthful pitches');
  });

  test(
    'refuses an LLM seat up front when the daily token budget is spent, before any call',
    { timeout: 60_000 },
    async () => {
      const db = join(tempDir(), 'arena.db');
      const store = await openStore({ sqlitePath: db });
      const day = new Date().toISOString().slice(0, 10);
      await store.addLlmUsage({
        day,
        channelId: CONSOLE_CHANNEL,
        matchId: 'm_earlier',
        model: 'agent-m',
        calls: 3,
        promptTokens: 900,
        completionTokens: 200,
      });
      await store.close();
      const calls = emu.chatRequests().length;
      const env = { ARENA_LLM_BASE_URL: emu.baseURL, OPENAI_API_KEY: 'sk-test', ARENA_LLM_DAILY_TOKENS: '1000' };
      const refused = spawnScript(
        'src/cli/main.ts',
        ['--db', db, '--task', 'market_round', '--seed', '3', '--seat', 'lab_2=llm:agent-m'],
        env,
      );
      refused.child.stdin.end();
      assert.equal((await refused.exited).code, 2, `stdout:\n${refused.out()}`);
      assert.match(
        refused.err(),
        /^--seat …=llm: No LLM seat now: the bot's LLM tokens for today \(UTC \d{4}-\d\d-\d\d\) are spent; LLM calls resume at 00:00 UTC\. Seat a scripted policy instead \(--seat lab_N=scripted:<policy>\)\.$/m,
      );
      assert.doesNotMatch(refused.out(), /Match started/);
      assert.equal(emu.chatRequests().length, calls, 'no model was called');
      // Under the budget the same seat plays.
      const ok = spawnScript(
        'src/cli/main.ts',
        ['--db', db, '--task', 'single_trade', '--seed', '1', '--round-seconds', '0', '--seat', 'lab_1=llm:agent-m'],
        { ...env, ARENA_LLM_DAILY_TOKENS: '100000' },
      );
      await ok.waitFor(/LLM seats: lab_1 \(agent-m\)/, 60_000);
      ok.send('end');
      ok.child.stdin.end();
      assert.equal((await ok.exited).code, 0, `stderr:\n${ok.err()}`);
    },
  );

  test('without an endpoint it says the rule judge decides and refuses LLM seats', { timeout: 60_000 }, async () => {
    const db = join(tempDir(), 'arena.db');
    const plain = spawnScript('src/cli/main.ts', [
      '--db',
      db,
      '--task',
      'single_trade',
      '--seed',
      '1',
      '--round-seconds',
      '0',
    ]);
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
