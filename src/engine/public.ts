/**
 * The public lists every observation shares (docs/RULES.md §0): blocks, labs, coalitions and active
 * offers, plus each lab's own jobs and blocks. Each is derived from a few records of the state and is
 * computed once per version of them: copy-on-write (mut.ts) makes a changed record a new object, so a
 * record seen again (the same object) has the same derived list.
 *
 * The caches hold one entry each, the last version seen, rather than a WeakMap entry per version:
 * consecutive observations are of consecutive versions of one match, and WeakMap insertions cost more
 * than they saved. A cache never changes a result: a miss recomputes the same values. Shared lists and
 * their items are frozen.
 */
import type { Block, Coalition, Job, Lab, LabId, MatchState, Offer } from './types.js';
import type { BudgetBand, DemandLevel, PublicBlock, PublicCoalition, PublicLab } from './views.js';

/** The original's bands (docs/RULES.md §A.1): < 60 low, < 115 medium, else high. */
export const budgetBand = (budget: number): BudgetBand => (budget < 60 ? 'low' : budget < 115 ? 'medium' : 'high');

/** Unmet hours ÷ max(1, live hours): < 0.7 low, < 1.4 medium, else high (the original's, docs/RULES.md §A.1). */
export function demandOf(need: number, have: number): DemandLevel {
  const ratio = need / Math.max(1, have);
  return ratio < 0.7 ? 'low' : ratio < 1.4 ? 'medium' : 'high';
}

/** A block's public facts (frozen: shared between observations). */
function publicBlock(b: Block): PublicBlock {
  return Object.freeze({
    id: b.id,
    owner: b.owner,
    gpuCount: b.gpuCount,
    duration: b.duration,
    gpuHours: b.gpuHours,
    reliability: b.reliability,
    energyCost: b.energyCost,
    status: b.status,
  });
}

/**
 * Seat position of `lab` in `labIds` (−1 if none). Seats are `lab_0`…`lab_<n−1>` in order, so the last
 * digit names the likely position, checked first (one string comparison instead of up to five: this runs
 * for every block and job of every new version of the records); anything else takes the linear scan.
 */
export function seatOf(labIds: readonly LabId[], lab: LabId): number {
  const guess = lab.charCodeAt(lab.length - 1) - 48;
  if (guess >= 0 && guess < labIds.length && labIds[guess] === lab) return guess;
  for (let k = 0; k < labIds.length; k++) if (labIds[k] === lab) return k;
  return -1;
}

/**
 * Everything derived from one version of the blocks record, in one pass. Per-seat data is indexed by
 * seat position (labIds order): an owner's blocks and its live hours (not used or failed). The owners'
 * block id lists are built only for the public lab objects that change (publicLabs).
 */
interface BlockFacts {
  rec: object;
  labIds: readonly LabId[];
  /** The blocks, in record order, and their public copies (frozen list). */
  src: readonly Block[];
  pub: readonly PublicBlock[];
  owned: Block[][];
  have: number[];
}
let lastBlocks: BlockFacts | null = null;

function blockFacts(s: MatchState): BlockFacts {
  const prev = lastBlocks;
  const rec = s.blocks;
  if (prev !== null && prev.rec === rec && prev.labIds === s.labIds) return prev;
  // Object.values: the entries in key order (as for…in), read by the engine's fast path for fast-mode
  // records; ≈ 15 % cheaper here than a for…in with a keyed load per entry.
  const src = Object.values(rec);
  const pub: PublicBlock[] = [];
  const owned: Block[][] = [];
  const have: number[] = [];
  const labIds = s.labIds;
  for (let k = 0; k < labIds.length; k++) {
    owned.push([]);
    have.push(0);
  }
  const before = prev === null ? null : prev.src;
  for (let i = 0; i < src.length; i++) {
    const b = src[i]!;
    // A block at the same position as in the previous version (the same object: unchanged) keeps its copy.
    pub.push(before !== null && before[i] === b ? prev!.pub[i]! : publicBlock(b));
    const k = seatOf(labIds, b.owner);
    if (k >= 0) {
      owned[k]!.push(b);
      if (b.status !== 'used' && b.status !== 'failed') have[k] = have[k]! + b.gpuHours;
    }
  }
  lastBlocks = { rec, labIds: s.labIds, src, pub: Object.freeze(pub), owned, have };
  return lastBlocks;
}

/** Everything derived from one version of the jobs record, per seat position: its jobs and unmet hours of pending ones. */
interface JobFacts {
  rec: object;
  labIds: readonly LabId[];
  owned: Job[][];
  need: number[];
}
let lastJobs: JobFacts | null = null;

function jobFacts(s: MatchState): JobFacts {
  const rec = s.jobs;
  if (lastJobs !== null && lastJobs.rec === rec && lastJobs.labIds === s.labIds) return lastJobs;
  const owned: Job[][] = [];
  const need: number[] = [];
  for (let k = 0; k < s.labIds.length; k++) {
    owned.push([]);
    need.push(0);
  }
  // Object.values, as in blockFacts.
  const all = Object.values(rec);
  for (let i = 0; i < all.length; i++) {
    const j = all[i]!;
    const k = seatOf(s.labIds, j.owner);
    if (k < 0) continue;
    owned[k]!.push(j);
    if (j.outcome === 'pending') need[k] = need[k]! + Math.max(0, j.gpuHoursRequired - j.allocatedHours);
  }
  lastJobs = { rec, labIds: s.labIds, owned, need };
  return lastJobs;
}

/** Every block's public facts (any status), in creation order (shared, frozen). */
export function publicBlocks(s: MatchState): PublicBlock[] {
  return blockFacts(s).pub as PublicBlock[];
}

/** The last public lab list: what it was built from, per seat, and the list. */
let lastLabs: {
  labs: object;
  blocks: BlockFacts;
  jobs: JobFacts;
  src: readonly Lab[];
  demand: readonly DemandLevel[];
  value: readonly PublicLab[];
} | null = null;

/** Whether two id lists are equal element by element (a coalition's blocks: a handful). */
function sameIds(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether `ids` are the ids of `blocks`, in order (a seat's blocks: a handful). */
function sameBlockIds(ids: readonly string[], blocks: readonly Block[]): boolean {
  if (ids.length !== blocks.length) return false;
  for (let i = 0; i < ids.length; i++) if (ids[i] !== blocks[i]!.id) return false;
  return true;
}

/** The ids of `blocks`, in order (a record's key is its entry's id). */
function idsOf(blocks: readonly Block[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < blocks.length; i++) out.push(blocks[i]!.id);
  return out;
}

/**
 * Every lab's public facts, in seat order. A lab whose id, record and demand level are those of the
 * previous list, with the same block ids, keeps its public object (most new versions of the blocks
 * change one or two seats' blocks: the others' objects need not be built and frozen again).
 */
export function publicLabs(s: MatchState): PublicLab[] {
  const blocks = blockFacts(s);
  const jobs = jobFacts(s);
  const prev = lastLabs;
  if (prev !== null && prev.labs === s.labs && prev.blocks === blocks && prev.jobs === jobs)
    return prev.value as PublicLab[];
  const src: Lab[] = [];
  const demand: DemandLevel[] = [];
  const out: PublicLab[] = [];
  for (let k = 0; k < s.labIds.length; k++) {
    const id = s.labIds[k]!;
    const l = s.labs[id]!;
    const dl = demandOf(jobs.need[k]!, blocks.have[k]!);
    src.push(l);
    demand.push(dl);
    const old = prev === null ? undefined : prev.value[k];
    if (
      old !== undefined &&
      old.id === id &&
      prev!.src[k] === l &&
      prev!.demand[k] === dl &&
      sameBlockIds(old.blockIds, blocks.owned[k]!)
    )
      out.push(old);
    else
      out.push(
        Object.freeze({
          id,
          publicName: l.publicName,
          reputation: l.reputation,
          budgetBand: budgetBand(l.budget),
          demandLevel: dl,
          blockIds: idsOf(blocks.owned[k]!),
          finished: l.finished,
        }),
      );
  }
  const value = Object.freeze(out);
  lastLabs = { labs: s.labs, blocks, jobs, src, demand, value };
  return value as PublicLab[];
}

/** The blocks committed to `c` that it still holds (committedTo is `c`), in member then commitment order. */
function committedIds(s: MatchState, c: Coalition): string[] {
  const out: string[] = [];
  for (const m of c.members)
    for (const id of c.commitments[m]?.blockIds ?? []) if (s.blocks[id]?.committedTo === c.id) out.push(id);
  return out;
}

function publicCoalitionOf(c: Coalition, committedBlockIds: string[]): PublicCoalition {
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

/** Public facts of a coalition: members, consent, status and the blocks it currently holds (no escrow). */
export function publicCoalition(s: MatchState, c: Coalition): PublicCoalition {
  return publicCoalitionOf(c, committedIds(s, c));
}

let lastCoalitions: {
  coalitions: object;
  blocks: object;
  src: readonly Coalition[];
  value: readonly PublicCoalition[];
} | null = null;

/**
 * Public facts of every coalition, in creation order. A coalition at the same position as in the last
 * list, the same object still holding the same blocks, keeps its public object: the list is rebuilt for
 * every new version of the blocks record, which rarely touches a coalition.
 */
export function publicCoalitions(s: MatchState): readonly PublicCoalition[] {
  const prev = lastCoalitions;
  if (prev !== null && prev.coalitions === s.coalitions && prev.blocks === s.blocks) return prev.value;
  const src = Object.values(s.coalitions);
  const out: PublicCoalition[] = [];
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    const committed = committedIds(s, c);
    const old = prev !== null && prev.src[i] === c ? prev.value[i] : undefined;
    out.push(
      old !== undefined && sameIds(old.committedBlockIds, committed)
        ? old
        : Object.freeze(publicCoalitionOf(c, committed)),
    );
  }
  const value = Object.freeze(out);
  lastCoalitions = { coalitions: s.coalitions, blocks: s.blocks, src, value };
  return value;
}

let lastOffers: { offers: object; value: readonly Offer[] } | null = null;

/** Active offers, in creation order. */
export function activeOffers(s: MatchState): readonly Offer[] {
  const hit = lastOffers;
  if (hit !== null && hit.offers === s.offers) return hit.value;
  const out: Offer[] = [];
  const all = Object.values(s.offers);
  for (let i = 0; i < all.length; i++) if (all[i]!.status === 'active') out.push(all[i]!);
  const value = Object.freeze(out);
  lastOffers = { offers: s.offers, value };
  return value;
}

/**
 * The jobs and the blocks `lab` owns, in record order (query.ts labJobs and labBlocks), shared with the
 * caches above: read-only. Undefined when `lab` is not in `s.labIds` (the caches index seats only).
 */
export function ownedJobsAndBlocks(
  s: MatchState,
  lab: LabId,
): { jobs: readonly Job[]; blocks: readonly Block[] } | undefined {
  const k = seatOf(s.labIds, lab);
  if (k < 0) return undefined;
  return { jobs: jobFacts(s).owned[k]!, blocks: blockFacts(s).owned[k]! };
}

/** The blocks `lab` owns, in record order, shared with the cache above: read-only (empty when `lab` is not a seat). */
export function ownedBlocks(s: MatchState, lab: LabId): readonly Block[] {
  const k = seatOf(s.labIds, lab);
  return k < 0 ? NO_BLOCKS : blockFacts(s).owned[k]!;
}
const NO_BLOCKS: readonly Block[] = Object.freeze([]);

/** The lab's jobs and blocks, in record order, as fresh arrays (the split by owner is done once per version). */
export function ownJobsAndBlocks(s: MatchState, lab: LabId): { jobs: Job[]; blocks: Block[] } {
  const k = seatOf(s.labIds, lab);
  if (k < 0) return { jobs: [], blocks: [] };
  return { jobs: jobFacts(s).owned[k]!.slice(), blocks: blockFacts(s).owned[k]!.slice() };
}
