/**
 * Round-close lines about pitch bonuses (src/present/pitch-pay.ts): public lines say when and why a
 * pitch win pays and never reveal a private value; details go to the seat's private lines.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeRound } from '../../src/engine/index.js';
import type { JudgeDecision, MatchState } from '../../src/engine/index.js';
import { PITCH_PAY_RULE, pitchPayLines } from '../../src/present/pitch-pay.js';
import type { HostedMatch } from '../../src/match/types.js';
import { edit, fixture, must } from '../engine/helpers.js';

const win = (lab: string, bonus: number, round = 0): JudgeDecision => ({
  round,
  judgeId: 'test',
  winner: lab,
  scores: [],
  bonus,
  reason: 'test',
});
const hosted = (state: MatchState): HostedMatch =>
  ({
    id: 'm1',
    channelId: 'c1',
    platform: 'console',
    hostUserId: 'u1',
    settings: {},
    phase: 'running',
    drivers: {},
    done: [],
    state,
    roundDeadline: null,
    lastSeq: 0,
    lastJudge: null,
    ballots: [],
    endedAt: null,
  }) as unknown as HostedMatch;
const closeTo = (s: MatchState, round: number) => {
  let out = closeRound(s, { judge: null });
  while (out.state.round < round) out = closeRound(out.state, { judge: null });
  return out;
};

describe('pitch pay lines', () => {
  const pitched = must(fixture(), 'lab_0', {
    action_type: 'make_pitch',
    message: 'Job j_0_1 still needs four GPU-hours by round 2.',
    job_ids: ['j_0_1'],
  });
  const held = closeRound(pitched, { judge: win('lab_0', 0.1) });

  test('a win names the job the pitch named and says the bonus waits for it', () => {
    const lines = pitchPayLines(hosted(held.state), held.report);
    assert.deepEqual(lines.public, ['Lab A won the pitch: +0.100 held until j_0_1 settles.', PITCH_PAY_RULE]);
    assert.deepEqual(lines.private, {});
  });

  test('paid when the job completes; forfeited when it is missed', () => {
    const done = must(held.state, 'lab_0', {
      action_type: 'allocate_to_job',
      job_id: 'j_0_1',
      block_ids: ['b_0_0', 'b_0_1'],
    });
    const paid = closeTo(done, 3);
    assert.deepEqual(pitchPayLines(hosted(paid.state), paid.report).public, [
      'Held pitch bonus for j_0_1 paid to Lab A: +0.100 (job completed).',
    ]);
    const missed = closeTo(held.state, 3);
    assert.deepEqual(pitchPayLines(hosted(missed.state), missed.report).public, [
      'Held pitch bonus for j_0_1 forfeited by Lab A: j_0_1 missed (+0.100 lost).',
    ]);
  });

  test('a partial payment: the amount (it reveals the allocated share) is private', () => {
    const s0 = edit(pitched, (d) => void (d.jobs.j_0_1!.partialCreditAllowed = true));
    const h = closeRound(s0, { judge: win('lab_0', 0.1) }).state;
    const half = must(h, 'lab_0', { action_type: 'allocate_to_job', job_id: 'j_0_1', block_ids: ['b_0_0'] });
    const { state, report } = closeTo(half, 3);
    const lines = pitchPayLines(hosted(state), report);
    assert.deepEqual(lines.public, ['Held pitch bonus for j_0_1 partly paid to Lab A (partial credit).']);
    assert.deepEqual(lines.private, {
      lab_0: ['Held bonus for j_0_1: +0.050 paid, 0.050 forfeited (partial credit).'],
    });
  });

  test('jobs argued for without naming them stay private; no hours, deadlines or values in public', () => {
    const s = must(fixture(), 'lab_1', {
      action_type: 'make_pitch',
      message: 'We need four GPU-hours soon, before round 2.',
      job_ids: [],
    });
    const { state, report } = closeRound(s, { judge: win('lab_1', 0.1) });
    const lines = pitchPayLines(hosted(state), report);
    assert.deepEqual(lines.public, [
      'Lab B won the pitch: +0.100 held on 2 of its jobs until they settle.',
      PITCH_PAY_RULE,
    ]);
    assert.ok(
      lines.public.every((l) => !/j_1_|GPU-hours|round \d|value/.test(l)),
      lines.public.join(' | '),
    );
    assert.deepEqual(lines.private, {
      lab_1: [
        'Your pitch bonus is held on j_1_0 (+0.050), j_1_1 (+0.050): paid for each one completed by its deadline.',
      ],
    });
  });

  test('a win on covered work is forfeited at once, and says why', () => {
    const covered = must(fixture(), 'lab_0', {
      action_type: 'allocate_to_job',
      job_id: 'j_0_1',
      block_ids: ['b_0_0', 'b_0_1'],
    });
    const s = must(covered, 'lab_0', {
      action_type: 'make_pitch',
      message: 'Job j_0_1 matters a lot to us this round.',
      job_ids: ['j_0_1'],
    });
    const { state, report } = closeRound(s, { judge: win('lab_0', 0.1) });
    assert.deepEqual(pitchPayLines(hosted(state), report).public, [
      'Lab A won the pitch, but j_0_1 was already covered: +0.100 forfeited.',
    ]);
  });

  test('no pitch bonus events, no lines', () => {
    const { state, report } = closeRound(fixture(), { judge: null });
    assert.deepEqual(pitchPayLines(hosted(state), report), { public: [], private: {} });
  });
});

describe('pitch pay lines under an open ballot (no verdict before the vote)', () => {
  const pitched = must(fixture(), 'lab_0', {
    action_type: 'make_pitch',
    message: 'Job j_0_1 still needs four GPU-hours by round 2.',
    job_ids: ['j_0_1'],
  });
  const held = closeRound(pitched, { judge: win('lab_0', 0.1) });

  test('the public win line waits for the ballot; earlier wins settling now are still shown', () => {
    assert.deepEqual(pitchPayLines(hosted(held.state), held.report, { verdictHidden: true }).public, []);
    const missed = closeTo(held.state, 3);
    assert.deepEqual(pitchPayLines(hosted(missed.state), missed.report, { verdictHidden: true }).public, [
      'Held pitch bonus for j_0_1 forfeited by Lab A: j_0_1 missed (+0.100 lost).',
    ]);
  });
});
