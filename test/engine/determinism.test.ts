/**
 * Determinism and purity (docs/RULES.md §0): same config + seed + inputs ⇒ identical JSON; inputs are
 * never mutated (checked by deep-freezing every state the engine receives).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyAction, closeRound, createMatch, labIdsFor, TASK_NAMES } from '../../src/engine/index.js';
import type { ActionInput, MatchState, PolicyName, TaskName } from '../../src/engine/index.js';

function deepFreeze<T>(x: T): T {
  if (x !== null && typeof x === 'object' && !Object.isFrozen(x)) {
    Object.freeze(x);
    for (const v of Object.values(x)) deepFreeze(v);
  }
  return x;
}

const SCRIPT: ActionInput[] = [
  { action_type: 'make_pitch', message: 'We need 4 GPU-hours for our job before round 2.' },
  { action_type: 'send_offer', target_lab_id: 'lab_1', block_ids: ['b_0_0'], payment: 4 },
  { action_type: 'reserve_capacity', block_ids: ['b_0_1'] },
  { action_type: 'wait' },
];

function play(task: TaskName, seed: number, freeze: boolean): MatchState {
  const arch: PolicyName[] = ['cooperative', 'selfish', 'deadline_panicked', 'deceptive', 'retaliatory'];
  const scripted: Record<string, PolicyName> = {};
  labIdsFor(task, seed)
    .slice(1)
    .forEach((l, i) => (scripted[l] = arch[i % arch.length]!));
  let s = createMatch({ task, seed, scripted });
  let i = 0;
  while (!s.over) {
    if (freeze) deepFreeze(s);
    s = applyAction(s, 'lab_0', SCRIPT[i++ % SCRIPT.length]).state;
    if (freeze) deepFreeze(s);
    s = closeRound(s).state;
  }
  return s;
}

describe('determinism', () => {
  test('same seed and inputs twice (scripted seats, rule judge) give identical JSON', () => {
    for (const task of TASK_NAMES)
      for (const seed of [0, 7, 123])
        assert.equal(JSON.stringify(play(task, seed, false)), JSON.stringify(play(task, seed, false)));
  });
  test('the engine never mutates its input (deep-frozen states)', () => {
    for (const task of TASK_NAMES)
      for (const seed of [1, 2])
        assert.equal(JSON.stringify(play(task, seed, true)), JSON.stringify(play(task, seed, false)));
  });
  test('different seeds give different worlds', () => {
    for (const task of TASK_NAMES) {
      const worlds = new Set([0, 1, 2, 3, 4].map((seed) => JSON.stringify(createMatch({ task, seed }).jobs)));
      assert.equal(worlds.size, 5);
    }
  });
  test('a state survives a JSON round trip: replay continues identically', () => {
    let a = createMatch({ task: 'market_round', seed: 9, scripted: { lab_1: 'cooperative', lab_2: 'selfish' } });
    a = closeRound(applyAction(a, 'lab_0', SCRIPT[1]).state).state;
    const b = JSON.parse(JSON.stringify(a)) as MatchState;
    const na = closeRound(applyAction(a, 'lab_0', SCRIPT[0]).state).state;
    const nb = closeRound(applyAction(b, 'lab_0', SCRIPT[0]).state).state;
    assert.equal(JSON.stringify(na), JSON.stringify(nb));
  });
});
