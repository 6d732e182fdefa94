/**
 * The guard does not stop an honest seat from trading: the haggler stand-in over seeds 1–20 of the fixed
 * haggling scenario (haggler-trades.ts), through the real host with the guard and the redaction on. None of
 * its actions is refused by the guard, so its trades are the ones it made before the guard existed (the
 * guard only ever removes actions; redaction changes only text, which no decision here reads). The count is
 * reported; docs/LLM.md quotes it beside the count measured on the code before the guard.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GUARD_CODE } from '../../src/agents/guard.js';
import { hagglerTrades } from './haggler-trades.js';

describe('the guard and an honest LLM seat', () => {
  test(
    'the haggler over seeds 1–20: trades made, none of its actions refused by the guard',
    { timeout: 300_000 },
    async () => {
      const rows = await hagglerTrades(Array.from({ length: 20 }, (_, i) => i + 1));
      const trades = rows.reduce((a, r) => a + r.trades, 0);
      const refused = rows.flatMap((r) => r.rejected.filter((c) => c === GUARD_CODE).map(() => r.seed));
      console.log(
        `haggler, seeds 1–20: ${trades} trades; ${refused.length} actions refused by the guard; engine rejections: ${rows.flatMap((r) => r.rejected.filter((c) => c !== GUARD_CODE)).length}`,
      );
      assert.deepEqual(refused, [], 'seeds where the guard refused an action of the haggler');
      assert.ok(
        rows.every((r) => r.trades > 0),
        'it trades in every world',
      );
    },
  );
});
