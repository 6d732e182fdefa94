/**
 * Matches recorded under older engine rules (docs/RULES.md §0, RULES_VERSION): their logs are refused for
 * replay with a clear message, and a host retires such a match instead of resuming it, so its channel is
 * free for a new one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RULES_VERSION } from '../../src/engine/index.js';
import { ReplayError, replay } from '../../src/host/index.js';
import { openStore } from '../../src/store/index.js';
import { harness, person, unwrap } from './helpers.js';

const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
const settings = { task: 'single_trade' as const, seed: 3, roundSeconds: 0, holdout: false };

/** A match log as rules v1 wrote it: match_started without rulesVersion. */
async function v1Match(store: Awaited<ReturnType<typeof openStore>>, id: string, channelId: string) {
  assert.ok((await store.createMatch({ id, channelId, platform: 'console', createdAt: at(0) })).ok);
  await store.append(
    id,
    0,
    { type: 'match_created', channelId, platform: 'console', hostUserId: 'test:ann', settings },
    at(1),
  );
  await store.append(id, 1, { type: 'seat_claimed', lab: 'lab_0', userId: 'test:ann', displayName: 'ann' }, at(2));
  await store.append(
    id,
    2,
    {
      type: 'match_started',
      drivers: {
        lab_0: { kind: 'human', userId: 'test:ann', displayName: 'ann' },
        lab_1: { kind: 'scripted', policy: 'cooperative' },
      },
    },
    at(3),
  );
  await store.setMatchStatus(id, 'running');
}

test('replay refuses a log from rules v1 with a clear, coded message', async () => {
  assert.equal(RULES_VERSION, 4);
  const store = await openStore({ sqlitePath: ':memory:' });
  try {
    await v1Match(store, 'm_old', 'c1');
    const events = await store.load('m_old');
    assert.throws(
      () => replay(events),
      (err: unknown) =>
        err instanceof ReplayError &&
        err.code === 'old_rules' &&
        /engine rules v1; this engine plays v3 and v4/.test(err.message),
    );
  } finally {
    await store.close();
  }
});

test('a host retires a v1 match on restore and on `new` in its channel; new matches record the rules version', async () => {
  const store = await openStore({ sqlitePath: ':memory:' });
  try {
    await v1Match(store, 'm_old', 'c1');
    const h = await harness({ store });
    assert.equal(await h.host.restore(), 0, 'nothing resumed');
    assert.equal((await store.getMatch('m_old'))?.status, 'over', 'the old match is retired');
    const ann = person('ann');
    const m = unwrap(await h.host.create('c1', 'console', ann, { task: 'single_trade', seed: 4, roundSeconds: 0 }));
    unwrap(await h.host.join('c1', ann));
    unwrap(await h.host.start('c1', ann));
    const started = (await store.load(m.id)).find((e) => e.body.type === 'match_started');
    assert.equal(started?.body.type === 'match_started' ? started.body.rulesVersion : null, RULES_VERSION);
    await h.host.stop();
  } finally {
    await store.close();
  }
});
