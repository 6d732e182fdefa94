/**
 * drainWithin (src/app/shutdown.ts) on a fake clock: a stop waits for in-flight work at most `drainSeconds`,
 * exactly — not a millisecond less, and not on until the work ends — and says when it gave up. The chat
 * entry points' stops (test/adapters/{discord,slack}/shutdown.test.ts) check the order of their log lines;
 * the bound itself is proven here, without the wall clock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drainWithin, type DrainOutcome } from '../../src/app/shutdown.js';

/** A logger that keeps what it was told. */
function recorder() {
  const lines: { level: 'warn' | 'error'; msg: string; obj: object }[] = [];
  return {
    lines,
    logger: {
      warn: (obj: object, msg: string) => void lines.push({ level: 'warn', msg, obj }),
      error: (obj: object, msg: string) => void lines.push({ level: 'error', msg, obj }),
    },
  };
}
/** Let promise callbacks run (setImmediate is not faked). */
const flush = () => new Promise<void>((r) => setImmediate(r));

test('work that never ends is abandoned at drainSeconds exactly, with a warning', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { lines, logger } = recorder();
  let outcome: DrainOutcome | null = null;
  void drainWithin(() => new Promise<void>(() => {}), 2, logger).then((o) => (outcome = o));
  t.mock.timers.tick(1999);
  await flush();
  assert.equal(outcome, null, 'still waiting 1 ms before the bound');
  assert.equal(lines.length, 0);
  t.mock.timers.tick(1);
  await flush();
  assert.equal(outcome!.drained, false, 'given up at the bound');
  assert.deepEqual(
    lines.map((l) => [l.level, l.msg]),
    [['warn', 'stop: drain time is up; in-flight work and queued posts are abandoned']],
  );
  assert.equal((lines[0]!.obj as { drainSeconds: number }).drainSeconds, 2);
});

test('work that ends before the bound: drained, no warning, and the timer is gone', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { lines, logger } = recorder();
  let finish: () => void = () => {};
  let outcome: DrainOutcome | null = null;
  void drainWithin(() => new Promise<void>((r) => (finish = r)), 2, logger).then((o) => (outcome = o));
  t.mock.timers.tick(1500);
  finish();
  await flush();
  assert.equal(outcome!.drained, true);
  t.mock.timers.tick(5000);
  await flush();
  assert.deepEqual(lines, [], 'no late warning after the work drained');
});

test('work that fails is logged, never thrown: the stop goes on', async () => {
  const { lines, logger } = recorder();
  const outcome = await drainWithin(() => Promise.reject(new Error('queue closed')), 2, logger);
  assert.equal(outcome.drained, true);
  assert.deepEqual(
    lines.map((l) => [l.level, l.msg, (l.obj as { err: string }).err]),
    [['error', 'stop: draining failed', 'queue closed']],
  );
});
