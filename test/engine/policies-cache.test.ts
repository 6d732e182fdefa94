/**
 * The policies keep a one-entry cache keyed by the identity of the engine's shared public-block list
 * (desk.ts block lookups) and parse offer notes once per text (market.ts). These tests check that a
 * decision never depends on what was looked at before: the same observation gives the same actions
 * cold, warm, after another observation, and as a structured clone (fresh identities), and block lookups
 * agree before and after the lookup index is built.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ArenaEnv } from '../../src/engine/gym.js';
import { applyAction, observe, rng } from '../../src/engine/index.js';
import { POLICIES, getPolicy } from '../../src/engine/policies/index.js';
import { TASK_NAMES } from '../../src/engine/types.js';
import type { Observation } from '../../src/engine/views.js';
import { block, job, observation, offer } from './policy-fixtures.js';

function deepFreeze<T>(x: T): T {
  if (x && typeof x === 'object' && !Object.isFrozen(x)) {
    Object.freeze(x);
    for (const v of Object.values(x)) deepFreeze(v);
  }
  return x;
}

/** Observations as scripted seats see them at round close (each after the seats before it acted). */
function scriptedObservations(): { obs: Observation; seed: number; lab: string }[] {
  const out: { obs: Observation; seed: number; lab: string }[] = [];
  const expert = getPolicy('rule_based_expert');
  for (const task of TASK_NAMES) {
    for (let seed = 0; seed < 3; seed++) {
      const env = new ArenaEnv();
      let obs = env.reset({ task, seed });
      while (!env.done) {
        const a = expert(obs, { rng: rng(seed, obs.round, 'policy:lab_0'), holdout: false })[0] ?? {
          action_type: 'wait',
        };
        let s = applyAction(env.state, 'lab_0', a).state;
        for (const lab of s.labIds) {
          const name = s.config.scripted[lab];
          if (!name || s.over || s.labs[lab]!.finished) continue;
          const o = observe(s, lab);
          out.push({ obs: o, seed, lab });
          for (const x of getPolicy(name)(o, { rng: rng(seed, s.round, `policy:${lab}`), holdout: false }))
            s = applyAction(s, lab, x).state;
        }
        obs = env.step(a).observation;
      }
    }
  }
  return out;
}

describe('policy caches never change a decision', () => {
  const cases = scriptedObservations();
  for (const c of cases) deepFreeze(c.obs);

  test('same actions cold, warm, in any order and for a structured clone', () => {
    assert.ok(cases.length > 100, `${cases.length} observations`);
    for (const info of POLICIES) {
      const run = (o: Observation, k: number) =>
        info.policy(o, { rng: rng(cases[k]!.seed, o.round, `policy:${cases[k]!.lab}`), holdout: k % 2 === 1 });
      const expected = cases.map((c, k) => run(structuredClone(c.obs), k));
      const forward = cases.map((c, k) => run(c.obs, k));
      const backward = cases.map((_, k) => cases.length - 1 - k).map((k) => [k, run(cases[k]!.obs, k)] as const);
      for (let k = 0; k < cases.length; k++) {
        assert.deepEqual(forward[k], expected[k], `${info.name} #${k} forward`);
        assert.deepEqual(run(cases[k]!.obs, k), expected[k], `${info.name} #${k} warm`);
      }
      for (const [k, actions] of backward) assert.deepEqual(actions, expected[k], `${info.name} #${k} backward`);
    }
  });

  test("a caller's own copy edited in place decides like a fresh copy (nothing cached for unfrozen data)", () => {
    // Another lab's available blocks become used, and offer notes name other blocks: a cache keyed by
    // the identity of the (unfrozen) list or message would answer for the market before the edit.
    const sample = cases.filter((_, k) => k % 3 === 0);
    let changed = 0;
    for (const info of POLICIES) {
      for (let k = 0; k < sample.length; k++) {
        const c = sample[k]!;
        const run = (o: Observation) =>
          info.policy(o, { rng: rng(c.seed, o.round, `policy:${c.lab}`), holdout: false });
        const own = structuredClone(c.obs);
        const before = run(own);
        for (const b of own.blocks)
          if (b.owner !== c.lab && b.status === 'available') (b as { status: string }).status = 'used';
        for (const m of own.messages)
          if (m.kind === 'offer') (m as { text: string }).text = m.text.replace(/\bb_(\d+)_(\d+)\b/g, 'b_$2_$1');
        const after = run(own);
        assert.deepEqual(after, run(structuredClone(own)), `${info.name} #${k}`);
        if (JSON.stringify(after) !== JSON.stringify(before)) changed += 1;
      }
    }
    assert.ok(changed > 0, 'the edits change some decisions (else this test proves nothing)');
  });

  test('a market seen before does not leak into the next decision', () => {
    // Two markets that differ only in which block lab_1 has for sale: the expert buys that block.
    const market = (id: string) =>
      deepFreeze(observation({ jobs: [job('j_0_0', 'lab_0', 4, 2)], blocks: [block(id, 'lab_1', 4)] }));
    const requested = (obs: Observation) =>
      getPolicy('rule_based_expert')(obs, { rng: () => 0.5, holdout: false }).flatMap((a) =>
        a.action_type === 'send_offer' ? a.requested_block_ids : [],
      );
    const a = market('b_1_0');
    const b = market('b_1_7');
    for (let k = 0; k < 3; k++) {
      assert.deepEqual(requested(a), ['b_1_0']);
      assert.deepEqual(requested(b), ['b_1_7']);
    }
  });

  test('block lookups agree before and after the lookup index is built, and per market', () => {
    // Six gifts (a block and a payment each) and, last, a richer offer of a block that does not exist:
    // the expert looks up every offered block twice, so the later lookups go through the index.
    const gifts = [
      ...[0, 1, 2, 3, 4, 5].map((k) =>
        offer(`o_${k + 1}`, 'lab_1', 'lab_0', { offeredBlockIds: [`b_1_${k}`], payment: k + 1 }),
      ),
      offer('o_7', 'lab_1', 'lab_0', { offeredBlockIds: ['b_9_9'], payment: 50 }),
    ];
    const own = block('b_0_0', 'lab_0', 2);
    const withBlocks = deepFreeze(
      observation({
        jobs: [job('j_0_0', 'lab_0', 8, 3)],
        blocks: [own, ...[0, 1, 2, 3, 4, 5].map((k) => block(`b_1_${k}`, 'lab_1', 2))],
        offers: gifts,
      }),
    );
    // The same offers in a market where lab_1's blocks are gone: nothing can execute.
    const without = deepFreeze(observation({ jobs: [job('j_0_0', 'lab_0', 8, 3)], blocks: [own], offers: gifts }));
    const accepted = (obs: Observation) =>
      getPolicy('rule_based_expert')(obs, { rng: () => 0.5, holdout: false }).flatMap((a) =>
        a.action_type === 'accept_offer' ? [a.offer_id] : [],
      );
    for (let k = 0; k < 3; k++) {
      assert.deepEqual(accepted(withBlocks), ['o_6', 'o_5']);
      assert.deepEqual(accepted(without), []);
    }
  });
});
