/**
 * Reward validity, column by column (docs/RULES.md §4.1 "what a seat must realise"): a seat that does
 * nothing useful earns 0 on every column (penalties and idle reservations can only cost). One scenario
 * per column on the fixed fixture, then every do-nothing probe over real generated matches.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { addBreakdowns, applyAction, closeRound, emptyBreakdown, REWARD_COLUMNS } from '../../src/engine/index.js';
import type { ActionInput, JudgeDecision, MatchState, RewardBreakdown, RewardColumn } from '../../src/engine/index.js';
import { PROBES } from '../../src/engine/policies/index.js';
import { runPolicyEpisode } from '../../src/eval/runner.js';
import { getPolicy } from '../../src/engine/policies/index.js';
import { TASK_NAMES } from '../../src/engine/types.js';
import { edit, fixture, must } from './helpers.js';

const win = (lab: string, round: number): JudgeDecision => ({
  round,
  judgeId: 'test',
  winner: lab,
  scores: [],
  bonus: 0.15,
  reason: 'test',
});

/**
 * Play the fixture to its end: each round `lab` takes `acts(state)` (every one must succeed), then the
 * round closes with `judge(round)`. Returns `lab`'s column-wise total over its steps and closes.
 */
function play(
  s0: MatchState,
  lab: string,
  acts: (s: MatchState) => ActionInput[],
  judge: (round: number) => JudgeDecision | null = () => null,
): RewardBreakdown {
  let s = s0;
  let total = emptyBreakdown();
  while (!s.over) {
    for (const a of acts(s)) {
      const out = applyAction(s, lab, a);
      assert.equal(out.result.ok, true, `${a.action_type}: ${out.result.code}`);
      total = addBreakdowns(total, out.result.reward);
      s = out.state;
    }
    const { state, report } = closeRound(s, { judge: judge(s.round) });
    total = addBreakdowns(total, report.rewards[lab]!);
    s = state;
  }
  return total;
}

/** Columns that pay for something (everything but the three penalties). */
const EARNING: RewardColumn[] = [
  'job_utility',
  'deal_quality',
  'coalition_reliability',
  'judge_argument',
  'budget_efficiency',
  'negotiation_efficiency',
  'market_adaptation',
];

describe('each column pays only for realised value', () => {
  test('job_utility: a seat that never allocates gets 0; reserving blocks without using them only costs', () => {
    assert.equal(play(fixture(), 'lab_0', () => []).job_utility, 0);
    const reserve = (s: MatchState): ActionInput[] =>
      s.round === 0 ? [{ action_type: 'reserve_capacity', block_ids: ['b_0_0', 'b_0_1'], job_id: 'j_0_0' }] : [];
    assert.equal(play(fixture(), 'lab_0', reserve).job_utility, -0.1, 'two idle reservations at −0.05');
  });

  test('deal_quality: capacity bought for a job and never used nets ≤ 0 over the match', () => {
    let s = must(fixture(), 'lab_0', {
      action_type: 'send_offer',
      target_lab_id: 'lab_1',
      requested_block_ids: ['b_1_2'],
      payment: 5,
    });
    s = must(s, 'lab_1', { action_type: 'accept_offer', offer_id: 'o_1' });
    const total = play(s, 'lab_0', () => []);
    // The trade's credit (paid at the first close) is taken back when the jobs settle unrealised.
    assert.ok(total.deal_quality <= 0, `deal_quality ${total.deal_quality}`);
    assert.equal(play(fixture(), 'lab_0', () => []).deal_quality, 0, 'no trade, nothing');
  });

  test('coalition_reliability: consent or escrow alone earns 0, even when the pool serves a partner', () => {
    // lab_0 proposes to lab_1 and lab_2; lab_2 only pays 5 credits; lab_1 commits blocks; lab_0 uses one.
    let s = must(fixture(), 'lab_0', {
      action_type: 'form_coalition',
      target_lab_ids: ['lab_1', 'lab_2'],
      duration: 1,
    });
    s = must(s, 'lab_0', { action_type: 'commit_to_coalition', coalition_id: 'c_1', payment: 5 });
    s = must(s, 'lab_2', { action_type: 'commit_to_coalition', coalition_id: 'c_1', payment: 5 });
    s = must(
      s,
      'lab_1',
      { action_type: 'commit_to_coalition', coalition_id: 'c_1', block_ids: ['b_1_0', 'b_1_1'] },
      'coalition_activated',
    );
    s = must(s, 'lab_0', { action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: ['b_0_0', 'b_1_0'] });
    const { report } = closeRound(s, { judge: null });
    assert.deepEqual(
      ['lab_0', 'lab_1', 'lab_2'].map((l) => report.rewards[l]!.coalition_reliability),
      [1, 1, 0],
      'the user (paid in) and the supplier earn it; the escrow-only member does not',
    );
  });

  test('judge_argument: winning every round with true pitches but doing no work earns 0', () => {
    const pitchOnly = (s: MatchState): ActionInput[] => {
      const open = s.jobs.j_0_0!.outcome === 'pending' ? 'j_0_0' : null;
      return open
        ? [
            {
              action_type: 'make_pitch',
              message: `Job j_0_0 still needs 4 GPU-hours by round 2 (round ${s.round}).`,
              job_ids: [open],
            },
          ]
        : [];
    };
    const total = play(fixture(), 'lab_0', pitchOnly, (r) => win('lab_0', r));
    assert.equal(total.judge_argument, 0);
    assert.equal(total.normalized_reward, 0);
  });

  test('budget_efficiency: a full budget with no completed job earns 0', () => {
    assert.equal(play(fixture(), 'lab_0', () => []).budget_efficiency, 0);
  });

  test('negotiation_efficiency: a trade whose block never completes a job earns 0 for both sides', () => {
    let s = must(fixture(), 'lab_0', {
      action_type: 'send_offer',
      target_lab_id: 'lab_1',
      requested_block_ids: ['b_1_2'],
      payment: 5,
    });
    s = must(s, 'lab_1', { action_type: 'accept_offer', offer_id: 'o_1' });
    assert.equal(play(s, 'lab_0', () => []).negotiation_efficiency, 0);
    assert.equal(play(s, 'lab_1', () => []).negotiation_efficiency, 0);
  });

  test('market_adaptation: being hit by a shock earns 0 unless the touched job completes', () => {
    const shocked = edit(fixture(), (d) => void (d.shockSchedule = [{ round: 0, kind: 'energy_spike' }]));
    assert.equal(play(shocked, 'lab_0', () => []).market_adaptation, 0);
  });

  test('the penalties never pay: a seat that only waits ends with every column at 0', () => {
    const total = play(fixture(), 'lab_0', () => [{ action_type: 'wait' }]);
    for (const c of REWARD_COLUMNS) assert.equal(total[c], 0, c);
    assert.equal(total.normalized_reward, 0);
  });
});

describe('do-nothing probes earn nothing on any paying column (generated matches)', () => {
  for (const task of TASK_NAMES) {
    test(task, () => {
      for (const name of PROBES) {
        const total = emptyBreakdown();
        for (let seed = 0; seed < 30; seed++) {
          const b = runPolicyEpisode(getPolicy(name), { task, seed }).breakdown;
          for (const c of EARNING) total[c] += b[c];
        }
        for (const c of EARNING) assert.ok(total[c] <= 0, `${name} earned ${total[c]} on ${c} in ${task}`);
      }
    });
  }
});
