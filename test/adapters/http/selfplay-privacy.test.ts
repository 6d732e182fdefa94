/**
 * Self-play keeps secrets. Everything one seat receives before the match is over — its reset
 * observation, step answers, `/state` with its token, and its errors, in both formats, on a server
 * with debug state ON — is searched for anything that lets it compute another seat's private values:
 * the seed (and every number it was told, tried as a seed to rebuild the world), the session id, the
 * other seat's jobs and exact budget. Its token reads only its own view; only the creator's admin
 * token reads the public view or deletes the session. The seed is revealed once the match is over.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createMatch, observe, rng } from '../../../src/engine/index.js';
import { getPolicy } from '../../../src/engine/policies/index.js';
import type { Observation } from '../../../src/engine/views.js';
import { ok, refused, startServer, type Harness } from './harness.js';

let h: Harness;
before(async () => {
  h = await startServer({ debugState: true });
});
after(async () => {
  await h.close();
});

const expert = getPolicy('rule_based_expert');
const TASK = 'market_round';
const SEED = 987_654_321;

/** lab_1's private values in the world of `seed` (null when the seed gives no such seat). */
function privateOf(seed: number): string | null {
  try {
    const o = observe(createMatch({ task: TASK, seed }), 'lab_1');
    return JSON.stringify({
      budget: o.self.budget,
      jobs: o.self.jobs.map((j) => [j.id, j.gpuHoursRequired, j.deadlineRound, j.baseValue, j.minReliability]),
    });
  } catch {
    return null;
  }
}

/** Every object in a JSON value. */
function* objects(v: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(v)) for (const x of v) yield* objects(x);
  else if (v && typeof v === 'object') {
    yield v as Record<string, unknown>;
    for (const x of Object.values(v)) yield* objects(x);
  }
}

describe('self-play privacy', () => {
  for (const format of ['native', 'original'] as const) {
    test(`${format}: nothing a seat receives before the end lets it compute another seat's private values`, async () => {
      const r = ok(
        await h.client.resetSelfPlay({
          task: TASK,
          seed: SEED,
          seats: ['lab_0', 'lab_1'],
          actions_per_round: 2,
          observation_format: format,
        }),
      );
      assert.equal(r.info.seed, SEED, 'the creator is told the seed');
      const [a, b] = [r.seats.lab_0!.token, r.seats.lab_1!.token];
      const seen: unknown[] = [r.seats.lab_0!.observation];
      const truth = privateOf(SEED)!;
      const secretJobs = JSON.parse(truth) as { budget: number; jobs: [string, number, number, number, number][] };
      // Native views drive both seats' policy (the same engine policy the scripted seats use).
      const view = async (token: string): Promise<Observation> => {
        const v = ok(await h.client.request<{ state: Observation }>('GET', `/state?token=${token}`));
        seen.push(token === a ? v : null);
        return v.state;
      };
      const nativeView = async (token: string, seat: string): Promise<Observation> => {
        if (format === 'native') return view(token);
        await view(token);
        const s = ok(await h.client.state({ admin_token: r.admin_token }, true));
        return observe(s.state as never, seat);
      };
      let over = false;
      for (let round = 0; !over && round < 20; round++) {
        for (const [token, seat] of [
          [a, 'lab_0'],
          [b, 'lab_1'],
        ] as const) {
          const obs = await nativeView(token, seat);
          const act = expert(obs, { rng: rng(SEED, obs.round, `policy:${seat}`), holdout: false })[0] ?? {
            action_type: 'wait',
          };
          const res = await h.client.stepSeat(token, act as Record<string, unknown>);
          if (token === a) seen.push(res.ok ? res.body : res.error);
          if (res.ok && res.body.done && token === a) over = true;
          if (token === a) {
            // Probing: another seat's job, the full state, the public view, deleting the session.
            const foreign = await h.client.stepSeat(a, {
              action_type: 'allocate_to_job',
              job_id: 'j_1_0',
              block_ids: ['b_1_0'],
            });
            seen.push(foreign.ok ? foreign.body : foreign.error);
            const again = await h.client.stepSeat(a, { action_type: 'wait' });
            seen.push(again.ok ? again.body : again.error);
            const full = refused(await h.client.request('GET', `/state?token=${a}&include_private=true`));
            assert.deepEqual(
              [full.status, full.code],
              [403, 'seat_token_scope'],
              'a seat never gets the full state, even on a debug server',
            );
            seen.push(full);
            const pub = refused(await h.client.state({ admin_token: a }));
            assert.deepEqual([pub.status, pub.code], [403, 'admin_token_required']);
            seen.push(pub);
          }
        }
        const w = ok(await h.client.state({ admin_token: r.admin_token }));
        over = w.waiting_for!.length === 0;
      }
      const del = refused(await h.client.deleteSession(r.session_id, a));
      assert.deepEqual(
        [del.status, del.code],
        [403, 'admin_token_required'],
        "a seat's token cannot delete the session",
      );
      const text = JSON.stringify(seen);
      assert.ok(!text.includes(String(SEED)), 'the seed appears nowhere');
      assert.ok(!text.includes(r.session_id), 'the session id appears nowhere');
      assert.ok(/"task_id":"market_round"/.test(text), 'task_id without the seed');
      // Every number the seat saw, tried as a seed: none rebuilds the other seat's secrets.
      const numbers = new Set(
        [...text.matchAll(/\d+/g)].map((m) => Number(m[0])).filter((n) => Number.isSafeInteger(n)),
      );
      for (const n of numbers)
        assert.notEqual(privateOf(n), truth, `seed candidate ${n} rebuilds lab_1's private jobs`);
      // No object carries lab_1's job details or exact budget.
      for (const o of objects(seen)) {
        const id = o.id ?? o.job_id;
        if (typeof id === 'string' && secretJobs.jobs.some(([j]) => j === id)) {
          assert.ok(
            !('baseValue' in o || 'base_value' in o || 'deadlineRound' in o || 'deadline_round' in o),
            `lab_1's job ${id} in a lab_0 answer`,
          );
        }
        for (const k of ['budget', 'controlled_lab_budget'])
          if (k in o) assert.notEqual(o[k], secretJobs.budget, "lab_1's exact budget");
      }
      // Over: the seed is revealed with done; the admin token reads the public view and ends the session.
      const end = ok(await h.client.request<{ state: { task_id: string } }>('GET', `/state?token=${a}`));
      assert.equal(end.state.task_id, `${TASK}-${SEED}`);
      assert.equal((ok(await h.client.state({ admin_token: r.admin_token })).state as { seed: number }).seed, SEED);
      ok(await h.client.deleteSession(r.session_id, r.admin_token));
    });
  }

  test('a self-play reset without a seed draws a random one (never the guessable default 42)', async () => {
    const seeds = new Set<number>();
    for (let i = 0; i < 3; i++) {
      const r = ok(await h.client.resetSelfPlay({ task: TASK, seats: ['lab_0', 'lab_1'] }));
      seeds.add(r.info.seed as number);
      assert.equal((r.seats.lab_1!.observation as unknown as { task_id: string }).task_id, TASK);
      ok(await h.client.deleteSession(r.session_id, r.admin_token));
    }
    assert.equal(seeds.size, 3);
    assert.ok(!seeds.has(42));
  });
});
