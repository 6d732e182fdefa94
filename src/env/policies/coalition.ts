/**
 * Coalition helpers for the players (docs/RULES.md §3.9): invitations to answer, proposing, committing
 * spare blocks, and the deceptive archetype's defection. Plus the grudge memory of the retaliatory
 * archetype, read from what its observation shows (breaches in its coalitions, its own grudge notices).
 */
import type { Block, Coalition, LabId } from '../types';
import { type Desk, type JobPlan, allocate, push, round2 } from './desk';
import { GRUDGE_MARK } from './talk';

/** Coalitions are allowed in this task (disabled on easy, §1). */
export const coalitionsEnabled = (d: Desk): boolean => d.obs.difficulty !== 'easy';

/** Proposed coalitions that invite this seat and that it has not consented to yet. */
export const invitations = (d: Desk): Coalition[] =>
  d.obs.myCoalitions.filter((c) => c.status === 'proposed' && c.members.includes(d.me) && !c.commitments[d.me]?.consented);

/** Proposed or active coalitions this seat is in. */
export const liveCoalitions = (d: Desk): Coalition[] =>
  d.obs.myCoalitions.filter((c) => (c.status === 'proposed' || c.status === 'active') && c.members.includes(d.me));

/** Labs that breached a coalition this seat was in (their commitment standing is 'breached'). */
export function breachers(d: Desk): Set<LabId> {
  const out = new Set<LabId>();
  for (const c of d.obs.myCoalitions) {
    for (const m of c.members) if (m !== d.me && c.commitments[m]?.standing === 'breached') out.add(m);
  }
  return out;
}

/**
 * The retaliatory memory: breachers, the engine's grudge list when the observation carries it
 * (`self.grudges`), plus every lab this seat sent a grudge notice (direct message with
 * {@link GRUDGE_MARK}) that is still among its visible messages.
 */
export function grudges(d: Desk): Set<LabId> {
  const out = breachers(d);
  for (const lab of d.obs.self.grudges ?? []) out.add(lab);
  for (const m of d.obs.messages) if (m.from === d.me && m.to && m.text.includes(GRUDGE_MARK)) out.add(m.to);
  return out;
}

/**
 * Commit to coalition `c`: `blocks` (own, available) and `payment` credits of escrow. The first commit is
 * the seat's consent, so an empty commit is how it joins without contributing.
 */
export function commit(d: Desk, c: Coalition, blocks: readonly Block[], payment: number): boolean {
  const pay = round2(Math.min(Math.max(0, payment), d.budget));
  const ok = push(d, { action_type: 'commit_to_coalition', coalition_id: c.id, block_ids: blocks.map((b) => b.id), payment: pay });
  if (ok) {
    d.budget = round2(d.budget - pay);
    for (const b of blocks) d.spent.add(b.id);
  }
  return ok;
}

/** Propose a coalition to `targets` (lasting to the end of the match). */
export function propose(d: Desk, targets: readonly LabId[], message: string): boolean {
  if (targets.length === 0) return false;
  return push(d, { action_type: 'form_coalition', target_lab_ids: [...targets], message });
}

/** Whether this seat already committed blocks or money to `c`. */
export const contributed = (d: Desk, c: Coalition): boolean => {
  const m = c.commitments[d.me];
  return !!m && (m.blockIds.length > 0 || m.escrow > 0);
};

/** Own blocks committed to an active coalition. */
export const committedOwn = (d: Desk): Block[] =>
  d.blocks.filter((b) => b.status === 'committed' && !d.spent.has(b.id) && d.obs.myCoalitions.some((c) => c.id === b.committedTo && c.status === 'active'));

/**
 * Defection (deceptive): if one of its own committed blocks would complete `p`'s job, release it (a
 * breach, §3.9) and allocate it with the job's other chosen blocks. Two actions; needs room for both.
 */
export function defectFor(d: Desk, p: JobPlan): boolean {
  if (d.limit - d.actions.length < 2) return false;
  const own = p.chosen.filter((b) => b.owner === d.me);
  const have = own.reduce((s, b) => s + b.gpuHours, 0);
  const cand = committedOwn(d)
    .filter((b) => b.reliability >= p.job.minReliability && have + b.gpuHours >= p.need)
    .sort((a, b) => a.gpuHours - b.gpuHours)[0];
  if (!cand) return false;
  push(d, { action_type: 'release_capacity', block_ids: [cand.id] });
  d.spent.add(cand.id);
  // The breach dissolves the coalition: partners' committed blocks leave the pool at once.
  const c = d.obs.myCoalitions.find((x) => x.id === cand.committedTo);
  for (const m of c?.members ?? []) if (m !== d.me) for (const id of c?.commitments[m]?.blockIds ?? []) d.spent.add(id);
  return allocate(d, p.job, [...own, cand]);
}
