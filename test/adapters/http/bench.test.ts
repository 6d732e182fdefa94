/** The server bench's plumbing (not its speed): rows add up, quantiles are order statistics, sessions are cleaned up. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { benchHttp, benchInProcess, quantile } from '../../../src/adapters/http/bench.js';
import { startServer, type Harness } from './harness.js';

let h: Harness;
before(async () => {
  h = await startServer();
});
after(async () => {
  await h.close();
});

describe('bench:server', () => {
  test('quantile is the nearest-rank order statistic', () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    assert.equal(quantile(xs, 0.5), 50);
    assert.equal(quantile(xs, 0.99), 99);
    assert.equal(quantile([7], 0.99), 7);
    assert.equal(quantile([], 0.5), 0);
  });

  test('HTTP and in-process rows count whole episodes of the same task; sessions are deleted afterwards', async () => {
    const opts = { task: 'single_trade' as const, policy: 'random_validish' as const, seconds: 0.2, warmupSeconds: 0 };
    let cpu = 0;
    const http = await benchHttp(h.url, 3, opts, () => (cpu += 5));
    assert.equal(http.mode, 'http');
    assert.equal(http.sessions, 3);
    assert.ok(http.episodes >= 3, 'every worker finishes at least one episode');
    assert.ok(http.steps >= http.episodes && http.steps <= http.episodes * 3, 'single_trade: at most 3 steps an episode');
    assert.ok(http.p99Ms >= http.p50Ms && http.p50Ms > 0);
    assert.equal(h.store.size, 0);
    assert.equal(http.cpuMsPerStep, 5 / http.steps, "the server's CPU over the timed steps, per step");
    assert.equal((await benchHttp(h.url, 1, opts)).cpuMsPerStep, null, 'unknown without a CPU reader');
    const local = benchInProcess(opts);
    assert.ok(local.steps >= local.episodes && local.steps <= local.episodes * 3);
    assert.ok(local.p99Ms >= local.p50Ms);
    assert.ok(local.cpuMsPerStep !== null && local.cpuMsPerStep >= 0);
  });
});
