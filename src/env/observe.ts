/**
 * Views of a match (docs/RULES.md §0): one seat's observation and the channel's public view. Neither
 * carries another seat's private values: jobs, exact budget, escrow, policy, shock schedule.
 *
 * Public lists are computed once per version of the records they derive from (copy-on-write makes a
 * changed record a new object) and shared, frozen, between observations.
 */
import type { Block, Coalition, Job, LabId, MatchState, Message, Offer } from './types';
import type { BudgetBand, DemandLevel, Observation, PublicBlock, PublicCoalition, PublicLab, PublicView } from './views';
import { escrowOf } from './query';

/** Messages an observation shows (reference §7: 20); the public view shows more. */
export const OBSERVATION_MESSAGES = 20;
export const PUBLIC_VIEW_MESSAGES = 50;

/** Reference §7: < 60 low, < 115 medium, else high. */
export const budgetBand = (budget: number): BudgetBand => (budget < 60 ? 'low' : budget < 115 ? 'medium' : 'high');

const demandOf = (need: number, have: number): DemandLevel => {
  const ratio = need / Math.max(1, have);
  return ratio < 0.7 ? 'low' : ratio < 1.4 ? 'medium' : 'high';
};

/** Unmet hours of pending jobs ÷ max(1, hours of blocks not used/failed): < 0.7 low, < 1.4 medium, else high. */
export function demandLevel(s: MatchState, lab: LabId): DemandLevel {
  let need = 0;
  for (const id in s.jobs) {
    const j = s.jobs[id]!;
    if (j.owner === lab && j.outcome === 'pending') need += Math.max(0, j.gpuHoursRequired - j.allocatedHours);
  }
  let have = 0;
  for (const id in s.blocks) {
    const b = s.blocks[id]!;
    if (b.owner === lab && b.status !== 'used' && b.status !== 'failed') have += b.gpuHours;
  }
  return demandOf(need, have);
}

/** A block's public facts (frozen: shared between observations). */
function publicBlock(b: Block): PublicBlock {
  return Object.freeze({ id: b.id, owner: b.owner, gpuCount: b.gpuCount, duration: b.duration, gpuHours: b.gpuHours, reliability: b.reliability, energyCost: b.energyCost, status: b.status });
}

interface BlockList {
  /** The blocks the list was built from, in record order. */
  src: readonly Block[];
  value: readonly PublicBlock[];
}
const blockCache = new WeakMap<object, BlockList>();
/**
 * The most recently built list. Consecutive versions of a match's blocks record share most block objects
 * (copy-on-write), so a block found at the same position in it reuses its public copy.
 */
let lastBlocks: BlockList | null = null;

/** Every block's public facts (any status), in creation order (cached per version of the blocks record). */
export function publicBlocks(s: MatchState): PublicBlock[] {
  let v = blockCache.get(s.blocks);
  if (!v) {
    const prev = lastBlocks;
    const src: Block[] = [];
    const out: PublicBlock[] = [];
    let i = 0;
    for (const id in s.blocks) {
      const b = s.blocks[id]!;
      src.push(b);
      out.push(prev !== null && prev.src[i] === b ? prev.value[i]! : publicBlock(b));
      i += 1;
    }
    v = { src, value: Object.freeze(out) };
    blockCache.set(s.blocks, v);
    lastBlocks = v;
  }
  return v.value as PublicBlock[];
}

const labCache = new WeakMap<object, { blocks: object; jobs: object; value: readonly PublicLab[] }>();
/** Every lab's public facts, in seat order (one pass over blocks and jobs; cached per version). */
export function publicLabs(s: MatchState): PublicLab[] {
  const hit = labCache.get(s.labs);
  if (hit && hit.blocks === s.blocks && hit.jobs === s.jobs) return hit.value as PublicLab[];
  const need: Record<LabId, number> = {};
  const have: Record<LabId, number> = {};
  const blockIds: Record<LabId, string[]> = {};
  for (const id of s.labIds) {
    need[id] = 0;
    have[id] = 0;
    blockIds[id] = [];
  }
  for (const id in s.jobs) {
    const j = s.jobs[id]!;
    if (j.outcome === 'pending') need[j.owner] = need[j.owner]! + Math.max(0, j.gpuHoursRequired - j.allocatedHours);
  }
  for (const id in s.blocks) {
    const b = s.blocks[id]!;
    blockIds[b.owner]!.push(id);
    if (b.status !== 'used' && b.status !== 'failed') have[b.owner] = have[b.owner]! + b.gpuHours;
  }
  const value = Object.freeze(
    s.labIds.map((id) => {
      const l = s.labs[id]!;
      return Object.freeze({ id, publicName: l.publicName, reputation: l.reputation, budgetBand: budgetBand(l.budget), demandLevel: demandOf(need[id]!, have[id]!), blockIds: blockIds[id]!, finished: l.finished });
    }),
  );
  labCache.set(s.labs, { blocks: s.blocks, jobs: s.jobs, value });
  return value as PublicLab[];
}

/** Public facts of a coalition: members, consent, status and the blocks it currently holds (no escrow). */
export function publicCoalition(s: MatchState, c: Coalition): PublicCoalition {
  const committedBlockIds: string[] = [];
  for (const m of c.members) for (const id of c.commitments[m]?.blockIds ?? []) if (s.blocks[id]?.committedTo === c.id) committedBlockIds.push(id);
  return {
    id: c.id,
    proposer: c.proposer,
    members: [...c.members],
    purpose: c.purpose,
    status: c.status,
    expiresRound: c.expiresRound,
    consented: c.members.filter((m) => c.commitments[m]?.consented),
    committedBlockIds,
  };
}

/** A member's view of its coalition: other members' escrow is not shown (0). Shared when nothing to hide. */
function memberView(c: Coalition, lab: LabId): Coalition {
  let hidden = false;
  for (const m of c.members) if (m !== lab && (c.commitments[m]?.escrow ?? 0) !== 0) hidden = true;
  if (!hidden) return c;
  const commitments: Coalition['commitments'] = {};
  for (const m of c.members) {
    const cm = c.commitments[m]!;
    commitments[m] = m === lab ? cm : { consented: cm.consented, blockIds: cm.blockIds, escrow: 0, standing: cm.standing };
  }
  return { ...c, commitments };
}

const coalitionCache = new WeakMap<object, { blocks: object; value: readonly PublicCoalition[] }>();
/** Public facts of every coalition, in creation order (cached per version of coalitions and blocks). */
function publicCoalitions(s: MatchState): readonly PublicCoalition[] {
  const hit = coalitionCache.get(s.coalitions);
  if (hit && hit.blocks === s.blocks) return hit.value;
  const value = Object.freeze(Object.values(s.coalitions).map((c) => Object.freeze(publicCoalition(s, c))));
  coalitionCache.set(s.coalitions, { blocks: s.blocks, value });
  return value;
}

const offerCache = new WeakMap<object, readonly Offer[]>();
/** Active offers, in creation order (cached per version of the offers record). */
function activeOffers(s: MatchState): readonly Offer[] {
  let v = offerCache.get(s.offers);
  if (!v) {
    const out: Offer[] = [];
    for (const id in s.offers) if (s.offers[id]!.status === 'active') out.push(s.offers[id]!);
    v = Object.freeze(out);
    offerCache.set(s.offers, v);
  }
  return v;
}

const ownerCache = new WeakMap<object, Map<LabId, readonly { owner: LabId }[]>>();
/**
 * The entries of a jobs or blocks record owned by `lab`, in record order, as a fresh array. The split by
 * owner is computed once per version of the record (one pass for every lab).
 */
function ownedBy<T extends { owner: LabId }>(rec: Record<string, T>, lab: LabId): T[] {
  let split = ownerCache.get(rec) as Map<LabId, T[]> | undefined;
  if (!split) {
    split = new Map<LabId, T[]>();
    for (const id in rec) {
      const x = rec[id]!;
      const list = split.get(x.owner);
      if (list) list.push(x);
      else split.set(x.owner, [x]);
    }
    ownerCache.set(rec, split);
  }
  return split.get(lab)?.slice() ?? [];
}

function visibleMessages(messages: readonly Message[], lab: LabId | null, limit: number): Message[] {
  const out: Message[] = [];
  for (let i = messages.length - 1; i >= 0 && out.length < limit; i--) {
    const m = messages[i]!;
    if (m.to === null || (lab !== null && (m.to === lab || m.from === lab))) out.push(m);
  }
  return out.reverse();
}

/**
 * One seat's observation: its own state in full, everything else public only. Read-only: it shares
 * immutable objects with the state. Throws on an unknown seat (a programming error, not user input).
 */
export function observe(s: MatchState, lab: LabId): Observation {
  if (!Object.hasOwn(s.labs, lab)) throw new Error(`observe: no seat ${lab}`);
  const me = s.labs[lab]!;
  const seat = s.seats[lab]!;
  const jobs = ownedBy(s.jobs, lab);
  const blocks = ownedBy(s.blocks, lab);
  const offers: Offer[] = [];
  for (const o of activeOffers(s)) if (o.from === lab || o.to === lab) offers.push(o);
  const myCoalitions: Coalition[] = [];
  const coalitions: PublicCoalition[] = [];
  let pub: readonly PublicCoalition[] | null = null;
  let i = 0;
  for (const id in s.coalitions) {
    const c = s.coalitions[id]!;
    if (c.commitments[lab] !== undefined) myCoalitions.push(memberView(c, lab));
    else coalitions.push((pub ??= publicCoalitions(s))[i]!);
    i += 1;
  }
  const labs: PublicLab[] = [];
  for (const l of publicLabs(s)) if (l.id !== lab) labs.push(l);
  return {
    task: s.config.task,
    difficulty: s.params.difficulty,
    round: s.round,
    maxRounds: s.params.maxRounds,
    over: s.over,
    self: {
      id: lab,
      publicName: me.publicName,
      budget: me.budget,
      reputation: me.reputation,
      finished: me.finished,
      jobs,
      blocks,
      escrow: escrowOf(s, lab),
      actionsLeftThisRound: Math.max(0, s.config.maxActionsPerRound - seat.actionsThisRound),
      grudges: seat.grudges,
    },
    labs,
    blocks: publicBlocks(s),
    offers,
    myCoalitions,
    coalitions,
    messages: visibleMessages(s.messages, lab, OBSERVATION_MESSAGES),
    pitches: s.pitches,
    shockHistory: s.shockHistory,
    lastJudgeDecision: s.judgeHistory[s.judgeHistory.length - 1] ?? null,
    cumulativeReward: seat.cumulativeReward,
    lastReward: seat.lastBreakdown,
  };
}

/** The match as the channel sees it: public facts, active offers, public messages, judge decisions. */
export function publicView(s: MatchState): PublicView {
  return {
    task: s.config.task,
    difficulty: s.params.difficulty,
    seed: s.config.seed,
    round: s.round,
    maxRounds: s.params.maxRounds,
    over: s.over,
    labs: publicLabs(s).map((l) => ({
      id: l.id,
      publicName: l.publicName,
      reputation: l.reputation,
      budgetBand: l.budgetBand,
      demandLevel: l.demandLevel,
      blockIds: l.blockIds,
      finished: l.finished,
      cumulativeReward: s.seats[l.id]!.cumulativeReward,
    })),
    blocks: publicBlocks(s),
    offers: [...activeOffers(s)],
    coalitions: [...publicCoalitions(s)],
    messages: visibleMessages(s.messages, null, PUBLIC_VIEW_MESSAGES),
    pitches: s.pitches,
    shockHistory: s.shockHistory,
    judgeHistory: s.judgeHistory,
  };
}
