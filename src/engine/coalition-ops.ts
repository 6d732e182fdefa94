/**
 * Coalition life-cycle effects shared by actions, finish and round close (docs/RULES.md §3.9):
 * honoured close with escrow payout, lapse of an unconsented proposal, breach and dissolution.
 * Money moves between escrow and budgets only, so the ledger (§4.5) stays balanced.
 */
import type { Coalition, LabId } from './types.js';
import type { Draft, RewardSink } from './mut.js';
import { BREACH_PENALTY } from './reward.js';
import { clamp, round4, splitCents } from './util.js';
import { addGrudge } from './grudges.js';

/** Reputation lost by a breacher (as the original: docs/RULES.md §A.1). */
export const BREACH_REPUTATION = -0.12;

/** Committed blocks still held by the coalition go back to their owners as available. */
function returnBlocks(d: Draft, c: Coalition): void {
  for (const m of c.members) {
    for (const id of c.commitments[m]?.blockIds ?? []) {
      const b = d.s.blocks[id];
      if (b && b.status === 'committed' && b.committedTo === c.id) {
        const w = d.block(id);
        w.status = 'available';
        w.committedTo = null;
      }
    }
  }
}

function credit(d: Draft, lab: LabId, cents: number): void {
  if (cents !== 0) d.setBudget(lab, d.s.labs[lab]!.budget + cents / 100);
}

const escrowCents = (c: Coalition, m: LabId) => Math.round((c.commitments[m]?.escrow ?? 0) * 100);

function clearEscrow(c: Coalition): void {
  for (const m of c.members) {
    const cm = c.commitments[m];
    if (cm) cm.escrow = 0;
  }
}

/** Credits a member must have put in escrow (if it committed no block) to earn coalition_reliability as a user of the pool (docs/RULES.md §3.9). */
export const MIN_ESCROW_FOR_CREDIT = 5;

/** Whether member `m` committed a block or at least MIN_ESCROW_FOR_CREDIT credits of escrow to `c`. */
function paidIn(c: Coalition, m: LabId): boolean {
  const cm = c.commitments[m];
  return cm !== undefined && (cm.blockIds.length > 0 || cm.escrow >= MIN_ESCROW_FOR_CREDIT);
}

/**
 * Members whose pooling realised value: a member whose committed block a partner used in a job that got
 * all its hours (it supplied the work), and the owner of that job if it committed something itself (a
 * block, or ≥ 5 credits of escrow, which pays the suppliers). Escrow alone with nothing used, a bare
 * consent, or blocks poured into a hopeless job earn nothing (docs/RULES.md §3.9).
 */
function servingMembers(d: Draft, c: Coalition): Set<LabId> {
  const out = new Set<LabId>();
  for (const m of c.members) {
    for (const id of c.commitments[m]?.blockIds ?? []) {
      const b = d.s.blocks[id];
      if (!b || b.status !== 'used' || b.owner === m || b.usedFor === null) continue;
      const j = d.s.jobs[b.usedFor];
      if (!j || j.allocatedHours < j.gpuHoursRequired) continue;
      out.add(m);
      if (paidIn(c, j.owner)) out.add(j.owner);
    }
  }
  return out;
}

/**
 * Close an active coalition honoured: unused committed blocks return; escrow is paid to members in
 * proportion to their hoursUsedByPartners (refunded to payers when nobody's capacity was used);
 * coalition_reliability 1 goes to each member whose committed block a partner used in a job that got all
 * its hours, and to the owner of that job if it committed a block or ≥ 5 credits (so neither an escrow
 * nobody used, a consent, nor sacrificing blocks to a hopeless job earns it).
 */
export function closeCoalition(d: Draft, id: string, sink: RewardSink): void {
  const c = d.coalition(id);
  returnBlocks(d, c);
  const used = c.members.map((m) => c.hoursUsedByPartners[m] ?? 0);
  const anyUsed = used.some((h) => h > 0);
  const total = c.members.reduce((acc, m) => acc + escrowCents(c, m), 0);
  if (anyUsed) {
    // Before the escrow is paid out: a user's escrow is part of what it committed.
    const serving = servingMembers(d, c);
    for (const m of c.members)
      if (serving.has(m)) sink.add(m, 'coalition_reliability', 1, { kind: 'coalition_served', coalitionId: c.id });
  }
  if (total > 0) {
    if (anyUsed) splitCents(total, used).forEach((cents, i) => credit(d, c.members[i]!, cents));
    else for (const m of c.members) credit(d, m, escrowCents(c, m));
  }
  clearEscrow(c);
  c.status = 'closed';
}

/** A proposal that was never fully consented lapses: blocks return, escrow is refunded. */
export function lapseCoalition(d: Draft, id: string): void {
  const c = d.coalition(id);
  returnBlocks(d, c);
  for (const m of c.members) credit(d, m, escrowCents(c, m));
  clearEscrow(c);
  c.status = 'lapsed';
}

/**
 * A member withdrew a committed block from an active coalition: penalised once (breach_penalty −0.20,
 * reputation −0.12), the coalition dissolves, the others get their escrow back plus an equal share of
 * the breacher's escrow, and they hold a grudge against the breacher.
 */
export function breachCoalition(d: Draft, id: string, breacher: LabId, sink: RewardSink): void {
  const c = d.coalition(id);
  const cm = c.commitments[breacher];
  if (cm) cm.standing = 'breached';
  returnBlocks(d, c);
  const others = c.members.filter((m) => m !== breacher);
  for (const m of others) credit(d, m, escrowCents(c, m));
  const forfeited = escrowCents(c, breacher);
  if (forfeited > 0 && others.length > 0) {
    splitCents(
      forfeited,
      others.map(() => 1),
    ).forEach((cents, i) => credit(d, others[i]!, cents));
  }
  clearEscrow(c);
  c.status = 'breached';
  const lab = d.lab(breacher);
  lab.reputation = round4(clamp(lab.reputation + BREACH_REPUTATION, 0, 1));
  sink.add(breacher, 'breach_penalty', BREACH_PENALTY, { kind: 'coalition_breach', coalitionId: c.id });
  for (const m of others) addGrudge(d, m, breacher);
}

/** Withdraw a block from a coalition that is not active yet (no breach): it leaves the commitment. */
export function withdrawFromProposal(d: Draft, id: string, lab: LabId, blockId: string): void {
  const c = d.coalition(id);
  const cm = c.commitments[lab];
  if (cm) cm.blockIds = cm.blockIds.filter((b) => b !== blockId);
}
