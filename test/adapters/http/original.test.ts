/**
 * The original's payloads (docs/RULES.md §A.1; its own API tests:
 * https://github.com/abhinavgautam01/GPU_Budget_Negotiation_Arena/blob/128c8c20f9b6ebd941741bcf947af778441ff623/tests/test_api.py) posted verbatim: reset
 * and step bodies as its README and tests send them, all 14 action types in its field names, its
 * /health, /tasks and /state shapes. Each original action is checked against the gym fed the equivalent
 * action written here in our field names (docs/RULES.md §3).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ArenaEnv } from '../../../src/engine/gym.js';
import { ok, refused, startServer, type Harness } from './harness.js';

let h: Harness;
before(async () => {
  h = await startServer();
});
after(async () => {
  await h.close();
});

const post = (path: string, text: string) => h.client.request<Record<string, unknown>>('POST', path, text);

describe("the original's contract", () => {
  test('GET /health and GET /tasks answer in its shapes', async () => {
    const health = ok(await h.client.health());
    assert.equal(health.status, 'ok');
    assert.equal(typeof health.benchmark_id, 'string');
    const tasks = ok(await h.client.tasks());
    assert.deepEqual(
      tasks.tasks.map((t) => [t.task_type, t.difficulty]),
      [
        ['single_trade', 'easy'],
        ['market_round', 'medium'],
        ['coalition_market', 'hard'],
      ],
    );
    const original14 = [
      'send_offer',
      'accept_offer',
      'reject_offer',
      'counter_offer',
      'make_pitch',
      'counter_pitch',
      'reserve_capacity',
      'release_capacity',
      'form_coalition',
      'commit_to_coalition',
      'allocate_to_job',
      'send_message',
      'wait',
      'finish',
    ];
    for (const t of original14) assert.ok(tasks.action_types.includes(t), t);
    const openapi = ok(
      await h.client.request<{ openapi: string; paths: Record<string, unknown> }>('GET', '/openapi.json'),
    );
    assert.match(openapi.openapi, /^3\./);
    assert.deepEqual(Object.keys(openapi.paths).sort(), [
      '/health',
      '/reset',
      '/session/{id}',
      '/state',
      '/step',
      '/tasks',
    ]);
  });

  test('its test_reset_step_state_api, verbatim: reset single_trade seed 99, a wait step, the public /state', async () => {
    const reset = ok(await post('/reset', '{"task_type":"single_trade","seed":99}'));
    const obs = reset.observation as Record<string, unknown>;
    assert.equal(obs.task_id, 'single_trade-99');
    assert.equal(obs.round_index, 0);
    assert.equal(obs.controlled_lab_id, 'lab_0');
    // No session_id: the original's single environment is the latest reset's session.
    const step = ok(await post('/step', '{"action_type":"wait"}'));
    const after = step.observation as Record<string, unknown>;
    assert.equal(after.round_index, 1);
    assert.deepEqual(after.last_action_result, {
      ok: true,
      code: 'waited',
      message: (after.last_action_result as { message: string }).message,
    });
    assert.equal(typeof step.reward, 'number');
    assert.equal(step.done, false);
    const state = ok(await h.client.request<{ state: Record<string, unknown> }>('GET', '/state'));
    assert.equal(state.state.task_id, 'single_trade-99');
    assert.equal(state.state.round_index, 1);
    assert.equal((state.state.last_action_result as { code: string }).code, 'waited');
    assert.ok(
      !('labs' in state.state && (state.state.labs as Record<string, unknown>[]).some((l) => 'budget' in l)),
      'no other lab’s budget',
    );
    const e = refused(await h.client.request('GET', '/state?include_private=true'));
    assert.equal(e.status, 403);
    // And the same with the session named, plus an empty reset as `requests.post(url)` sends it.
    const defaults = ok(
      await h.client.request<{ session_id: string; observation: Record<string, unknown> }>('POST', '/reset'),
    );
    assert.equal(defaults.observation.task_id, 'single_trade-42', 'the original defaults: single_trade, seed 42');
    const emptyJson = ok(await h.client.request<{ observation: Record<string, unknown> }>('POST', '/reset', ''));
    assert.equal(emptyJson.observation.task_id, 'single_trade-42', 'an empty JSON body is no body');
  });

  test('its reset options: difficulty picks the task, judge_mode is accepted and echoed, unknown keys are ignored', async () => {
    const hard = ok(await post('/reset', '{"difficulty":"hard","seed":72,"judge_mode":"rule","curriculum":true}'));
    assert.equal((hard.observation as { task_id: string }).task_id, 'coalition_market-72');
    assert.equal((hard.info as { judge_mode: string }).judge_mode, 'rule');
    const same = ok(
      await post('/reset', '{"task_type":"market_round","difficulty":"medium","seed":5,"judge_mode":"off"}'),
    );
    assert.equal((same.observation as { difficulty: string }).difficulty, 'medium');
  });

  test('all 14 action types in its field names give what the gym gives for the equivalent actions', async () => {
    // [original payload, the same action in our names]
    const pairs: [string, object][] = [
      [
        '{"action_type":"send_message","target_lab_id":null,"message":"urgent deadline asap"}',
        { action_type: 'send_message', message: 'urgent deadline asap' },
      ],
      [
        '{"action_type":"send_offer","target_lab_id":"lab_1","block_ids":["b_0_0"],"requested_block_ids":["b_1_0"],"payment":"5","message":"swap?","conditions":{"must_not_resell":true}}',
        {
          action_type: 'send_offer',
          target_lab_id: 'lab_1',
          block_ids: ['b_0_0'],
          requested_block_ids: ['b_1_0'],
          payment: 5,
          message: 'swap?',
        },
      ],
      [
        '{"action_type":"reserve_capacity","block_ids":["b_0_1"],"job_id":"j_0_0"}',
        { action_type: 'reserve_capacity', block_ids: ['b_0_1'], job_id: 'j_0_0' },
      ],
      [
        '{"action_type":"release_capacity","block_ids":["b_0_1"]}',
        { action_type: 'release_capacity', block_ids: ['b_0_1'] },
      ],
      [
        '{"action_type":"make_pitch","message":"j_0_0 needs 4 GPU-hours by its deadline round","job_id":"j_0_0"}',
        { action_type: 'make_pitch', message: 'j_0_0 needs 4 GPU-hours by its deadline round', job_ids: ['j_0_0'] },
      ],
      [
        '{"action_type":"form_coalition","target_lab_id":"lab_2","message":"pool for j_0_2"}',
        { action_type: 'form_coalition', target_lab_ids: ['lab_2'], message: 'pool for j_0_2' },
      ],
      [
        '{"action_type":"commit_to_coalition","coalition_id":"c_1","block_ids":["b_0_2"]}',
        { action_type: 'commit_to_coalition', coalition_id: 'c_1', block_ids: ['b_0_2'] },
      ],
      ['{"action_type":"accept_offer","offer_id":"o_9"}', { action_type: 'accept_offer', offer_id: 'o_9' }],
      ['{"action_type":"reject_offer","offer_id":"o_1"}', { action_type: 'reject_offer', offer_id: 'o_1' }],
      [
        '{"action_type":"counter_offer","offer_id":"o_9","target_lab_id":"lab_3","block_ids":["b_0_3"],"payment":1.5}',
        { action_type: 'counter_offer', offer_id: 'o_9', block_ids: ['b_0_3'], payment: 1.5 },
      ],
      [
        '{"action_type":"counter_pitch","target_lab_id":"lab_1","message":"our need is concrete and verifiable"}',
        { action_type: 'counter_pitch', target_lab_id: 'lab_1', message: 'our need is concrete and verifiable' },
      ],
      [
        '{"action_type":"allocate_to_job","job_id":"j_0_0","block_ids":["b_0_3"]}',
        { action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: ['b_0_3'] },
      ],
      [
        '{"action_type":"wait","target_lab_id":null,"offer_id":null,"coalition_id":null,"block_ids":[],"requested_block_ids":[],"job_id":null,"payment":null,"message":null,"conditions":{}}',
        { action_type: 'wait' },
      ],
      ['{"action_type":"finish"}', { action_type: 'finish' }],
    ];
    const types = new Set(pairs.map(([o]) => (JSON.parse(o) as { action_type: string }).action_type));
    assert.equal(types.size, 14);
    const reset = ok(await post('/reset', '{"task_type":"coalition_market","seed":21,"actions_per_round":4}'));
    const sid = reset.session_id as string;
    const env = new ArenaEnv();
    env.reset({ task: 'coalition_market', seed: 21, actionsPerRound: 4 });
    const codes: string[] = [];
    for (const [original, mine] of pairs) {
      const local = env.step(mine);
      const remote = ok(await post('/step', `{"session_id":"${sid}",${original.slice(1)}`));
      const info = remote.info as { code: string; ignored_fields: string[] };
      assert.equal(info.code, local.info.code, original);
      assert.notEqual(info.code, 'malformed_action', original);
      assert.equal(remote.reward, local.reward, original);
      if (original.includes('"conditions":{"must')) assert.deepEqual(info.ignored_fields, ['conditions']);
      codes.push(info.code);
    }
    assert.ok(
      codes.includes('offer_created') && codes.includes('capacity_reserved') && codes.includes('coalition_proposed'),
      codes.join(','),
    );
    assert.equal(codes.at(-1), 'finished');
  });

  test('its pitches: make_pitch with a target and counter_pitch without one are recorded pitches, as there', async () => {
    const { session_id } = ok(await h.client.reset({ task: 'market_round', seed: 12, actions_per_round: 3 }));
    const sid = JSON.stringify(session_id);
    const aimed = ok(
      await post(
        '/step',
        `{"session_id":${sid},"action_type":"make_pitch","target_lab_id":"lab_1","message":"j_0_0 is due soon and needs capacity"}`,
      ),
    );
    assert.equal((aimed.info as { code: string }).code, 'pitch_recorded');
    assert.deepEqual((aimed.info as { ignored_fields: string[] }).ignored_fields, ['target_lab_id']);
    const bare = ok(
      await post(
        '/step',
        `{"session_id":${sid},"action_type":"counter_pitch","message":"our need is concrete and verifiable"}`,
      ),
    );
    assert.equal((bare.info as { code: string }).code, 'pitch_recorded');
    const obs = bare.observation as { pitches: { lab: string; replyTo: string | null }[] };
    assert.deepEqual(
      obs.pitches.filter((p) => p.lab === 'lab_0').map((p) => p.replyTo),
      [null],
      'one pitch of lab_0, answering nobody',
    );
  });

  test('its observation names where ours has the same facts: visible_labs, active_coalitions', async () => {
    const { observation } = ok(await h.client.reset({ task: 'coalition_market', seed: 5 }));
    const o = observation as unknown as Record<string, unknown> & {
      labs: unknown[];
      myCoalitions: unknown[];
      coalitions: unknown[];
    };
    assert.deepEqual(o.visible_labs, o.labs);
    assert.ok(!(o.visible_labs as { id: string }[]).some((l) => l.id === 'lab_0'), 'the other labs only');
    assert.deepEqual(o.active_coalitions, [...o.myCoalitions, ...o.coalitions]);
  });

  test('its edge-case tests over HTTP: a negative payment and an unknown action type are refused before the engine', async () => {
    ok(await post('/reset', '{"task_type":"single_trade","seed":3}'));
    const neg = refused(await post('/step', '{"action_type":"send_offer","target_lab_id":"lab_1","payment":-1}'));
    assert.deepEqual([neg.status, neg.code], [422, 'invalid_amount']);
    const unknown = refused(await post('/step', '{"action_type":"not_real"}'));
    assert.deepEqual([unknown.status, unknown.code], [422, 'unknown_action_type']);
    const toSelf = ok(await post('/step', '{"action_type":"send_offer","target_lab_id":"lab_0","payment":1}'));
    assert.equal((toSelf.info as { code: string }).code, 'self_trade');
    assert.ok((toSelf.reward as number) < 0);
  });
});
