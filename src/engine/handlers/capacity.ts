/**
 * Reservations (docs/RULES.md §3.7–3.8). Releasing a block committed to an active coalition is a breach.
 */
import type { Action } from '../actions.js';
import { breachCoalition, withdrawFromProposal } from '../coalition-ops.js';
import { checkBlocks, checkDuplicates, fail, ok, ownPendingJob } from './common.js';
import type { Ctx, Outcome } from './common.js';

type Reserve = Extract<Action, { action_type: 'reserve_capacity' }>;
type Release = Extract<Action, { action_type: 'release_capacity' }>;

export function reserveCapacity(ctx: Ctx, a: Reserve): Outcome {
  const { d, lab } = ctx;
  if (a.block_ids.length === 0) return fail('empty_block_list', 'name at least one block');
  const err =
    checkDuplicates(a.block_ids) ??
    checkBlocks(
      d.s,
      a.block_ids,
      lab,
      'unowned_block',
      (b) => b.status === 'available',
      'unavailable_block',
      'only available blocks can be reserved',
    ) ??
    (a.job_id !== null ? ownPendingJob(d.s, lab, a.job_id) : null);
  if (err) return err;
  for (const id of a.block_ids) {
    const b = d.block(id);
    b.status = 'reserved';
    b.reservedFor = a.job_id ?? lab;
  }
  return ok('capacity_reserved', `reserved ${a.block_ids.join(', ')}${a.job_id ? ` for ${a.job_id}` : ''}`);
}

export function releaseCapacity(ctx: Ctx, a: Release): Outcome {
  const { d, lab } = ctx;
  if (a.block_ids.length === 0) return fail('empty_block_list', 'name at least one block');
  const err =
    checkDuplicates(a.block_ids) ??
    checkBlocks(
      d.s,
      a.block_ids,
      lab,
      'unowned_block',
      (b) => b.status === 'reserved' || b.status === 'committed',
      'not_reserved',
      'only reserved or committed blocks can be released',
    );
  if (err) return err;
  const breached: string[] = [];
  for (const id of a.block_ids) {
    const b = d.s.blocks[id]!;
    if (b.status === 'committed' && b.committedTo !== null) {
      const c = d.s.coalitions[b.committedTo]!;
      if (c.status === 'active') {
        if (!breached.includes(c.id)) breached.push(c.id);
        continue;
      }
      withdrawFromProposal(d, c.id, lab, id);
    }
    const w = d.block(id);
    w.status = 'available';
    w.reservedFor = null;
    w.committedTo = null;
  }
  for (const cid of breached) breachCoalition(d, cid, lab, ctx.sink);
  if (breached.length > 0)
    return ok('coalition_breached', `released ${a.block_ids.join(', ')}: you breached ${breached.join(', ')}`);
  return ok('capacity_released', `released ${a.block_ids.join(', ')}`);
}
