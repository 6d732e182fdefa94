/**
 * Request claims through the event store (dedupe.ts storeClaims): the claim result passes through, the
 * `slack:` claims older than the retention are pruned at most once per interval, a failed prune only
 * logs, and against a real SQLite store a pruned request key is claimable again while the host's
 * `round_close:` claims stay.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../../src/store/sqlite.js';
import { REQUEST_CLAIM_PREFIX, requestKey, storeClaims, type ClaimStore } from '../../../src/adapters/slack/dedupe.js';
import { captureLogger } from './helpers.js';

const HOUR = 3_600_000;

/** A ClaimStore in memory that records the prunes it is asked for. */
function fakeStore(failPrune = false): ClaimStore & { prunes: { prefix: string; before: number }[] } {
  const claimed = new Set<string>();
  const prunes: { prefix: string; before: number }[] = [];
  return {
    prunes,
    async tryClaim(key) {
      if (claimed.has(key)) return false;
      claimed.add(key);
      return true;
    },
    async pruneClaims(prefix, before) {
      prunes.push({ prefix, before: before.getTime() });
      if (failPrune) throw new Error('database is locked');
      return 3;
    },
  };
}

describe('slack request claims in the store', () => {
  test('request keys are in the pruned namespace', () => {
    for (const body of [{ trigger_id: 't1' }, { event_id: 'Ev1' }, { type: 'x' }])
      assert.ok(requestKey(body).startsWith(REQUEST_CLAIM_PREFIX));
  });

  test('claims pass through; old claims are pruned on the first claim and then at most once per interval', async () => {
    const store = fakeStore();
    let t = 10 * 24 * HOUR;
    const { logger, lines } = captureLogger();
    const claim = storeClaims(store, { logger, retentionMs: 24 * HOUR, pruneEveryMs: HOUR, now: () => t });
    assert.equal(await claim('slack:trigger:a'), true);
    assert.equal(await claim('slack:trigger:a'), false, 'a retry is refused');
    assert.deepEqual(store.prunes, [{ prefix: 'slack:', before: t - 24 * HOUR }], 'pruned once, on the first claim');
    t += HOUR - 1;
    assert.equal(await claim('slack:trigger:b'), true);
    assert.equal(store.prunes.length, 1, 'not again within the interval');
    t += 1;
    await claim('slack:trigger:c');
    assert.equal(store.prunes.length, 2);
    assert.equal(store.prunes[1]!.before, t - 24 * HOUR);
    assert.ok(lines.some((l) => l.includes('old request claims pruned') && l.includes('"removed":3')));
  });

  test('a failed prune is logged and the claim still counts', async () => {
    const store = fakeStore(true);
    const { logger, lines } = captureLogger();
    const claim = storeClaims(store, { logger, now: () => 0 });
    assert.equal(await claim('slack:event:1'), true);
    assert.equal(await claim('slack:event:1'), false);
    assert.ok(lines.some((l) => l.includes('pruning request claims failed') && l.includes('database is locked')));
  });

  test('against SQLite: a day-old request claim is forgotten, round-close claims stay', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-claims-'));
    const store = await openSqliteStore(join(dir, 'arena.db'));
    try {
      const { logger } = captureLogger();
      assert.equal(await store.tryClaim('slack:trigger:old'), true);
      assert.equal(await store.tryClaim('round_close:m:0'), true);
      // Both claims made two days ago (the store stamps claims with its own clock).
      const twoDaysAgo = new Date(Date.now() - 48 * HOUR).toISOString();
      await store.db.updateTable('claims').set({ claimed_at: twoDaysAgo }).execute();
      // The bot's first claim prunes the old request key.
      const claim = storeClaims(store, { logger });
      assert.equal(await claim('slack:trigger:new'), true);
      assert.equal(await store.tryClaim('slack:trigger:old'), true, 'pruned, so claimable again');
      assert.equal(await store.tryClaim('slack:trigger:new'), false, 'the new claim is kept');
      assert.equal(await store.tryClaim('round_close:m:0'), false, 'not in the slack: namespace');
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
