/**
 * The fast action parser (src/engine/parse-action.ts) agrees with the zod schema: whenever it answers, the
 * schema accepts the input with the very same output (values and key order); it answers for the
 * actions the scripted policies build; and the fast fingerprint (src/engine/fingerprint.ts) equals the
 * JSON.stringify form for every parsed action. The fast config and reset parsers (config.ts, gym.ts)
 * give the same matches as their zod schemas.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ActionSchema, type Action } from '../../src/engine/actions.js';
import { parseActionFast } from '../../src/engine/parse-action.js';
import { fingerprintOf } from '../../src/engine/step.js';
import { ArenaEnv } from '../../src/engine/gym.js';
import { rng } from '../../src/engine/rng.js';
import { getPolicy } from '../../src/engine/policies/index.js';
import { TASK_NAMES, type PolicyName } from '../../src/engine/types.js';
import { createMatch, labIdsFor, POLICY_NAMES } from '../../src/engine/index.js';
import { action } from './arbitraries.js';

const slowFingerprint = (a: Action): string => JSON.stringify(a, (k, v: unknown) => (k === 'message' ? undefined : v));

function agrees(input: unknown): void {
  const fast = parseActionFast(input);
  const slow = ActionSchema.safeParse(input);
  if (slow.success) assert.equal(fingerprintOf(slow.data), slowFingerprint(slow.data));
  if (fast === undefined) return;
  assert.ok(slow.success, `fast path accepted what the schema rejects: ${JSON.stringify(input)}`);
  assert.deepEqual(fast, slow.data);
  assert.equal(JSON.stringify(fast), JSON.stringify(slow.data));
  assert.equal(fingerprintOf(fast), slowFingerprint(fast));
}

describe('parseActionFast', () => {
  test('agrees with ActionSchema on generated and hostile input', () => {
    fc.assert(
      fc.property(action, (a) => agrees(a)),
      { numRuns: 4000 },
    );
  });

  test('agrees on valid actions with padded, boundary and default values', () => {
    const cases: unknown[] = [
      { action_type: 'send_offer', target_lab_id: ' lab_1 ', requested_block_ids: ['b_1_0 '], payment: 0 },
      {
        action_type: 'send_offer',
        target_lab_id: 'lab_1',
        block_ids: ['x'.repeat(64)],
        payment: 1e6,
        message: 'm'.repeat(500),
        expires_in: 0,
      },
      { action_type: 'send_offer', target_lab_id: 'lab_1', payment: -0, expires_in: 3, extra: 'dropped' },
      { action_type: 'counter_offer', offer_id: 'o_1' },
      { action_type: 'make_pitch', message: `  ${'p'.repeat(1200)}  ` },
      { action_type: 'counter_pitch', target_lab_id: 'lab_2', message: 'We need 4 GPU-hours.', job_ids: [] },
      { action_type: 'reserve_capacity', block_ids: [], job_id: null },
      { action_type: 'form_coalition', target_lab_ids: ['lab_1', 'lab_2', 'lab_3', 'lab_4'], duration: 9 },
      { action_type: 'commit_to_coalition', coalition_id: 'c_1', payment: 2.5 },
      { action_type: 'send_message', message: '' },
      { action_type: 'finish', message: 'ignored' },
    ];
    for (const c of cases) {
      assert.notEqual(parseActionFast(c), undefined, JSON.stringify(c));
      agrees(c);
    }
  });

  test('leaves invalid input to the schema', () => {
    const cases: unknown[] = [
      { action_type: 'send_offer', target_lab_id: '  ' },
      { action_type: 'send_offer', target_lab_id: 'lab_1', payment: NaN },
      { action_type: 'send_offer', target_lab_id: 'lab_1', payment: 1e6 + 1 },
      { action_type: 'send_offer', target_lab_id: 'lab_1', expires_in: 1.5 },
      { action_type: 'make_pitch', message: 'p'.repeat(1201) },
      { action_type: 'form_coalition', target_lab_ids: [] },
      { action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: Array.from({ length: 33 }, (_, i) => `b_${i}`) },
      { action_type: 'toString' },
      Object.create({ action_type: 'wait' }),
      ['wait'],
      null,
      'wait',
    ];
    for (const c of cases) {
      if (parseActionFast(c) !== undefined) agrees(c);
      else assert.equal(parseActionFast(c), undefined);
    }
    const hostile = {
      action_type: 'accept_offer',
      get offer_id(): string {
        throw new Error('boom');
      },
    };
    assert.equal(parseActionFast(hostile), undefined);
  });

  test('answers for every action the scripted policies build', () => {
    const env = new ArenaEnv();
    let n = 0;
    for (const task of TASK_NAMES) {
      for (let seed = 0; seed < 6; seed++) {
        for (const name of [
          'rule_based_expert',
          'random_validish',
          'cooperative',
          'deceptive',
          'base_instruct_naive',
        ] as const) {
          let obs = env.reset({ task, seed });
          while (!env.done) {
            const acts = getPolicy(name)(obs, { rng: rng(seed, obs.round, 'policy:lab_0'), holdout: false });
            for (const a of acts) {
              assert.notEqual(parseActionFast(a), undefined, JSON.stringify(a));
              agrees(a);
              n++;
            }
            obs = env.step(acts[0] ?? { action_type: 'wait' }).observation;
          }
        }
      }
    }
    assert.ok(n > 100);
  });
});

describe('fast config and reset parsing', () => {
  // A null-prototype `scripted` record (or an explicit `opponents`) is left to the zod schemas, so these
  // pairs compare the fast path with the schema path through the public API.
  const viaSchema = (scripted: Record<string, PolicyName>): Record<string, PolicyName> =>
    Object.assign(Object.create(null) as Record<string, PolicyName>, scripted);

  test('createMatch gives the same state through the fast path and the schema', () => {
    for (const task of TASK_NAMES) {
      for (const seed of [0, 1, 7, 123456]) {
        const labs = labIdsFor(task, seed);
        const scripted = Object.fromEntries(
          labs
            .slice(1)
            .reverse()
            .map((l, k) => [l, POLICY_NAMES[(seed + k) % POLICY_NAMES.length]!]),
        );
        for (const extra of [{}, { holdout: true }, { maxActionsPerRound: 3 }]) {
          const fast = createMatch({ task, seed, scripted, ...extra });
          const slow = createMatch({ task, seed, scripted: viaSchema(scripted), ...extra });
          assert.equal(JSON.stringify(fast), JSON.stringify(slow));
        }
      }
    }
  });

  test('invalid configs still fail with the schema error', () => {
    assert.throws(
      () => createMatch({ task: 'single_trade', seed: 0, scripted: { lab_7: 'selfish' } }),
      /no seat lab_7/,
    );
    assert.throws(() => createMatch({ task: 'single_trade', seed: -1 }));
    assert.throws(() => createMatch({ task: 'single_trade', seed: 0, maxActionsPerRound: 0 }));
    assert.throws(() => createMatch({ task: 'single_trade', seed: 0, scripted: { lab_1: 'nobody' as never } }));
  });

  test('ArenaEnv.reset gives the same match through the fast path and the schema', () => {
    for (const task of TASK_NAMES) {
      for (const seed of [0, 3, 99]) {
        const a = new ArenaEnv();
        const b = new ArenaEnv();
        const oa = a.reset({ task, seed, actionsPerRound: 2 });
        const ob = b.reset({ task, seed, actionsPerRound: 2, opponents: {} });
        assert.equal(JSON.stringify(oa), JSON.stringify(ob));
        assert.equal(JSON.stringify(a.state), JSON.stringify(b.state));
      }
    }
    assert.throws(() => new ArenaEnv().reset({ task: 'single_trade', seed: 1.5 }));
    assert.throws(() => new ArenaEnv().reset({ task: 'single_trade', seed: 0, actionsPerRound: 13 }));
  });
});
