/**
 * Hand-built MatchState fixtures for the judge tests, so they do not depend on world generation.
 * Round 1 of a 5-round market_round match with three labs:
 *   lab_0: j_0_0 (4 h, deadline 2, min rel 0.78), j_0_1 (8 h, deadline 3, min rel 0.85); blocks 4 h, 2 h, 1 h
 *   lab_1: j_1_0 (6 h, 2 allocated, deadline 2, min rel 0.80), j_1_1 (3 h, deadline 4, min rel 0.72)
 *   lab_2: j_2_0 (2 h, deadline 4, min rel 0.75)
 * Offers: o_1 lab_0 → lab_1 (active), o_2 lab_1 → lab_2. Coalition c_1: lab_1 + lab_2.
 */
import { emptyBreakdown } from '../../../src/engine/reward.js';
import type {
  Block,
  Job,
  JobId,
  LabId,
  MatchState,
  Pitch,
  RewardBreakdown,
  SeatStats,
} from '../../../src/engine/types.js';

const zero: RewardBreakdown = emptyBreakdown();

const seat = (): SeatStats => ({
  cumulativeReward: 0,
  roundReward: { ...zero },
  lastBreakdown: { ...zero },
  pendingReward: { ...zero },
  actionsThisRound: 0,
  recentFingerprints: [],
  steps: 0,
  invalidActions: 0,
  grudges: [],
});

export function job(
  id: JobId,
  owner: LabId,
  hours: number,
  deadline: number,
  minRel: number,
  extra: Partial<Job> = {},
): Job {
  return {
    id,
    owner,
    gpuHoursRequired: hours,
    deadlineRound: deadline,
    baseValue: 60,
    urgencyMultiplier: 1.4,
    minReliability: minRel,
    partialCreditAllowed: true,
    allocatedHours: 0,
    allocatedBlockIds: [],
    energyCost: 0,
    outcome: 'pending',
    realisedValue: null,
    surge: false,
    shockAffected: false,
    ...extra,
  };
}

export function block(id: string, owner: LabId, gpuCount: number, duration: number, reliability: number): Block {
  return {
    id,
    owner,
    gpuCount,
    duration,
    gpuHours: gpuCount * duration,
    reliability,
    energyCost: 3,
    status: 'available',
    reservedFor: null,
    committedTo: null,
    usedFor: null,
  };
}

const byId = <T extends { id: string }>(xs: T[]): Record<string, T> => Object.fromEntries(xs.map((x) => [x.id, x]));

/** The three-lab fixture described above, with no pitches. */
export function makeState(seed = 7): MatchState {
  const labIds = ['lab_0', 'lab_1', 'lab_2'];
  const jobs = [
    job('j_0_0', 'lab_0', 4, 2, 0.78, { urgencyMultiplier: 1.2 }),
    job('j_0_1', 'lab_0', 8, 3, 0.85, { urgencyMultiplier: 1.5 }),
    job('j_1_0', 'lab_1', 6, 2, 0.8, { allocatedHours: 2, allocatedBlockIds: ['b_1_2'] }),
    job('j_1_1', 'lab_1', 3, 4, 0.72),
    job('j_2_0', 'lab_2', 2, 4, 0.75),
  ];
  const blocks = [
    block('b_0_0', 'lab_0', 4, 1, 0.9),
    block('b_0_1', 'lab_0', 2, 1, 0.81),
    block('b_0_2', 'lab_0', 1, 1, 0.74),
    block('b_1_0', 'lab_1', 4, 2, 0.95),
    block('b_1_1', 'lab_1', 1, 3, 0.77),
    { ...block('b_1_2', 'lab_1', 2, 1, 0.93), status: 'used' as const, usedFor: 'j_1_0' },
    block('b_2_0', 'lab_2', 2, 3, 0.88),
    block('b_2_1', 'lab_2', 4, 3, 0.79),
  ];
  return {
    version: 1,
    config: { task: 'market_round', seed, holdout: false, scripted: {}, maxActionsPerRound: 12 },
    params: {
      difficulty: 'medium',
      labCount: 3,
      maxRounds: 5,
      blocksPerLab: 3,
      jobsPerLab: 2,
      coalitionsEnabled: true,
    },
    round: 1,
    over: false,
    labIds,
    labs: Object.fromEntries(
      labIds.map((id, i) => [
        id,
        { id, publicName: `Lab ${'ABC'[i]}`, budget: 100, initialBudget: 100, reputation: 0.6, finished: false },
      ]),
    ),
    blocks: byId(blocks),
    jobs: byId(jobs),
    offers: {
      o_1: {
        id: 'o_1',
        from: 'lab_0',
        to: 'lab_1',
        offeredBlockIds: ['b_0_2'],
        requestedBlockIds: ['b_1_0'],
        payment: 10,
        message: '',
        roundCreated: 0,
        expiresRound: 2,
        status: 'active',
        linkedOfferId: null,
      },
      o_2: {
        id: 'o_2',
        from: 'lab_1',
        to: 'lab_2',
        offeredBlockIds: [],
        requestedBlockIds: ['b_2_0'],
        payment: 12,
        message: '',
        roundCreated: 0,
        expiresRound: 2,
        status: 'active',
        linkedOfferId: null,
      },
    },
    coalitions: {
      c_1: {
        id: 'c_1',
        proposer: 'lab_1',
        members: ['lab_1', 'lab_2'],
        purpose: 'pool',
        status: 'proposed',
        roundCreated: 0,
        expiresRound: 4,
        commitments: {
          lab_1: { consented: true, blockIds: [], escrow: 0, standing: 'good' },
          lab_2: { consented: false, blockIds: [], escrow: 0, standing: 'good' },
        },
        hoursUsedByPartners: { lab_1: 0, lab_2: 0 },
      },
    },
    nextOfferSeq: 3,
    nextCoalitionSeq: 2,
    messages: [],
    pitches: [],
    judgeHistory: [],
    shockSchedule: [],
    shockHistory: [],
    ledger: { initialMoney: 300, injected: 0, burned: 0 },
    seats: Object.fromEntries(labIds.map((id) => [id, seat()])),
  };
}

/** A pitch of the fixture's current round. */
export const pitch = (lab: LabId, text: string, jobIds: JobId[] = [], round = 1): Pitch => ({
  round,
  lab,
  text,
  jobIds,
  replyTo: null,
});

/** The state with these pitches recorded (latest per seat is judged). */
export const withPitches = (state: MatchState, pitches: Pitch[]): MatchState => ({ ...state, pitches });
