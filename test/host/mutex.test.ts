import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FakeClock, sleep } from '../../src/host/index.js';
import { KeyedMutex } from '../../src/match/mutex.js';
import { KeyedTimers } from '../../src/match/timers.js';

describe('round host building blocks', () => {
  test('KeyedMutex: one key runs in call order, one at a time; keys run in parallel; idle keys are dropped', async () => {
    const mutex = new KeyedMutex();
    const clock = new FakeClock();
    const log: string[] = [];
    const inside: Record<string, number> = {};
    const task = (key: string, n: number, ms: number) =>
      mutex.run(key, async () => {
        inside[key] = (inside[key] ?? 0) + 1;
        assert.equal(inside[key], 1, 'one task of a key at a time');
        log.push(`${key}+${n}`);
        await sleep(clock, ms);
        log.push(`${key}-${n}`);
        inside[key]--;
        return n;
      });
    const all = Promise.all([task('a', 1, 30), task('a', 2, 10), task('b', 1, 5), task('a', 3, 0)]);
    await clock.advance(100);
    assert.deepEqual(await all, [1, 2, 1, 3]);
    const a = log.filter((x) => x.startsWith('a'));
    assert.deepEqual(a, ['a+1', 'a-1', 'a+2', 'a-2', 'a+3', 'a-3'], 'serial, in call order');
    assert.ok(log.indexOf('b+1') < log.indexOf('a-1'), 'b ran while a was busy');
    await assert.rejects(
      mutex.run('a', async () => Promise.reject(new Error('boom'))),
      /boom/,
    );
    assert.equal(await mutex.run('a', async () => 'after'), 'after', 'a failure does not block the key');
    assert.equal(mutex.busyKeys, 0);
  });

  test('KeyedTimers + FakeClock: fire in due order, re-arm replaces, same due time and tag is a no-op', async () => {
    const clock = new FakeClock(0);
    const timers = new KeyedTimers(clock);
    const fired: string[] = [];
    timers.arm('x', 50, () => fired.push('x@50'), 'r0');
    timers.arm('y', 20, () => fired.push('y@20'));
    timers.arm('x', 50, () => fired.push('x-dup'), 'r0');
    timers.arm('z', 50, () => fired.push('z@50 r0'), 'r0');
    timers.arm('z', 50, () => fired.push('z@50 r1'), 'r1');
    timers.arm('w', 10, () => fired.push('w'));
    timers.clear('w');
    await clock.advance(49);
    assert.deepEqual(fired, ['y@20']);
    await clock.advance(1);
    assert.deepEqual(fired, ['y@20', 'x@50', 'z@50 r1']);
    assert.equal(clock.pending, 0);
    assert.equal(timers.dueAt('x'), null);
  });
});
