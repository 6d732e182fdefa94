/**
 * Coalitions (docs/RULES.md §3.9): a proposal needs every member's consent (its first commit) before it
 * becomes active; committed blocks form a pool the members may allocate from; payments go to escrow.
 */
import type { Action } from '../actions.js';
import type { Coalition, CoalitionCommitment } from '../types.js';
import { isLive, own, round2 } from '../util.js';
import { checkBlocks, checkDuplicates, fail, ok } from './common.js';
import type { Ctx, Outcome } from './common.js';

type Form = Extract<Action, { action_type: 'form_coalition' }>;
type Commit = Extract<Action, { action_type: 'commit_to_coalition' }>;

const sameMembers = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

export function formCoalition(ctx: Ctx, a: Form): Outcome {
  const { d, lab } = ctx;
  const s = d.s;
  if (!s.params.coalitionsEnabled) return fail('coalitions_disabled', `coalitions are disabled in ${s.config.task}`);
  const dup = checkDuplicates(a.target_lab_ids);
  if (dup) return dup;
  for (const t of a.target_lab_ids) {
    const target = own(s.labs, t);
    if (!target || t === lab || target.finished) return fail('invalid_coalition_target', `${t} cannot be invited`);
  }
  const members = [lab, ...s.labIds.filter((l) => a.target_lab_ids.includes(l))];
  for (const id in s.coalitions) {
    const c = s.coalitions[id]!;
    if ((c.status === 'proposed' || c.status === 'active') && sameMembers(c.members, members))
      return fail('duplicate_coalition', `${c.id} already joins these labs`);
  }
  const id = `c_${s.nextCoalitionSeq}`;
  s.nextCoalitionSeq += 1;
  const commitments: Record<string, CoalitionCommitment> = {};
  const hours: Record<string, number> = {};
  for (const m of members) {
    commitments[m] = { consented: m === lab, blockIds: [], escrow: 0, standing: 'good' };
    hours[m] = 0;
  }
  const last = s.params.maxRounds - 1;
  const coalition: Coalition = {
    id,
    proposer: lab,
    members,
    purpose: a.message.length > 0 ? a.message : 'shared capacity',
    status: 'proposed',
    roundCreated: s.round,
    expiresRound: a.duration === null ? last : Math.min(s.round + a.duration - 1, last),
    commitments,
    hoursUsedByPartners: hours,
  };
  d.addCoalition(coalition);
  ctx.created.coalitionId = id;
  return ok(
    'coalition_proposed',
    `coalition ${id} proposed to ${members.slice(1).join(', ')}; each must commit to consent`,
  );
}

export function commitToCoalition(ctx: Ctx, a: Commit): Outcome {
  const { d, lab } = ctx;
  const s = d.s;
  const c0 = own(s.coalitions, a.coalition_id);
  if (!c0) return fail('unknown_coalition', `no coalition ${a.coalition_id}`);
  const cm0 = c0.commitments[lab];
  if (!cm0) return fail('not_coalition_member', `you are not a member of ${c0.id}`);
  if (c0.status !== 'proposed' && c0.status !== 'active') return fail('coalition_closed', `${c0.id} is ${c0.status}`);
  const payment = round2(a.payment);
  const err =
    checkDuplicates(a.block_ids) ??
    checkBlocks(
      s,
      a.block_ids,
      lab,
      'unowned_block',
      isLive,
      'unavailable_block',
      'only available or reserved blocks can be committed',
    );
  if (err) return err;
  if (payment > s.labs[lab]!.budget) return fail('budget_overspend', `payment ${payment} exceeds your budget`);
  if (a.block_ids.length === 0 && payment === 0 && cm0.consented)
    return fail('empty_commitment', 'you already consented; commit blocks or a payment');
  const c = d.coalition(c0.id);
  const cm = c.commitments[lab]!;
  for (const id of a.block_ids) {
    const b = d.block(id);
    b.status = 'committed';
    b.committedTo = c.id;
    b.reservedFor = null;
  }
  if (a.block_ids.length > 0) cm.blockIds = cm.blockIds.concat(a.block_ids);
  if (payment > 0) {
    d.setBudget(lab, s.labs[lab]!.budget - payment);
    cm.escrow = round2(cm.escrow + payment);
  }
  cm.consented = true;
  if (c.status === 'proposed' && c.members.every((m) => c.commitments[m]?.consented)) {
    c.status = 'active';
    return ok('coalition_activated', `${c.id} is active: every member consented`);
  }
  return ok('coalition_committed', `committed to ${c.id}`);
}
