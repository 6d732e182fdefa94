/**
 * applyTurn (step.ts), the scripted seats' path through one draft per turn, gives exactly what
 * applyAction one action at a time gives: every result (rewards, entries, created ids, codes) and the
 * state after the turn, for valid, failing and hostile actions alike, including the turns whose failing
 * action makes it start over; it never writes into the state it starts from.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  applyAction,
  closeRound,
  createMatch,
  labIdsFor,
  observe,
  POLICY_NAMES,
  rng,
  TASK_NAMES,
} from '../../src/engine/index.js';
import { getPolicy, MAX_SCRIPTED_ACTIONS } from '../../src/engine/policies/index.js';
import type { ActionResult, MatchState, TaskName } from '../../src/engine/index.js';
import { applyTurn } from '../../src/engine/step.js';
import { action, buildAction, step } from './arbitraries.js';
import type { Smart, Step } from './arbitraries.js';
import { must } from './helpers.js';

function deepFreeze<T>(x: T): T {
  if (x !== null && typeof x === 'object' && !Object.isFrozen(x)) {
    Object.freeze(x);
    for (const v of Object.values(x)) deepFreeze(v);
  }
  return x;
}

/** What applyAction one by one gives, with runScripted's stopping rule (match over, seat finished). */
function oneByOne(
  s: MatchState,
  lab: string,
  actions: readonly unknown[],
): { state: MatchState; results: ActionResult[] } {
  const results: ActionResult[] = [];
  let t = s;
  for (const a of actions) {
    const out = applyAction(t, lab, a);
    t = out.state;
    results.push(out.result);
    if (t.over || t.labs[lab]!.finished) break;
  }
  return { state: t, results };
}

/** Assert that applyTurn of `actions` on a frozen `s` equals applyAction one by one; returns the state after. */
function sameTurn(s: MatchState, lab: string, actions: readonly unknown[]): MatchState {
  const want = oneByOne(s, lab, actions);
  const results: ActionResult[] = [];
  const state = applyTurn(deepFreeze(s), lab, actions, actions.length, results);
  assert.deepEqual(results, want.results);
  assert.deepEqual(state, want.state);
  // Same keys in the same order, as the results hash of the bench compares JSON.
  assert.equal(JSON.stringify(state), JSON.stringify(want.state));
  assert.equal(JSON.stringify(results), JSON.stringify(want.results));
  return state;
}

/** A state after a few random steps and closes (as the property test builds them). */
function stateAfter(task: TaskName, seed: number, steps: Step[]): MatchState {
  const labs = labIdsFor(task, seed);
  let s = createMatch({ task, seed });
  for (const st of steps) {
    if (st.kind === 'close') s = closeRound(s, st.judge === 'rule' ? {} : { judge: null }).state;
    else {
      const lab = labs[st.seat % labs.length]!;
      s = applyAction(s, lab, st.kind === 'act' ? st.action : buildAction(s, lab, st.smart)).state;
    }
    if (s.over) break;
  }
  return s;
}

const smart: fc.Arbitrary<Smart> = fc.record({
  type: fc.nat({ max: 40 }),
  picks: fc.array(fc.nat({ max: 1000 }), { minLength: 6, maxLength: 6 }),
  amount: fc.nat({ max: 60 }),
  hostile: fc.nat({ max: 9 }),
  text: fc.constantFrom('We need 4 GPU-hours for our job by round 2.', 'deal?', 'hello'),
});

describe('applyTurn', () => {
  for (const task of TASK_NAMES) {
    test(`${task}: equals applyAction one by one on random turns`, () => {
      fc.assert(
        fc.property(
          fc.nat({ max: 1_000_000 }),
          fc.array(step, { maxLength: 12 }),
          fc.nat({ max: 4 }),
          // A turn's actions are planned on the state it starts from (as a policy plans them).
          fc.array(
            fc.oneof(
              { weight: 3, arbitrary: smart.map((g) => ({ g })) },
              { weight: 1, arbitrary: action.map((a) => ({ a })) },
            ),
            { maxLength: 4 },
          ),
          (seed, steps, seat, plan) => {
            const s = stateAfter(task, seed, steps);
            const lab = s.labIds[seat % s.labIds.length]!;
            const actions = plan.map((p) => ('g' in p ? buildAction(s, lab, p.g) : p.a));
            sameTurn(s, lab, actions);
          },
        ),
        { numRuns: Number(process.env.ARENA_TURN_RUNS) || 600 },
      );
    });
  }

  test('equals applyAction one by one on the turns of every scripted policy', () => {
    for (const task of TASK_NAMES)
      for (let seed = 0; seed < 3 * POLICY_NAMES.length; seed++) {
        const labs = labIdsFor(task, seed);
        // Every seat plays a policy, the policies rotating over the seats and seeds.
        const scripted = Object.fromEntries(labs.map((l, i) => [l, POLICY_NAMES[(seed + i) % POLICY_NAMES.length]!]));
        let s = createMatch({ task, seed, scripted });
        while (!s.over) {
          // The seats' turns in order, each on the state the previous one left (as runScripted plays them).
          let t = s;
          for (const lab of labs) {
            if (t.over || t.labs[lab]!.finished) continue;
            const planned = getPolicy(scripted[lab]!)(observe(t, lab), {
              rng: rng(seed, t.round, `policy:${lab}`),
              holdout: false,
            });
            t = sameTurn(t, lab, planned.slice(0, MAX_SCRIPTED_ACTIONS));
          }
          s = closeRound(s).state;
        }
      }
  });

  test('a failing action after a write starts the turn over with the same results', () => {
    const s = createMatch({ task: 'market_round', seed: 3 });
    const lab = s.labIds[1]!;
    const block = Object.values(s.blocks).find((b) => b.owner === lab)!.id;
    // The reservation writes into the turn's draft; the unknown job then fails without `keep`.
    sameTurn(s, lab, [
      { action_type: 'reserve_capacity', block_ids: [block] },
      { action_type: 'allocate_to_job', job_id: 'j_9_9', block_ids: [block] },
      { action_type: 'send_message', target_lab_id: null, message: 'still here' },
    ]);
  });

  test('stops after finish, keeps a failed trade execution, and marks invalid input', () => {
    let s = createMatch({ task: 'market_round', seed: 5 });
    const [a, b] = [s.labIds[0]!, s.labIds[1]!];
    const mine = Object.values(s.blocks).find((x) => x.owner === a)!.id;
    s = must(s, a, { action_type: 'send_offer', target_lab_id: b, block_ids: [mine], payment: 0 });
    // The sender gives the block away first: accepting then fails with `keep` (offer invalid).
    const c = s.labIds[2]!;
    s = must(s, a, { action_type: 'send_offer', target_lab_id: c, block_ids: [mine] });
    s = must(s, c, { action_type: 'accept_offer', offer_id: 'o_2' });
    sameTurn(s, b, [
      { action_type: 'accept_offer', offer_id: 'o_1' },
      '{not json',
      { action_type: 'finish' },
      { action_type: 'wait' },
    ]);
  });
});
