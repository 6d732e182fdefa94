/**
 * Job settlement (docs/RULES.md §4.3) and a seat's final settlement (§4.4), used at round close and by
 * `finish`. Value is realised here and only here (fixes the original's dead settlement: docs/RULES.md §A.2 D3).
 */
import type { Job, LabId } from './types.js';
import type { PitchBonusEvent, SettlementEvent } from './views.js';
import { settleHeld } from './pitch-bonus.js';
import type { Draft, RewardSink } from './mut.js';
import { IDLE_RESERVATION_COST } from './reward.js';
import { closeCoalition, lapseCoalition } from './coalition-ops.js';
import { clamp, round2 } from './util.js';
import { jobValue } from './valuation.js';

/** Credits of realised value worth a job_utility of 1 (docs/RULES.md §4.1). */
export const JOB_UTILITY_SCALE = 150;
/** Lower bound of one job's job_utility. */
export const JOB_UTILITY_MIN = -0.5;
/** Credits of gain worth a deal_quality of 1 (docs/RULES.md §3.2). */
export const DEAL_SCALE = 100;

/**
 * Whether any block of `d.base.blocks` is reserved, read once per draft (one action or one round close;
 * the base state is not written while a draft of it is in use) instead of once per settled job: a
 * round close settles several jobs, the last one every seat's.
 */
function baseHasReservation(d: Draft): boolean {
  if (d.baseReserved === null) {
    let any = false;
    const blocks = d.base.blocks;
    for (const id in blocks) {
      if (blocks[id]!.status === 'reserved') {
        any = true;
        break;
      }
    }
    d.baseReserved = any;
  }
  return d.baseReserved;
}

/**
 * Release every block of `lab` reserved for `holder` (a job id; null: for anything); each costs
 * job_utility. A string rather than a predicate: this runs for every settled job, without a closure.
 */
function releaseIdle(d: Draft, lab: LabId, holder: string | null, sink: RewardSink): void {
  const blocks = d.s.blocks;
  // Still the base's record (no block written yet) and no reservation in it: nothing to release.
  if (blocks === d.base.blocks && !baseHasReservation(d)) return;
  for (const id in blocks) {
    const b = blocks[id]!;
    // status first: reserved blocks are few, so most blocks cost one load.
    const reservedFor = b.reservedFor;
    if (
      b.status === 'reserved' &&
      b.owner === lab &&
      reservedFor !== null &&
      (holder === null || reservedFor === holder)
    ) {
      // Read before the write: when the close's draft already holds its own copy of the block, d.block
      // returns that same object (`b`), and clearing it would clear what the entry names.
      const w = d.block(id);
      w.status = 'available';
      w.reservedFor = null;
      // A reservation for the lab itself (reserve_capacity without a job) names no job.
      sink.add(lab, 'job_utility', IDLE_RESERVATION_COST, {
        kind: 'idle_reservation',
        blockId: id,
        jobId: reservedFor === lab ? null : reservedFor,
      });
    }
  }
}

/**
 * A completed job that used traded capacity realises the trade's mutual benefit: its owner and every
 * (unfinished) lab that traded it one of those blocks get negotiation_efficiency 1, once per job.
 * Paid here rather than at the trade, so that trading back and forth earns nothing (docs/RULES.md §A.2 D4–D5).
 */
function rewardTraders(d: Draft, job: Job, sink: RewardSink): void {
  const owner = job.owner;
  const sellers: LabId[] = [];
  let tradedHours = 0;
  for (const id of job.allocatedBlockIds) {
    const b = d.s.blocks[id];
    const from = b?.tradedFrom;
    if (from === undefined || from === owner) continue;
    tradedHours += b!.gpuHours;
    if (!sellers.includes(from)) sellers.push(from);
  }
  // Traded blocks that were not needed (padding) realise no trade benefit.
  if (sellers.length === 0 || job.allocatedHours - tradedHours >= job.gpuHoursRequired) return;
  sink.add(owner, 'negotiation_efficiency', 1, { kind: 'traded_job', jobId: job.id, owner });
  for (const lab of sellers)
    if (!d.s.labs[lab]!.finished)
      sink.add(lab, 'negotiation_efficiency', 1, { kind: 'traded_job', jobId: job.id, owner });
}

/**
 * Settle one pending job: credit 1 if complete, allocated/required with partial credit, else 0;
 * realisedValue = base × urgency × credit − energy (0 without allocation). job_utility +=
 * clamp(value / 150, −0.5, 1); market_adaptation += 1 if complete and a shock touched it; if complete
 * with traded blocks, negotiation_efficiency 1 for the owner and the sellers; deal_quality −=
 * (tradeCredit − value × credit) / 100 when trades credited more of the job than it realised; its held
 * judge bonus pays × credit into judge_argument (the rest is forfeited; events to `log`, dated `round`);
 * blocks still reserved for it are released at −0.05 each.
 */
export function settleJob(
  d: Draft,
  jobId: string,
  sink: RewardSink,
  log?: PitchBonusEvent[],
  round = d.s.round,
): SettlementEvent {
  const j = d.job(jobId);
  const complete = j.allocatedHours >= j.gpuHoursRequired;
  const credit = complete ? 1 : j.partialCreditAllowed ? j.allocatedHours / j.gpuHoursRequired : 0;
  j.outcome = complete ? 'completed' : j.partialCreditAllowed && j.allocatedHours > 0 ? 'partial' : 'missed';
  j.realisedValue = j.allocatedHours === 0 ? 0 : round2(jobValue(j) * credit - j.energyCost);
  sink.add(j.owner, 'job_utility', clamp(j.realisedValue / JOB_UTILITY_SCALE, JOB_UTILITY_MIN, 1), {
    kind: 'job_settled',
    jobId: j.id,
    outcome: j.outcome,
    value: j.realisedValue,
    credit,
  });
  // Trades credited this job's value as deal gain; take back what it did not realise (gross of energy).
  const unrealised = (j.tradeCredit ?? 0) - jobValue(j) * credit;
  if (unrealised > 0)
    sink.add(j.owner, 'deal_quality', -unrealised / DEAL_SCALE, {
      kind: 'trade_unrealised',
      jobId: j.id,
      credits: unrealised,
    });
  if (complete && j.shockAffected) sink.add(j.owner, 'market_adaptation', 1, { kind: 'shock_adapted', jobId: j.id });
  if (complete) rewardTraders(d, j, sink);
  if (j.heldBonus !== undefined) settleHeld(j, credit, round, sink, log);
  releaseIdle(d, j.owner, j.id, sink);
  return { lab: j.owner, jobId: j.id, outcome: j.outcome };
}

/** Record a settlement event; returns its outcome. */
function settled(events: SettlementEvent[], ev: SettlementEvent): SettlementEvent['outcome'] {
  events.push(ev);
  return ev.outcome;
}

/**
 * Final settlement of one seat (match end or finish): pending jobs settle, every remaining reservation
 * is idle (−0.05 each), its proposed coalitions lapse and active ones close honoured (for every member),
 * its active offers are withdrawn (sent) or rejected (received), and budget_efficiency =
 * completed-job share × clamp(budget / initialBudget, 0, 1).
 */
export function finalSettlement(
  d: Draft,
  lab: LabId,
  sink: RewardSink,
  log?: PitchBonusEvent[],
  round = d.s.round,
): SettlementEvent[] {
  const events: SettlementEvent[] = [];
  // One pass settles and counts (settling a job changes no other job): its outcome after settlement.
  let total = 0;
  let completed = 0;
  // Entries read through the enumerated record are current even once d.s.jobs is a copy (see closeRound).
  const jobs = d.s.jobs;
  for (const id in jobs) {
    const j = jobs[id]!;
    if (j.owner !== lab) continue;
    total += 1;
    const outcome = j.outcome === 'pending' ? settled(events, settleJob(d, id, sink, log, round)) : j.outcome;
    if (outcome === 'completed') completed += 1;
  }
  releaseIdle(d, lab, null, sink);
  for (const id in d.s.coalitions) {
    const c = d.s.coalitions[id]!;
    if (!c.members.includes(lab)) continue;
    if (c.status === 'active') closeCoalition(d, id, sink);
    else if (c.status === 'proposed') lapseCoalition(d, id);
  }
  for (const id in d.s.offers) {
    const o = d.s.offers[id]!;
    if (o.status !== 'active') continue;
    if (o.from === lab) d.offer(id).status = 'withdrawn';
    else if (o.to === lab) d.offer(id).status = 'rejected';
  }
  const l = d.s.labs[lab]!;
  const share = total === 0 ? 0 : completed / total;
  sink.add(lab, 'budget_efficiency', share * clamp(l.budget / l.initialBudget, 0, 1), {
    kind: 'budget',
    completed,
    total,
    budget: l.budget,
    initialBudget: l.initialBudget,
  });
  return events;
}
