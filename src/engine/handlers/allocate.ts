/**
 * allocate_to_job (docs/RULES.md §3.10): blocks are consumed (status used) and their hours accumulate on
 * the job (docs/RULES.md §A.2 D11); a member may use a partner's block committed to an active coalition (pooling).
 * Value is realised when the job settles, never here.
 */
import type { Action } from '../actions.js';
import type { Block, MatchState } from '../types.js';
import { own, round2 } from '../util.js';
import { checkDuplicates, fail, ok } from './common.js';
import type { Ctx, Outcome } from './common.js';

type Allocate = Extract<Action, { action_type: 'allocate_to_job' }>;

/** The active coalition through which `lab` may use a partner's committed block, or null. */
function poolOf(s: MatchState, lab: string, b: Block): string | null {
  if (b.owner === lab || b.status !== 'committed' || b.committedTo === null) return null;
  const c = s.coalitions[b.committedTo];
  return c && c.status === 'active' && c.commitments[lab] !== undefined ? c.id : null;
}

export function allocateToJob(ctx: Ctx, a: Allocate): Outcome {
  const { d, lab } = ctx;
  const s = d.s;
  const job = own(s.jobs, a.job_id);
  if (!job || job.owner !== lab) return fail('unknown_job', `${a.job_id} is not one of your jobs`);
  if (job.outcome !== 'pending') return fail('job_settled', `${job.id} has settled (${job.outcome})`);
  if (job.allocatedHours >= job.gpuHoursRequired) return fail('job_completed', `${job.id} already has its hours`);
  if (a.block_ids.length === 0) return fail('empty_block_list', 'name at least one block');
  const dup = checkDuplicates(a.block_ids);
  if (dup) return dup;
  const ids = a.block_ids;
  const pools: (string | null)[] = [];
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    const b = own(s.blocks, id);
    if (!b) return fail('unknown_block', `no block ${id}`);
    const pool = poolOf(s, lab, b);
    if (b.owner !== lab && pool === null)
      return fail('unowned_block', `${id} is neither yours nor in an active coalition pool of yours`);
    if (b.status === 'failed') return fail('failed_block', `${id} has failed`);
    if (b.status === 'used') return fail('block_used', `${id} was already used`);
    if (b.status === 'committed' && pool === null)
      return fail('unavailable_block', `${id} is committed to ${b.committedTo}; release it first`);
    if (b.reliability < job.minReliability)
      return fail('low_reliability', `${id} reliability ${b.reliability} < ${job.minReliability}`);
    pools.push(pool);
  }
  let hours = 0;
  let energy = 0;
  for (let i = 0; i < ids.length; i++) {
    const b = d.block(ids[i]!);
    const pool = pools[i];
    if (pool) {
      const c = d.coalition(pool);
      c.hoursUsedByPartners[b.owner] = (c.hoursUsedByPartners[b.owner] ?? 0) + b.gpuHours;
      b.owner = lab;
    }
    b.status = 'used';
    b.usedFor = job.id;
    b.reservedFor = null;
    b.committedTo = null;
    hours += b.gpuHours;
    energy += b.energyCost;
  }
  const j = d.job(job.id);
  j.allocatedHours += hours;
  j.allocatedBlockIds = j.allocatedBlockIds.concat(a.block_ids);
  j.energyCost = round2(j.energyCost + energy);
  const done = j.allocatedHours >= j.gpuHoursRequired;
  return ok(
    'job_allocated',
    `${j.id}: ${j.allocatedHours}/${j.gpuHoursRequired} GPU-hours${done ? ' (complete)' : ''}`,
  );
}
