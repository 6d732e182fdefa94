/**
 * Haggling within a round: a person sells a block for credits and haggles with an LLM seat inside one round, in the real
 * console with the real openai client against the local emulator. The stand-in model (test/emulators/haggler.ts)
 * reads the real seat prompt; the LLM seat gets an extra turn when the offer arrives, so its counter (with its
 * reason) and then its acceptance come before anyone types `done`.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startOpenAiEmulator, type OpenAiEmulator } from '../../emulators/openai.js';
import { hagglerResponder } from '../../emulators/haggler.js';
import { spawnScript, tempDir } from './spawn.js';

describe('haggling with an LLM seat in the console', () => {
  let emu: OpenAiEmulator;
  before(async () => {
    emu = await startOpenAiEmulator({ responder: hagglerResponder });
  });
  after(() => emu.close());

  test(
    'offer with ask, the model counters with a reason, a counter back, the model accepts: all in round 1',
    { timeout: 120_000 },
    async () => {
      const db = join(tempDir(), 'arena.db');
      const p = spawnScript(
        'src/cli/main.ts',
        ['--db', db, '--task', 'market_round', '--seed', '4', '--round-seconds', '0', '--seat', 'lab_1=llm:haggler'],
        {
          ARENA_LLM_BASE_URL: emu.baseURL,
          OPENAI_API_KEY: 'sk-test',
        },
      );
      await p.waitFor(/Lab B \(🤖 LLM: haggler\) took no action/, 60_000);
      const budget = Number(/Budget (\d+\.\d\d) credits/.exec(p.out())![1]);
      p.send('offer to:lab_1 give:b_0_2 ask:110 msg:"8 reliable GPU-hours. 110 credits."');
      await p.waitFor(/countered o_1 from Lab A with o_2: /, 60_000);
      const counter = /with o_2: (\d+\.\d\d) credits for b_0_2 \(8 GPU-h @0\.95\) — “([^”]+)”/.exec(p.out());
      assert.ok(counter, `the counter names its price and carries a reason:\n${p.out().slice(-1500)}`);
      const price = Number(counter[1]);
      assert.ok(price > 0 && price < 110, `a lower price than asked (${price})`);
      assert.match(counter[2]!, /more than it earns me/, 'the reason is in words');
      // Meet in the middle: within the model's 25 % margin, so it accepts.
      const mid = Math.round(price * 1.15);
      p.send(`counter offer:o_2 give:b_0_2 ask:${mid} msg:"Meet me at ${mid}."`);
      await p.waitFor(/accepted o_3 from Lab A/, 60_000);
      assert.doesNotMatch(p.out(), /Round 1\/5 closed/, 'the whole haggle happened inside round 1');
      p.send('me');
      await p.waitFor(/Your reward ledger/, 30_000);
      const me = p.out().slice(p.out().lastIndexOf('only you see this'));
      assert.match(
        me,
        new RegExp(`Budget ${(budget + mid).toFixed(2)} credits`),
        'the asked credits were paid to the seller',
      );
      assert.match(
        me,
        new RegExp(`offer o_3 with Lab B: you gave b_0_2 \\(8 GPU-h @0\\.95\\) for ${mid.toFixed(2)} credits`),
        'the ledger names the price',
      );
      p.send('quit');
      p.child.stdin.end();
      assert.equal((await p.exited).code, 0, p.err());
      const seatCalls = emu.chatRequests().filter((r) => r.body?.model === 'haggler').length;
      assert.ok(
        seatCalls >= 3,
        `the model was asked at the round open and on each offer addressed to it (${seatCalls})`,
      );
    },
  );
});
