/**
 * Coalition helpers for the players (docs/RULES.md §3.9): invitations to answer, proposing, committing
 * spare blocks, and the deceptive archetype's defection. Plus the grudge memory of the retaliatory
 * archetype, read from what its observation shows (breaches in its coalitions, its own grudge notices).
 */
import type { Block, Coalition, LabId } from '../types.js';
import { type Desk, hasId, idsOf, isSpent, push, round2 } from './desk.js';
import { type JobPlan, allocate } from './plan.js';
import { GRUDGE_MARK } from './talk.js';

/** Coalitions are allowed in this task (disabled on easy, §1). */
export const coalitionsEnabled = (d: Desk): boolean => d.obs.difficulty !== 'easy';

/** Proposed coalitions that invite this seat and that it has not consented to yet. */
export function invitations(d: Desk): Coalition[] {
  const out: Coalition[] = [];
  const mine = d.obs.myCoalitions;
  for (let i = 0; i < mine.length; i++) {
    const c = mine[i]!;
    if (c.status === 'proposed' && hasId(c.members, d.me) && !c.commitments[d.me]?.consented) out.push(c);
  }
  return out;
}

/** Proposed or active coalitions this seat is in. */
export function liveCoalitions(d: Desk): Coalition[] {
  const out: Coalition[] = [];
  const mine = d.obs.myCoalitions;
  for (let i = 0; i < mine.length; i++) {
    const c = mine[i]!;
    if ((c.status === 'proposed' || c.status === 'active') && hasId(c.members, d.me)) out.push(c);
  }
  return out;
}

/** Labs that breached a coalition this seat was in (their commitment standing is 'breached'), first breach first. */
export function breachers(d: Desk): LabId[] {
  const out: LabId[] = [];
  const mine = d.obs.myCoalitions;
  for (let i = 0; i < mine.length; i++) {
    const c = mine[i]!;
    for (let k = 0; k < c.members.length; k++) {
      const m = c.members[k]!;
      if (m !== d.me && c.commitments[m]?.standing === 'breached' && !hasId(out, m)) out.push(m);
    }
  }
  return out;
}

/**
 * The retaliatory memory: breachers, the engine's grudge list when the observation carries it
 * (`self.grudges`), plus every lab this seat sent a grudge notice (direct message with
 * {@link GRUDGE_MARK}) that is still among its visible messages.
 */
export function grudges(d: Desk): LabId[] {
  // Rules v4: grudges lapse, so the engine's list (which lapses them) is the whole memory.
  if (d.rules >= 4) return d.obs.self.grudges?.slice() ?? [];
  const out = breachers(d);
  const listed = d.obs.self.grudges;
  if (listed !== undefined) for (let i = 0; i < listed.length; i++) if (!hasId(out, listed[i]!)) out.push(listed[i]!);
  const messages = d.obs.messages;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.from === d.me && m.to && m.text.includes(GRUDGE_MARK) && !hasId(out, m.to)) out.push(m.to);
  }
  return out;
}

/**
 * Commit to coalition `c`: `blocks` (own, available) and `payment` credits of escrow. The first commit is
 * the seat's consent, so an empty commit is how it joins without contributing.
 */
export function commit(d: Desk, c: Coalition, blocks: readonly { id: string }[], payment: number): boolean {
  const pay = round2(Math.min(Math.max(0, payment), d.budget));
  const ok = push(d, {
    action_type: 'commit_to_coalition',
    coalition_id: c.id,
    block_ids: idsOf(blocks),
    payment: pay,
  });
  if (ok) {
    d.budget = round2(d.budget - pay);
    for (let i = 0; i < blocks.length; i++) d.spent.push(blocks[i]!.id);
  }
  return ok;
}

/** Propose a coalition to `targets` (lasting to the end of the match). */
export function propose(d: Desk, targets: readonly LabId[], message: string): boolean {
  if (targets.length === 0) return false;
  return push(d, { action_type: 'form_coalition', target_lab_ids: targets.slice(), message });
}

/** Whether this seat already committed blocks or money to `c`. */
export const contributed = (d: Desk, c: Coalition): boolean => {
  const m = c.commitments[d.me];
  return !!m && (m.blockIds.length > 0 || m.escrow > 0);
};

/** Whether `id` names an active coalition of this seat. */
function activeCoalition(d: Desk, id: string | null): boolean {
  const mine = d.obs.myCoalitions;
  for (let i = 0; i < mine.length; i++) if (mine[i]!.id === id && mine[i]!.status === 'active') return true;
  return false;
}

/** Own blocks committed to an active coalition. */
export function committedOwn(d: Desk): Block[] {
  const out: Block[] = [];
  if (d.obs.myCoalitions.length === 0) return out; // nothing can be committed without a coalition
  for (let i = 0; i < d.blocks.length; i++) {
    const b = d.blocks[i]!;
    if (b.status === 'committed' && !isSpent(d, b.id) && activeCoalition(d, b.committedTo)) out.push(b);
  }
  return out;
}

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
  d.spent.push(cand.id);
  // The breach dissolves the coalition: partners' committed blocks leave the pool at once.
  const c = d.obs.myCoalitions.find((x) => x.id === cand.committedTo);
  for (const m of c?.members ?? [])
    if (m !== d.me) for (const id of c?.commitments[m]?.blockIds ?? []) d.spent.push(id);
  return allocate(d, p.job, [...own, cand]);
}
