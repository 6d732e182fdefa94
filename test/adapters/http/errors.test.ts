/**
 * Bad input over HTTP: 4xx with a code and a message, and the session unchanged; idle TTL, the session
 * cap, the debug flag, and the penalize mode (a malformed action as an engine step, docs/RULES.md §A.2 D14).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ACTION_TYPES } from '../../../src/engine/actions.js';
import { ArenaEnv } from '../../../src/engine/gym.js';
import { ok, refused, startServer, type Harness } from './harness.js';

let h: Harness;
before(async () => {
  h = await startServer({ bodyLimitBytes: 4096, idleTtlSeconds: 30 });
});
after(async () => {
  await h.close();
});

describe('bad input', () => {
  test('malformed JSON, non-objects, unknown action types, NaN/negative/infinite amounts and huge bodies: 4xx with a code, session unchanged', async () => {
    const { session_id } = ok(await h.client.reset({ task: 'market_round', seed: 5 }));
    ok(await h.client.step(session_id, { action_type: 'send_message', message: 'hello market' }));
    const before = ok(await h.client.state({ session_id }));
    const offer = { action_type: 'send_offer', target_lab_id: 'lab_1', block_ids: ['b_0_0'] };
    const cases: [string, unknown, number, string][] = [
      ['malformed JSON', `{"session_id":"${session_id}","action":{"action_type":"wait"`, 400, 'invalid_json'],
      [
        'a NaN literal',
        `{"session_id":"${session_id}","action":{"action_type":"send_offer","target_lab_id":"lab_1","payment":NaN}}`,
        400,
        'invalid_json',
      ],
      ['a JSON array body', [session_id, { action_type: 'wait' }], 400, 'invalid_body'],
      ['a JSON string body', '"wait"', 400, 'invalid_body'],
      ['no action', { session_id }, 400, 'invalid_body'],
      ['an unknown action type', { session_id, action: { action_type: 'steal_blocks' } }, 422, 'unknown_action_type'],
      ['a case-different action type', { session_id, action: { action_type: 'WAIT' } }, 422, 'unknown_action_type'],
      ['payment "nan"', { session_id, action: { ...offer, payment: 'nan' } }, 422, 'invalid_amount'],
      ['payment "inf"', { session_id, action: { ...offer, payment: 'inf' } }, 422, 'invalid_amount'],
      [
        'an infinite payment (1e999)',
        `{"session_id":"${session_id}","action":{"action_type":"send_offer","target_lab_id":"lab_1","payment":1e999}}`,
        422,
        'invalid_amount',
      ],
      ['a negative payment', { session_id, action: { ...offer, payment: -1 } }, 422, 'invalid_amount'],
      [
        'a negative commit payment',
        { session_id, action: { action_type: 'commit_to_coalition', coalition_id: 'c_1', payment: -3 } },
        422,
        'invalid_amount',
      ],
      ['a negative expiry', { session_id, action: { ...offer, expires_in: -1 } }, 422, 'invalid_amount'],
      [
        'a message over 500 characters',
        { session_id, action: { action_type: 'send_message', message: 'x'.repeat(501) } },
        422,
        'malformed_action',
      ],
      [
        'a block list that is a string',
        { session_id, action: { action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: 'b_0_0' } },
        422,
        'malformed_action',
      ],
      ['action text that is not JSON', { session_id, action: 'I would like to wait' }, 422, 'malformed_action'],
      [
        'a body over the limit',
        { session_id, action: { action_type: 'send_message', message: 'y'.repeat(5000) } },
        413,
        'body_too_large',
      ],
      ['a session id of the wrong type', { session_id: 7, action: { action_type: 'wait' } }, 400, 'invalid_request'],
    ];
    for (const [what, body, status, code] of cases) {
      const e = refused(await h.client.request('POST', '/step', body));
      assert.equal(e.status, status, `${what}: ${e.code} ${e.message}`);
      assert.equal(e.code, code, `${what}: ${e.message}`);
      assert.ok(e.message.length > 10, `${what}: a readable message`);
    }
    const form = refused(
      await h.client.request(
        'POST',
        '/step',
        `session_id=${session_id}&action_type=wait`,
        'application/x-www-form-urlencoded',
      ),
    );
    assert.deepEqual([form.status, form.code], [415, 'unsupported_media_type']);
    const empty = refused(await h.client.request('POST', '/step', ''));
    assert.deepEqual([empty.status, empty.code], [400, 'invalid_body']);
    assert.deepEqual(ok(await h.client.state({ session_id })), before, 'nothing changed');
    // The same session still plays.
    const w = ok(await h.client.step(session_id, { action_type: 'wait' }));
    assert.equal(w.info.code, 'waited');
  });

  test('property: no body, JSON or not, ever gets a 5xx; every refusal is {error: {code, message}}', async (t) => {
    const f = await startServer({ maxSessions: 100_000, bodyLimitBytes: 4096 });
    t.after(() => f.close());
    const { session_id } = ok(await f.client.reset({ task: 'market_round', seed: 6 }));
    const before = ok(await f.client.state({ session_id }));
    // A later session is the default one, which sessionless (original-style) steps address.
    ok(await f.client.reset({ task: 'single_trade', seed: 1 }));
    const actionish = fc.record(
      {
        action_type: fc.oneof(
          fc.constantFrom(...ACTION_TYPES),
          fc.string({ maxLength: 12 }),
          fc.integer(),
          fc.constant(null),
        ),
        target_lab_id: fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.constant(null)),
        block_ids: fc.oneof(fc.array(fc.string({ maxLength: 6 }), { maxLength: 40 }), fc.string(), fc.constant(null)),
        payment: fc.oneof(fc.double(), fc.string({ maxLength: 6 }), fc.boolean(), fc.constant(null)),
        message: fc.oneof(fc.string({ maxLength: 30 }), fc.integer()),
        offer_id: fc.jsonValue({ maxDepth: 1 }),
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 60 }),
      actionish.map((a) => JSON.stringify({ session_id, action: a })),
      actionish.map((a) => JSON.stringify({ session_id, ...a })),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/step', '/reset'), body, async (path, text) => {
        // Only refusals matter here: a valid step would change the session, so those go to a scratch one.
        const r = await f.client.request<unknown>(
          'POST',
          path,
          text.includes(session_id) ? text.replace(session_id, 'scratch') : text,
        );
        assert.ok(r.status < 500, `${path} ${text} → ${r.status}`);
        if (!r.ok) assert.ok(typeof r.error.code === 'string' && typeof r.error.message === 'string');
      }),
      { numRuns: 150 },
    );
    // And bad queries of /state.
    for (const q of ['include_private=maybe', 'session_id=', 'token=&session_id=x', 'session_id=a&session_id=b']) {
      const r = await f.client.request('GET', `/state?${q}`);
      assert.ok(r.status >= 400 && r.status < 500, `${q} → ${r.status}`);
    }
    assert.deepEqual(ok(await f.client.state({ session_id })), before);
  });

  test('bad reset bodies are 4xx; unknown routes and sessions are 404 with a code', async () => {
    const cases: [unknown, number, string][] = [
      [{ task: 'mega_market' }, 400, 'invalid_request'],
      [{ seed: -1 }, 400, 'invalid_request'],
      [{ seed: 1.5 }, 400, 'invalid_request'],
      [{ judge_mode: 'llm' }, 400, 'invalid_request'],
      [{ task_type: 'single_trade', difficulty: 'hard' }, 422, 'difficulty_conflict'],
      [{ task: 'single_trade', seat: 'lab_3' }, 422, 'unknown_seat'],
      [{ task: 'single_trade', opponents: { lab_4: 'selfish' } }, 422, 'invalid_request'],
      [{ task: 'market_round', seats: ['lab_0', 'lab_0'] }, 422, 'unknown_seat'],
    ];
    for (const [body, status, code] of cases) {
      const e = refused(await h.client.request('POST', '/reset', body));
      assert.deepEqual([e.status, e.code], [status, code], `${JSON.stringify(body)}: ${e.message}`);
    }
    const missing = refused(await h.client.step('no-such-session', { action_type: 'wait' }));
    assert.deepEqual([missing.status, missing.code], [404, 'unknown_session']);
    assert.deepEqual(refused(await h.client.request('GET', '/nowhere')).code, 'not_found');
    assert.deepEqual(refused(await h.client.stepSeat('no-such-token', { action_type: 'wait' })).code, 'unknown_token');
  });

  test('a session idle past its TTL answers a clear 404; a used one stays', async () => {
    const idle = ok(await h.client.reset({ task: 'single_trade', seed: 1 }));
    const busy = ok(await h.client.reset({ task: 'single_trade', seed: 2 }));
    h.advance(20_000);
    ok(await h.client.step(busy.session_id, { action_type: 'wait' }));
    h.advance(20_000);
    const e = refused(await h.client.step(idle.session_id, { action_type: 'wait' }));
    assert.equal(e.status, 404);
    assert.equal(e.code, 'unknown_session');
    assert.match(e.message, /expired after 30 s idle/);
    assert.equal(refused(await h.client.state({ session_id: idle.session_id })).code, 'unknown_session');
    ok(await h.client.step(busy.session_id, { action_type: 'wait' }));
  });

  test('GET /state never shows other seats’ private values; include_private is 403 without the debug flag', async () => {
    const { session_id } = ok(await h.client.reset({ task: 'coalition_market', seed: 3 }));
    const view = ok(await h.client.state({ session_id }));
    const text = JSON.stringify(view);
    const env = new ArenaEnv();
    env.reset({ task: 'coalition_market', seed: 3 });
    const others = Object.values(env.state.jobs).filter((j) => j.owner !== 'lab_0');
    assert.ok(others.length > 0);
    for (const job of others) assert.ok(!text.includes(`"${job.id}"`), `${job.id} of ${job.owner} is private`);
    for (const lab of (view.state as { labs: Record<string, unknown>[] }).labs)
      assert.ok(!('budget' in lab), 'others show a budget band only');
    assert.equal(view.seat, 'lab_0');
    const e = refused(await h.client.state({ session_id }, true));
    assert.deepEqual([e.status, e.code], [403, 'debug_state_disabled']);
  });

  test('with server.debugState the full state is shown', async () => {
    const d = await startServer({ debugState: true });
    try {
      const { session_id } = ok(await d.client.reset({ task: 'market_round', seed: 4 }));
      const full = ok(await d.client.state({ session_id }, true));
      assert.deepEqual(Object.keys((full.state as { labs: object }).labs).sort(), ['lab_0', 'lab_1', 'lab_2']);
    } finally {
      await d.close();
    }
  });

  test('the session cap: one more is 503 too_many_sessions; DELETE frees a place', async () => {
    const c = await startServer({ maxSessions: 2 });
    try {
      const a = ok(await c.client.reset({}));
      ok(await c.client.reset({}));
      const e = refused(await c.client.reset({}));
      assert.deepEqual([e.status, e.code], [503, 'too_many_sessions']);
      ok(await c.client.deleteSession(a.session_id));
      assert.equal(refused(await c.client.deleteSession(a.session_id)).code, 'unknown_session');
      ok(await c.client.reset({}));
      // Expired sessions make room too.
      c.advance(601_000);
      ok(await c.client.reset({}));
      assert.equal(c.store.size, 1);
    } finally {
      await c.close();
    }
  });

  test('invalid_actions "penalize": a malformed action is an engine step with the malformed_action penalty, as in the gym', async () => {
    const { session_id } = ok(await h.client.reset({ task: 'single_trade', seed: 9, invalid_actions: 'penalize' }));
    const env = new ArenaEnv();
    env.reset({ task: 'single_trade', seed: 9 });
    for (const raw of [
      { action_type: 'not_real' },
      'not json at all',
      { action_type: 'send_offer', target_lab_id: 'lab_1', payment: -1 },
    ]) {
      const local = env.step(raw);
      const remote = ok(await h.client.step(session_id, raw));
      assert.equal(remote.info.code, 'malformed_action');
      assert.equal(remote.reward, local.reward);
      assert.ok(remote.reward < 0);
      assert.equal(remote.info.round, local.info.round, 'the round advances, as the original');
    }
  });
});
