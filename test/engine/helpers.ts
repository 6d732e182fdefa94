/**
 * Shared helpers of the engine tests: building scenarios from plain state edits, invariant checks.
 */
import assert from 'node:assert/strict';
import { applyAction, closeRound, createMatch } from '../../src/engine/index.js';
import type {
  ActionInput,
  JudgeDecision,
  MatchConfigInput,
  MatchState,
  StepOutput,
  TaskName,
} from '../../src/engine/index.js';

export function match(task: TaskName = 'market_round', seed = 1, extra: Partial<MatchConfigInput> = {}): MatchState {
  return createMatch({ task, seed, ...extra });
}

/** A deep copy edited by `f` (test setup only: the engine itself never deep-copies). */
export function edit(s: MatchState, f: (draft: MatchState) => void): MatchState {
  const c = structuredClone(s);
  f(c);
  return c;
}

export function act(s: MatchState, lab: string, a: ActionInput | unknown): StepOutput {
  return applyAction(s, lab, a);
}

/** Apply and assert success; returns the new state. */
export function must(s: MatchState, lab: string, a: ActionInput, code?: string): MatchState {
  const out = applyAction(s, lab, a);
  assert.equal(out.result.ok, true, `${JSON.stringify(a)} failed: ${out.result.code} ${out.result.message}`);
  if (code) assert.equal(out.result.code, code);
  return out.state;
}

/** Close a round without judging pitches (no scripted seats unless configured). */
export function close(s: MatchState, judge: JudgeDecision | null = null): MatchState {
  return closeRound(s, { judge }).state;
}

/** The state's JSON without the actor's seat stats and reputation (what an error may change). */
export function withoutActor(s: MatchState, lab: string): string {
  const c = structuredClone(s);
  delete (c.seats as Record<string, unknown>)[lab];
  c.labs[lab]!.reputation = 0;
  return JSON.stringify(c);
}

/**
 * Assert an action fails with `code`, changes nothing but the actor's stats/reputation, and is penalised
 * (−0.10, or −0.15 for malformed_action) unless `penalty` says otherwise.
 */
export function rejects(
  s: MatchState,
  lab: string,
  a: unknown,
  code: string,
  penalty = code === 'malformed_action' ? -0.15 : -0.1,
): StepOutput {
  const out = applyAction(s, lab, a);
  assert.equal(out.result.ok, false, `expected ${code}, got ok ${out.result.code}`);
  assert.equal(out.result.code, code, out.result.message);
  assert.equal(out.result.reward.invalid_action_penalty, penalty);
  assert.equal(withoutActor(out.state, lab), withoutActor(s, lab), 'an invalid action changed the state');
  assert.equal(out.state.seats[lab]!.invalidActions, s.seats[lab]!.invalidActions + 1);
  return out;
}

/** Σ budgets + Σ escrow. */
export function money(s: MatchState): number {
  let m = 0;
  for (const l of s.labIds) m += s.labs[l]!.budget;
  for (const c of Object.values(s.coalitions)) for (const cm of Object.values(c.commitments)) m += cm.escrow;
  return m;
}

/** The ledger identity of docs/RULES.md §4.5. */
export function assertMoney(s: MatchState): void {
  const expected = s.ledger.initialMoney + s.ledger.injected - s.ledger.burned;
  assert.ok(Math.abs(money(s) - expected) < 1e-6, `money ${money(s)} ≠ ${expected}`);
}

/** Structural invariants: ownership, single allocation, finite numbers, non-negative budgets, reward bounds. */
export function assertInvariants(s: MatchState): void {
  assertMoney(s);
  const labs = new Set(s.labIds);
  const seen = new Map<string, string>();
  for (const j of Object.values(s.jobs)) {
    for (const b of j.allocatedBlockIds) {
      assert.ok(!seen.has(b), `block ${b} allocated to ${seen.get(b)} and ${j.id}`);
      seen.set(b, j.id);
    }
  }
  for (const b of Object.values(s.blocks)) {
    assert.ok(labs.has(b.owner), `block ${b.id} owner ${b.owner}`);
    assert.equal(b.status === 'used', b.usedFor !== null, `block ${b.id} used/usedFor mismatch`);
    if (b.usedFor !== null) assert.equal(seen.get(b.id), b.usedFor, `block ${b.id} usedFor not in job`);
    assert.equal(b.status === 'committed', b.committedTo !== null, `block ${b.id} committed/committedTo mismatch`);
    assert.equal(b.status === 'reserved', b.reservedFor !== null, `block ${b.id} reserved/reservedFor mismatch`);
  }
  for (const id of seen.keys()) assert.equal(s.blocks[id]?.status, 'used', `${id} allocated but not used`);
  for (const l of s.labIds) {
    assert.ok(s.labs[l]!.budget >= 0, `${l} budget ${s.labs[l]!.budget}`);
    const seat = s.seats[l]!;
    assert.ok(seat.cumulativeReward >= -10 && seat.cumulativeReward <= 10);
    for (const b of [seat.lastBreakdown, seat.pendingReward])
      assert.ok(b.normalized_reward >= -1 && b.normalized_reward <= 1);
  }
  assertFinite(s, 'state');
}

export function assertFinite(x: unknown, path: string): void {
  if (typeof x === 'number') assert.ok(Number.isFinite(x), `${path} = ${x}`);
  else if (Array.isArray(x)) x.forEach((v, i) => assertFinite(v, `${path}[${i}]`));
  else if (x !== null && typeof x === 'object') for (const [k, v] of Object.entries(x)) assertFinite(v, `${path}.${k}`);
}

/** A block of `owner` with the given fields, for setting up scenarios. */
export function setBlock(s: MatchState, id: string, fields: Partial<MatchState['blocks'][string]>): void {
  Object.assign(s.blocks[id]!, fields);
}

/**
 * A market_round world (3 labs, 5 rounds) with every random value replaced by a known one, so tests do
 * not depend on generation: blocks 2 GPU-hours (2 × 1), reliability 0.9, energy 2; jobs need 4 h by
 * round 2, base 60 × urgency 1.5 (value 90), min reliability 0.8, no partial credit; budgets 100,
 * reputation 0.5; no shocks. Pass `task` for other sizes.
 */
export function fixture(task: TaskName = 'market_round', seed = 1, extra: Partial<MatchConfigInput> = {}): MatchState {
  return edit(match(task, seed, extra), (s) => {
    for (const b of Object.values(s.blocks))
      Object.assign(b, { gpuCount: 2, duration: 1, gpuHours: 2, reliability: 0.9, energyCost: 2 });
    for (const j of Object.values(s.jobs)) {
      Object.assign(j, {
        gpuHoursRequired: 4,
        deadlineRound: Math.min(2, s.params.maxRounds - 1),
        baseValue: 60,
        urgencyMultiplier: 1.5,
        minReliability: 0.8,
        partialCreditAllowed: false,
      });
    }
    for (const l of Object.values(s.labs)) Object.assign(l, { budget: 100, initialBudget: 100, reputation: 0.5 });
    s.ledger.initialMoney = 100 * s.labIds.length;
    s.shockSchedule = [];
  });
}
