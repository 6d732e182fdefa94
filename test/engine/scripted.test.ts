/**
 * Whole matches with scripted seats (src/engine/policies) and the rule judge (src/engine/judge/rule-judge.ts):
 * invariants after every close, observations stay private, the judge's bonus reaches the winner.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyAction, closeRound, createMatch, labIdsFor, POLICY_NAMES, TASK_NAMES } from '../../src/engine/index.js';
import type { MatchState, PolicyName } from '../../src/engine/index.js';
import { assertInvariants } from './helpers.js';
import { assertPrivate } from './privacy.js';

function allScripted(task: (typeof TASK_NAMES)[number], seed: number, offset: number): MatchState {
  const scripted: Record<string, PolicyName> = {};
  labIdsFor(task, seed).forEach((l, i) => (scripted[l] = POLICY_NAMES[(i + offset) % POLICY_NAMES.length]!));
  return createMatch({ task, seed, scripted });
}

describe('scripted matches', () => {
  test('every policy plays every task to the end with the ledger and structure intact', () => {
    let closes = 0;
    let scriptedActions = 0;
    for (const task of TASK_NAMES) {
      for (let seed = 0; seed < 6; seed++) {
        let s = allScripted(task, seed, seed);
        let rounds = 0;
        while (!s.over) {
          const { state, report } = closeRound(s);
          s = state;
          rounds += 1;
          closes += 1;
          scriptedActions += report.scriptedActions.length;
          assertInvariants(s);
          for (const lab of s.labIds) {
            assertPrivate(s, lab);
            assert.ok(report.rewards[lab]!.normalized_reward >= -1 && report.rewards[lab]!.normalized_reward <= 1);
          }
          assert.ok(rounds <= s.params.maxRounds, 'the match must end by its last round');
        }
        assert.ok(
          s.labIds.every((l) =>
            Object.values(s.jobs)
              .filter((j) => j.owner === l)
              .every((j) => j.outcome !== 'pending'),
          ),
        );
      }
    }
    assert.ok(closes > 50 && scriptedActions > 100, `${closes} closes, ${scriptedActions} scripted actions`);
  });
  test("without a decision the rule judge decides; its winner's bonus is held on the job it argued for", () => {
    let s = createMatch({ task: 'market_round', seed: 5 });
    s = applyAction(s, 'lab_0', {
      action_type: 'make_pitch',
      message: `We need ${s.jobs.j_0_0!.gpuHoursRequired} GPU-hours for j_0_0 by round ${s.jobs.j_0_0!.deadlineRound}.`,
      job_ids: ['j_0_0'],
    }).state;
    const { state, report } = closeRound(s);
    assert.ok(report.judge, 'a decision');
    assert.equal(report.judge!.judgeId, 'rule_judge_v2');
    assert.equal(report.judge!.winner, 'lab_0');
    assert.equal(report.rewards.lab_0!.judge_argument, 0, 'nothing paid before the job settles');
    assert.ok(state.jobs.j_0_0!.heldBonus! >= 0.05);
    assert.deepEqual(report.pitchBonus, [
      {
        round: 0,
        lab: 'lab_0',
        jobId: 'j_0_0',
        kind: 'held',
        amount: state.jobs.j_0_0!.heldBonus,
        reason: 'won',
        named: true,
      },
    ]);
    assert.equal(state.judgeHistory.length, 1);
    assert.equal(closeRound(state).report.judge, null, 'no pitch, no decision');
  });
  test('a finished scripted seat no longer acts; the match ends when every seat finished', () => {
    let s = createMatch({ task: 'single_trade', seed: 2, scripted: { lab_1: 'rule_based_expert' } });
    s = applyAction(s, 'lab_1', { action_type: 'finish' }).state;
    const { report, state } = closeRound(s);
    assert.equal(report.scriptedActions.length, 0);
    const done = applyAction(state, 'lab_0', { action_type: 'finish' }).state;
    assert.equal(done.over, true);
  });
});
