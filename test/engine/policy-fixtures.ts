/**
 * Hand-made observations for policy unit tests: a small market where every field a policy reads can be
 * set explicitly. Not a test file itself.
 */
import { emptyBreakdown } from '../../src/engine/reward.js';
import type { Block, Coalition, Job, Message, Offer, RewardBreakdown } from '../../src/engine/types.js';
import type { Observation, PublicBlock, PublicLab } from '../../src/engine/views.js';
import type { PolicyContext } from '../../src/engine/policies/types.js';
import seedrandom from 'seedrandom';

export const zero: RewardBreakdown = emptyBreakdown();

export function block(id: string, owner: string, gpuHours: number, over: Partial<Block> = {}): Block {
  return {
    id,
    owner,
    gpuCount: gpuHours,
    duration: 1,
    gpuHours,
    reliability: 0.9,
    energyCost: 2,
    status: 'available',
    reservedFor: null,
    committedTo: null,
    usedFor: null,
    ...over,
  };
}

export function job(id: string, owner: string, hours: number, deadline: number, over: Partial<Job> = {}): Job {
  return {
    id,
    owner,
    gpuHoursRequired: hours,
    deadlineRound: deadline,
    baseValue: 60,
    urgencyMultiplier: 1.5,
    minReliability: 0.8,
    partialCreditAllowed: false,
    allocatedHours: 0,
    allocatedBlockIds: [],
    energyCost: 0,
    outcome: 'pending',
    realisedValue: null,
    surge: false,
    shockAffected: false,
    ...over,
  };
}

export function offer(id: string, from: string, to: string, over: Partial<Offer> = {}): Offer {
  return {
    id,
    from,
    to,
    offeredBlockIds: [],
    requestedBlockIds: [],
    payment: 0,
    message: '',
    roundCreated: 0,
    expiresRound: 2,
    status: 'active',
    linkedOfferId: null,
    ...over,
  };
}

const pub = (b: Block): PublicBlock => ({
  id: b.id,
  owner: b.owner,
  gpuCount: b.gpuCount,
  duration: b.duration,
  gpuHours: b.gpuHours,
  reliability: b.reliability,
  energyCost: b.energyCost,
  status: b.status,
});

export interface Fixture {
  me?: string;
  round?: number;
  maxRounds?: number;
  difficulty?: Observation['difficulty'];
  budget?: number;
  jobs?: Job[];
  /** Every block of the market (own ones are those owned by `me`). */
  blocks?: Block[];
  offers?: Offer[];
  coalitions?: Coalition[];
  messages?: Message[];
  labs?: string[];
  reputation?: Record<string, number>;
  grudges?: string[];
  actionsLeft?: number;
}

/** Build an observation for seat `me` (default lab_0) of a market with labs `labs` (default lab_0, lab_1). */
export function observation(f: Fixture = {}): Observation {
  const me = f.me ?? 'lab_0';
  const labs = f.labs ?? ['lab_0', 'lab_1'];
  const blocks = f.blocks ?? [];
  const difficulty = f.difficulty ?? 'medium';
  const publicLabs: PublicLab[] = labs.map((id, i) => ({
    id,
    publicName: `Lab ${String.fromCharCode(65 + i)}`,
    reputation: f.reputation?.[id] ?? 0.6,
    budgetBand: 'medium',
    demandLevel: 'medium',
    blockIds: blocks.filter((b) => b.owner === id).map((b) => b.id),
    finished: false,
  }));
  return {
    task: difficulty === 'easy' ? 'single_trade' : difficulty === 'medium' ? 'market_round' : 'coalition_market',
    difficulty,
    round: f.round ?? 0,
    maxRounds: f.maxRounds ?? 5,
    over: false,
    self: {
      id: me,
      publicName: publicLabs.find((l) => l.id === me)?.publicName ?? 'Lab ?',
      budget: f.budget ?? 100,
      reputation: f.reputation?.[me] ?? 0.6,
      finished: false,
      jobs: (f.jobs ?? []).filter((j) => j.owner === me),
      blocks: blocks.filter((b) => b.owner === me),
      escrow: 0,
      actionsLeftThisRound: f.actionsLeft ?? 12,
      grudges: f.grudges ?? [],
    },
    labs: publicLabs,
    blocks: blocks.map(pub),
    offers: f.offers ?? [],
    myCoalitions: f.coalitions ?? [],
    coalitions: [],
    messages: f.messages ?? [],
    pitches: [],
    shockHistory: [],
    lastJudgeDecision: null,
    cumulativeReward: 0,
    lastReward: zero,
  };
}

export const ctx = (holdout = false, seed = 'test'): PolicyContext => ({ rng: seedrandom(seed), holdout });

/** A proposed coalition `id` from `proposer` to `members` (nobody but the proposer has consented). */
export function proposal(id: string, proposer: string, members: string[]): Coalition {
  const commitments: Coalition['commitments'] = {};
  for (const m of members) commitments[m] = { consented: m === proposer, blockIds: [], escrow: 0, standing: 'good' };
  return {
    id,
    proposer,
    members,
    purpose: 'pool',
    status: 'proposed',
    roundCreated: 0,
    expiresRound: 4,
    commitments,
    hoursUsedByPartners: Object.fromEntries(members.map((m) => [m, 0])),
  };
}
