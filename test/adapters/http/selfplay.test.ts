/**
 * Self-play: one session, several seats over HTTP, each with its own token. The round closes when every
 * listed seat has acted or waited; each seat sees only its own view and rewards; the rewards a seat
 * receives add up to its cumulative reward, and match the engine driven directly with the same actions.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyAction, closeRound, createMatch, observe, rng } from '../../../src/engine/index.js';
import { defaultOpponents } from '../../../src/engine/gym.js';
import { getPolicy } from '../../../src/engine/policies/index.js';
import type { MatchState } from '../../../src/engine/types.js';
import type { Observation } from '../../../src/engine/views.js';
import { ok, ours, refused, startServer, type Harness } from './harness.js';

let h: Harness;
before(async () => {
  h = await startServer();
});
after(async () => {
  await h.close();
});

const expert = getPolicy('rule_based_expert');
const json = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

describe('self-play seats', () => {
  test('two copies of a policy play each other; rounds close when both acted; rewards match the engine', async () => {
    const task = 'market_round';
    const seed = 17;
    const r = ok(await h.client.resetSelfPlay({ task, seed, seats: ['lab_0', 'lab_1'] }));
    const t0 = r.seats.lab_0!.token;
    const t1 = r.seats.lab_1!.token;
    assert.notEqual(t0, t1);
    // The engine directly: lab_2 scripted as the server does (the gym's default rotation for lab_0).
    const scripted = { lab_2: defaultOpponents(task, seed, 'lab_0').lab_2! };
    let s: MatchState = createMatch({ task, seed, scripted });
    assert.deepEqual(ours(r.seats.lab_1!.observation as unknown as Record<string, unknown>), json(observe(s, 'lab_1')));
    const received = { lab_0: 0, lab_1: 0 };
    let obs0 = r.seats.lab_0!.observation as Observation;
    let obs1 = r.seats.lab_1!.observation as Observation;
    let closes = 0;
    while (!s.over) {
      const a0 = expert(obs0, { rng: rng(seed, obs0.round, 'policy:lab_0'), holdout: false })[0] ?? {
        action_type: 'wait',
      };
      const a1 = expert(obs1, { rng: rng(seed, obs1.round, 'policy:lab_1'), holdout: false })[0] ?? {
        action_type: 'wait',
      };
      const x0 = applyAction(s, 'lab_0', a0);
      const s0 = ok(await h.client.stepSeat(t0, a0 as Record<string, unknown>));
      assert.equal(s0.info.code, x0.result.code);
      assert.deepEqual(s0.info.waiting_for, ['lab_1'], 'the round waits for lab_1');
      const again = refused(await h.client.stepSeat(t0, { action_type: 'wait' }));
      assert.deepEqual([again.status, again.code], [409, 'seat_waiting']);
      const x1 = applyAction(x0.state, 'lab_1', a1);
      const closed = closeRound(x1.state);
      s = closed.state;
      closes++;
      const s1 = ok(await h.client.stepSeat(t1, a1 as Record<string, unknown>));
      assert.equal(s1.info.code, x1.result.code);
      assert.equal(s1.info.closed, true);
      assert.equal(s1.info.reports.length, 1);
      assert.deepEqual(
        Object.keys(s1.info.reports[0]!.rewards),
        ['lab_1'],
        'a seat sees only its own reward breakdown',
      );
      received.lab_0 += s0.reward;
      received.lab_1 += s1.reward;
      obs1 = s1.observation;
      assert.deepEqual(ours(obs1 as unknown as Record<string, unknown>), json(observe(s, 'lab_1')));
      // lab_0 learns the close (its round-close reward) with its view; its next step carries the reward.
      const v0 = ok(await h.client.state({ token: t0 }));
      assert.equal(v0.seat, 'lab_0');
      assert.deepEqual(v0.waiting_for, s.over ? [] : ['lab_0', 'lab_1']);
      obs0 = v0.state as unknown as Observation;
      if (s.over) {
        const last = ok(await h.client.stepSeat(t0, { action_type: 'wait' }));
        assert.equal(last.done, true);
        assert.equal(last.info.code, 'match_over');
        received.lab_0 += last.reward;
      } else {
        assert.equal(s1.done, false);
      }
    }
    assert.equal(closes, s.params.maxRounds);
    for (const lab of ['lab_0', 'lab_1'] as const) {
      assert.ok(
        Math.abs(received[lab] - s.seats[lab]!.cumulativeReward) < 1e-9,
        `${lab}: received ${received[lab]}, cumulative ${s.seats[lab]!.cumulativeReward}`,
      );
    }
    // The creator's admin token shows the public view only; the session id alone shows nothing.
    const pub = ok(await h.client.state({ admin_token: r.admin_token }));
    assert.ok(!('self' in pub.state));
    assert.equal(refused(await h.client.state({ session_id: r.session_id })).code, 'admin_token_required');
    const noToken = refused(await h.client.step(r.session_id, { action_type: 'wait' }));
    assert.equal(noToken.code, 'token_required');
  });

  test('a seat that waits is done for the round; finish leaves the round to the others', async () => {
    const r = ok(
      await h.client.resetSelfPlay({
        task: 'coalition_market',
        seed: 4,
        seats: ['lab_1', 'lab_2', 'lab_3'],
        actions_per_round: 3,
      }),
    );
    const [a, b, c] = [r.seats.lab_1!.token, r.seats.lab_2!.token, r.seats.lab_3!.token];
    ok(await h.client.stepSeat(a, { action_type: 'send_message', message: 'anyone selling?' }));
    const w = ok(await h.client.stepSeat(a, { action_type: 'wait' }));
    assert.deepEqual(w.info.waiting_for, ['lab_2', 'lab_3']);
    const f = ok(await h.client.stepSeat(b, { action_type: 'finish' }));
    assert.equal(f.done, true);
    assert.deepEqual(f.info.waiting_for, ['lab_3']);
    const last = ok(await h.client.stepSeat(c, { action_type: 'wait' }));
    assert.equal(last.info.closed, true);
    assert.equal(last.info.round, 1);
    assert.deepEqual(last.info.waiting_for, ['lab_1', 'lab_3']);
    // A token acts for its own seat only: lab_3's token cannot allocate lab_1's job.
    const before1 = ok(await h.client.state({ token: a }));
    const foreign = ok(
      await h.client.stepSeat(c, { action_type: 'allocate_to_job', job_id: 'j_1_0', block_ids: ['b_1_0'] }),
    );
    assert.equal(foreign.info.seat, 'lab_3');
    assert.equal(foreign.info.ok, false);
    const self1 = (v: { state: Record<string, unknown> }) => v.state.self;
    assert.deepEqual(self1(ok(await h.client.state({ token: a }))), self1(before1), "lab_1's own state is unchanged");
    const mismatch = refused(await h.client.request('GET', `/state?token=${c}&session_id=other`));
    assert.deepEqual([mismatch.status, mismatch.code], [400, 'invalid_request']);
    const gone = ok(await h.client.stepSeat(b, { action_type: 'wait' }));
    assert.equal(gone.info.code, 'seat_finished');
    assert.equal(refused(await h.client.deleteSession(r.session_id)).code, 'admin_token_required');
    ok(await h.client.deleteSession(r.session_id, r.admin_token));
    assert.equal(refused(await h.client.stepSeat(a, { action_type: 'wait' })).code, 'unknown_token');
  });
});
