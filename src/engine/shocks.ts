/**
 * Market shocks (docs/RULES.md §5). A scheduled shock happens when its round closes; its draws come
 * from rng(seed, round, 'shock:<kind>'). The public event names labs and blocks, never jobs or values.
 */
import type { Block, Job, LabId, ShockEvent, ShockKind } from './types.js';
import type { Draft } from './mut.js';
import { rng } from './rng.js';
import { resolveAuction } from './auction.js';
import { drawBlock, newJob } from './world.js';
import { makeFeasible, marketHours, servableByReliability } from './feasibility.js';
import { labIndex, pick, round2, uniform2 } from './util.js';

/** Energy-spike factor and reliability-downgrade step (the original's, docs/RULES.md §A.1). */
export const ENERGY_SPIKE = 1.25;
export const RELIABILITY_DROP = 0.12;
export const RELIABILITY_FLOOR = 0.5;

/** Blocks a shock can touch: not used and not failed. */
const touchable = (b: Block) => b.status === 'available' || b.status === 'reserved' || b.status === 'committed';

/** A fresh id `b_s<r>_<k>` for capacity a shock adds (k = 0 unless taken). */
export function newBlockId(d: Draft, r: number): string {
  let k = 0;
  while (Object.hasOwn(d.s.blocks, `b_s${r}_${k}`)) k += 1;
  return `b_s${r}_${k}`;
}

/** Mark the pending jobs of these labs as touched by a shock (for market_adaptation). */
function touchLabs(d: Draft, labs: readonly LabId[]): void {
  // Entries read through the enumerated record stay current when d.job() replaces d.s.jobs with a copy.
  const jobs = d.s.jobs;
  for (const id in jobs) {
    const j = jobs[id]!;
    if (j.outcome === 'pending' && !j.shockAffected && labs.includes(j.owner)) d.job(id).shockAffected = true;
  }
}

const nameOf = (d: Draft, lab: LabId) => d.s.labs[lab]!.publicName;

/** Unfinished labs in seat order. */
function liveLabs(d: Draft): LabId[] {
  const out: LabId[] = [];
  const { labIds, labs } = d.s;
  for (let i = 0; i < labIds.length; i++) if (!labs[labIds[i]!]!.finished) out.push(labIds[i]!);
  return out;
}

/**
 * A block reserved for one of its owner's pending jobs is shielded from capacity failures: a reservation
 * protects the capacity a job is counting on (docs/RULES.md §3.7, §5).
 */
function shielded(d: Draft, b: Block): boolean {
  if (b.status !== 'reserved' || b.reservedFor === null || !Object.hasOwn(d.s.jobs, b.reservedFor)) return false;
  const j = d.s.jobs[b.reservedFor]!;
  return j.owner === b.owner && j.outcome === 'pending';
}

/** Touchable blocks of the live labs, in record order (a loop: no Object.values copy, no closures). */
function liveBlocks(d: Draft, live: readonly LabId[]): Block[] {
  const out: Block[] = [];
  const blocks = d.s.blocks;
  for (const id in blocks) {
    const b = blocks[id]!;
    if (touchable(b) && live.includes(b.owner)) out.push(b);
  }
  return out;
}

/** Pending jobs of `lab` whose deadline can move one round earlier at the close of round `r`. */
function acceleratable(d: Draft, lab: LabId, r: number): Job[] {
  const out: Job[] = [];
  const jobs = d.s.jobs;
  for (const id in jobs) {
    const j = jobs[id]!;
    if (j.owner === lab && j.outcome === 'pending' && j.deadlineRound > r + 1) out.push(j);
  }
  return out;
}

/** The public event (a literal: cheaper than spreading a template and overriding its fields). */
function shockEvent(
  round: number,
  kind: ShockKind,
  text: string,
  affectedLabs: LabId[],
  blockIds: string[],
): ShockEvent {
  return { round, kind, text, affectedLabs, blockIds };
}

/**
 * Apply one shock at the close of round `r`.
 * @param winner the round's judge winner (receives new_supply, first refusal at the auction)
 */
export function applyShock(d: Draft, kind: ShockKind, r: number, winner: LabId | null): ShockEvent {
  const draw = rng(d.s.config.seed, r, `shock:${kind}`);
  const live = liveLabs(d);
  switch (kind) {
    case 'capacity_failure': {
      const all = liveBlocks(d, live);
      const candidates = all.filter((b) => !shielded(d, b));
      if (candidates.length === 0) {
        const why = all.length === 0 ? 'no live capacity' : 'all live capacity was reserved for jobs';
        return shockEvent(r, kind, `A capacity failure hit nothing: ${why}.`, [], []);
      }
      const b = d.block(pick(draw, candidates).id);
      if (b.committedTo !== null) {
        const c = d.coalition(b.committedTo);
        const cm = c.commitments[b.owner];
        if (cm && cm.standing === 'good' && c.status === 'active') cm.standing = 'excused';
      }
      b.status = 'failed';
      b.reservedFor = null;
      b.committedTo = null;
      touchLabs(d, [b.owner]);
      return shockEvent(r, kind, `Block ${b.id} of ${nameOf(d, b.owner)} failed.`, [b.owner], [b.id]);
    }
    case 'energy_spike':
    case 'reliability_downgrade': {
      const touched = liveBlocks(d, live);
      for (const t of touched) {
        const b = d.block(t.id);
        if (kind === 'energy_spike') b.energyCost = round2(b.energyCost * ENERGY_SPIKE);
        else b.reliability = round2(Math.max(RELIABILITY_FLOOR, b.reliability - RELIABILITY_DROP));
      }
      const labs = live.filter((l) => touched.some((b) => b.owner === l));
      touchLabs(d, labs);
      const text =
        kind === 'energy_spike'
          ? 'Energy costs of all live capacity rose by 25%.'
          : 'Reliability of all live capacity dropped by 0.12.';
      return shockEvent(
        r,
        kind,
        text,
        labs,
        touched.map((b) => b.id),
      );
    }
    case 'new_supply': {
      if (live.length === 0) return shockEvent(r, kind, 'New capacity appeared but nobody could take it.', [], []);
      const to = winner !== null && live.includes(winner) ? winner : pick(draw, live);
      const b = drawBlock(draw, newBlockId(d, r), to);
      d.addBlock(b);
      return shockEvent(
        r,
        kind,
        `New capacity ${b.id} (${b.gpuHours} GPU-hours) went to ${nameOf(d, to)}.`,
        [to],
        [b.id],
      );
    }
    case 'emergency_auction':
      // Sealed bids placed during the round (auction.ts, docs/RULES.md §5.1).
      return resolveAuction(d, r, winner);
    case 'deadline_acceleration': {
      const labs = live.filter((l) => acceleratable(d, l, r).length > 0);
      if (labs.length === 0) return shockEvent(r, kind, 'A deadline acceleration touched nobody.', [], []);
      const lab = pick(draw, labs);
      const job = acceleratable(d, lab, r).reduce((a, b) => (b.deadlineRound > a.deadlineRound ? b : a));
      const j = d.job(job.id);
      j.deadlineRound -= 1;
      j.shockAffected = true;
      return shockEvent(r, kind, `A deadline of ${nameOf(d, lab)} moved one round earlier.`, [lab], []);
    }
    case 'demand_surge': {
      const deadline = Math.min(d.s.params.maxRounds - 1, r + 2);
      const market = servableByReliability(Object.values(d.s.blocks));
      const hours = marketHours(market);
      const surge: Job[] = [];
      for (const lab of live) {
        const job = newJob({
          id: `j_${labIndex(lab)}_surge_${r}`,
          owner: lab,
          gpuHoursRequired: pick(draw, [2, 3, 4]),
          deadlineRound: deadline,
          baseValue: uniform2(draw, 45, 85),
          urgencyMultiplier: uniform2(draw, 1.3, 1.9),
          minReliability: uniform2(draw, 0.7, 0.88),
          partialCreditAllowed: true,
          surge: true,
        });
        surge.push(makeFeasible(job, market, hours));
      }
      d.addJobs(surge);
      return shockEvent(r, kind, `A demand surge gave every lab an urgent job due by round ${deadline}.`, live, []);
    }
  }
}
