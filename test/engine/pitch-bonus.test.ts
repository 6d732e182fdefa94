/**
 * The judge bonus is paid through realised value (docs/RULES.md §6.5): held on the jobs a winning pitch
 * argued for, paid × credit when they settle, forfeited otherwise.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyAction, closeRound, HELD_BONUS_CAP } from '../../src/engine/index.js';
import type { JudgeDecision, MatchState } from '../../src/engine/index.js';
import { assertInvariants, close, edit, fixture, must } from './helpers.js';

// fixture(): market_round, 3 labs; each lab has j_<i>_0 and j_<i>_1 (4 GPU-hours by round 2, value 90,
// no partial credit) and three 2-hour blocks b_<i>_0..2; no shocks.
const win = (lab: string, bonus: number, round = 0): JudgeDecision => ({
  round,
  judgeId: 'test',
  winner: lab,
  scores: [],
  bonus,
  reason: 'test',
});
const pitch = (
  s: MatchState,
  lab: string,
  jobIds: string[],
  message = 'Our job still needs four GPU-hours before round 2.',
) => must(s, lab, { action_type: 'make_pitch', message, job_ids: jobIds });
/** Close rounds without pitches until the state is at `round`; returns the state and the last report. */
const closeTo = (s: MatchState, round: number) => {
  let out = closeRound(s, { judge: null });
  while (out.state.round < round) out = closeRound(out.state, { judge: null });
  return out;
};

describe('a won pitch is held, then paid or forfeited at settlement', () => {
  const held = closeRound(pitch(fixture(), 'lab_0', ['j_0_0']), { judge: win('lab_0', 0.12) });

  test('at the close that judges it nothing is paid; the bonus waits on the argued job', () => {
    assert.equal(held.report.rewards.lab_0!.judge_argument, 0);
    assert.equal(held.state.jobs.j_0_0!.heldBonus, 0.12);
    assert.equal(held.state.jobs.j_0_1!.heldBonus, undefined, 'only the argued job holds it');
    assert.deepEqual(held.report.pitchBonus, [
      { round: 0, lab: 'lab_0', jobId: 'j_0_0', kind: 'held', amount: 0.12, reason: 'won', named: true },
    ]);
    assert.equal(JSON.parse(JSON.stringify(held.state)).jobs.j_0_0.heldBonus, 0.12, 'plain JSON state');
    assertInvariants(held.state);
  });

  test('the job completes: the held bonus is paid into judge_argument when it settles', () => {
    const done = must(held.state, 'lab_0', {
      action_type: 'allocate_to_job',
      job_id: 'j_0_0',
      block_ids: ['b_0_0', 'b_0_1'],
    });
    const mid = closeRound(done, { judge: null });
    assert.equal(mid.report.rewards.lab_0!.judge_argument, 0, 'still pending: not paid yet');
    const { report } = closeTo(mid.state, 3);
    assert.equal(report.rewards.lab_0!.judge_argument, 0.12);
    assert.deepEqual(report.pitchBonus, [
      { round: 2, lab: 'lab_0', jobId: 'j_0_0', kind: 'paid', amount: 0.12, reason: 'completed' },
    ]);
    assert.equal(report.rewards.lab_0!.job_utility, 0.5733); // 86 / 150
    assert.equal(report.rewards.lab_0!.normalized_reward, 0.3207, 'bonus 0.12 + 0.35 × 0.5733, 4 dp');
  });

  test('the job is missed: the bonus is forfeited, nothing paid', () => {
    const { state, report } = closeTo(held.state, 3);
    assert.equal(report.rewards.lab_0!.judge_argument, 0);
    assert.equal(state.seats.lab_0!.cumulativeReward, 0);
    assert.deepEqual(report.pitchBonus, [
      { round: 2, lab: 'lab_0', jobId: 'j_0_0', kind: 'forfeited', amount: 0.12, reason: 'missed' },
    ]);
  });

  test('partial credit pays the held bonus × allocated/required; the rest is forfeited', () => {
    const s0 = edit(fixture(), (d) => void (d.jobs.j_0_0!.partialCreditAllowed = true));
    const h = closeRound(pitch(s0, 'lab_0', ['j_0_0']), { judge: win('lab_0', 0.12) }).state;
    const half = must(h, 'lab_0', { action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: ['b_0_0'] });
    const { report } = closeTo(half, 3);
    assert.equal(report.rewards.lab_0!.judge_argument, 0.06);
    assert.deepEqual(
      report.pitchBonus!.map((e) => [e.kind, e.amount, e.reason]),
      [
        ['paid', 0.06, 'partial'],
        ['forfeited', 0.06, 'partial'],
      ],
    );
  });

  test('finishing settles the job: the held bonus is paid in the finish step', () => {
    const done = must(held.state, 'lab_0', {
      action_type: 'allocate_to_job',
      job_id: 'j_0_0',
      block_ids: ['b_0_0', 'b_0_1'],
    });
    const out = applyAction(done, 'lab_0', { action_type: 'finish' });
    assert.equal(out.result.reward.judge_argument, 0.12);
  });
});

describe('what a winning pitch can hold', () => {
  test('a pitch naming only a job that is already fully allocated holds nothing (covered)', () => {
    const covered = must(fixture(), 'lab_0', {
      action_type: 'allocate_to_job',
      job_id: 'j_0_0',
      block_ids: ['b_0_0', 'b_0_1'],
    });
    const { state, report } = closeRound(pitch(covered, 'lab_0', ['j_0_0']), { judge: win('lab_0', 0.1) });
    assert.equal(state.jobs.j_0_0!.heldBonus, undefined);
    assert.deepEqual(report.pitchBonus, [
      { round: 0, lab: 'lab_0', jobId: 'j_0_0', kind: 'forfeited', amount: 0.1, reason: 'covered', named: true },
    ]);
    const { report: end } = closeTo(state, 3);
    assert.equal(end.rewards.lab_0!.judge_argument, 0, 'completing a job nobody argued for pays no bonus');
  });

  test('a pitch naming no job holds its bonus on the jobs its verified claims matched, split evenly', () => {
    const { state } = closeRound(pitch(fixture(), 'lab_1', []), { judge: win('lab_1', 0.1) });
    assert.deepEqual([state.jobs.j_1_0!.heldBonus, state.jobs.j_1_1!.heldBonus], [0.05, 0.05]);
  });

  test('a job text id counts as named; an odd split gives the first job the remainder', () => {
    const s = pitch(fixture(), 'lab_2', [], 'Jobs j_2_0 and j_2_1 both still need capacity before round 2.');
    const { state } = closeRound(s, { judge: win('lab_2', 0.1001) });
    assert.deepEqual([state.jobs.j_2_0!.heldBonus, state.jobs.j_2_1!.heldBonus], [0.0501, 0.05]);
  });

  test(`one job holds at most ${HELD_BONUS_CAP} over the match; the excess is forfeited`, () => {
    const first = closeRound(pitch(fixture(), 'lab_0', ['j_0_0']), { judge: win('lab_0', 0.1) }).state;
    const { state, report } = closeRound(
      pitch(first, 'lab_0', ['j_0_0'], 'Job j_0_0 is still short: four GPU-hours by round 2.'),
      { judge: win('lab_0', 0.1, 1) },
    );
    assert.equal(state.jobs.j_0_0!.heldBonus, HELD_BONUS_CAP);
    assert.deepEqual(
      report.pitchBonus!.map((e) => [e.kind, e.amount, e.reason]),
      [
        ['held', 0.05, 'won'],
        ['forfeited', 0.05, 'cap'],
      ],
    );
  });

  test('a decision for a seat that did not pitch holds nothing (no_job)', () => {
    const { state, report } = closeRound(fixture(), { judge: win('lab_0', 0.1) });
    assert.ok(Object.values(state.jobs).every((j) => j.heldBonus === undefined));
    assert.deepEqual(report.pitchBonus, [
      { round: 0, lab: 'lab_0', jobId: null, kind: 'forfeited', amount: 0.1, reason: 'no_job', named: false },
    ]);
  });

  test('without a decision nothing is held', () => {
    const s = close(pitch(fixture(), 'lab_0', ['j_0_0']));
    assert.equal(s.jobs.j_0_0!.heldBonus, undefined);
  });
});

describe('what other seats see of a pitch bonus (gym seatReport)', () => {
  test('an unnamed argued job stays private to its seat; a named one is public', async () => {
    const { seatReport } = await import('../../src/engine/gym.js');
    const unnamed = closeRound(pitch(fixture(), 'lab_1', []), { judge: win('lab_1', 0.1) }).report;
    assert.deepEqual(seatReport(unnamed, 'lab_0').pitchBonus, []);
    assert.equal(seatReport(unnamed, 'lab_1').pitchBonus!.length, 2);
    const named = closeRound(pitch(fixture(), 'lab_1', ['j_1_0']), { judge: win('lab_1', 0.1) }).report;
    assert.deepEqual(
      seatReport(named, 'lab_0').pitchBonus!.map((e) => e.jobId),
      ['j_1_0'],
    );
  });
});
