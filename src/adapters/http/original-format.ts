/**
 * The original arena's answer shapes (its pydantic models,
 * https://github.com/abhinavgautam01/GPU_Budget_Negotiation_Arena/blob/128c8c20f9b6ebd941741bcf947af778441ff623/gpu_budget_arena/models.py;
 * docs/RULES.md §A.1) built
 * from what this engine shows a seat, for `--compat original` / `observation_format: "original"`:
 * snake_case objects with the original's names and types, so clients that validate with its pydantic
 * models (and its SFT data) see the observation they were written for.
 *
 * Inputs are a seat's own observation (engine `observe`) plus public facts only (every active offer's
 * endpoints, a coalition's creation round, the public view), so nothing here can show one seat another
 * seat's private values. Where this engine has no counterpart, the closest honest value
 * (docs/HTTP-API.md, "Compat original"):
 * - `JobView.private_notes`: the job's own status here (`outcome=<pending|completed|partial|missed>`,
 *   `allocated_hours=<h>`, `demand_surge` for a job a shock added); the original drew a random label.
 * - `JobView.completed`: fully allocated or settled complete (the original completed a job at allocation).
 * - `GpuBlockView.start_round`: 0 (every block here is usable from the first round; the original's was unused).
 * - `reserved_by` / `allocated_to_job_id`: the seat's own blocks only; another lab's are null (private).
 * - `PublicMarketView.market_pressure`: the mean of every lab's public demand level (the original summed
 *   every lab's hidden demand); `shock_history`: `round_<r>: <text>` lines.
 * - `CoalitionView.trust_score`: the mean public reputation of its members now; `breach_status`:
 *   `breached` for a breached coalition, `excused` when a member of the seat's own coalition was excused.
 * - `MessageView.signal`: the original's keyword signal of the text (docs/RULES.md §A.1; it influences nothing).
 * - `OfferView.conditions`: `{}`, or `{ask: n}` for an offer that asks the recipient to pay n credits
 *   (the original's `payment` only flows sender → recipient); `linked_offer_id`: the countered offer.
 */
import { observe, publicView } from '../../engine/index.js';
import type {
  Block,
  Coalition,
  Job,
  LabId,
  MatchState,
  Message,
  Offer,
  RewardBreakdown,
  ShockEvent,
} from '../../engine/types.js';
import type { DemandLevel, Observation, PublicBlock, PublicCoalition, PublicLab } from '../../engine/views.js';
import type {
  OriginalBlock,
  OriginalCoalition,
  OriginalJob,
  OriginalLab,
  OriginalMessage,
  OriginalObservation,
  OriginalOffer,
  OriginalPublicState,
  OriginalResult,
  OriginalReward,
} from './original-shapes.js';

export type { OriginalObservation, OriginalPublicState } from './original-shapes.js';

/** The original's benchmark id (its /health and /tasks). */
export const ORIGINAL_BENCHMARK_ID = 'gpu_budget_negotiation';

/** What an answer adds to the seat's view: its task id, last result and this step's reward. */
export interface OriginalContext {
  taskId: string;
  last: OriginalResult;
  reward: number;
  breakdown: RewardBreakdown;
  done: boolean;
}

/** Our 11 reward columns under the original's names (same values: the columns sum as in native answers). */
export function originalReward(b: RewardBreakdown): OriginalReward {
  return {
    job_utility_score: b.job_utility,
    deal_quality_score: b.deal_quality,
    coalition_reliability_score: b.coalition_reliability,
    judge_argument_score: b.judge_argument,
    budget_efficiency_score: b.budget_efficiency,
    negotiation_efficiency_score: b.negotiation_efficiency,
    market_adaptation_score: b.market_adaptation,
    invalid_action_penalty: b.invalid_action_penalty,
    spam_penalty: b.spam_penalty,
    breach_penalty: b.breach_penalty,
    normalized_reward: b.normalized_reward,
  };
}

const SIGNALS: [OriginalMessage['signal'], string[]][] = [
  ['urgency', ['urgent', 'deadline', 'asap']],
  ['fairness', ['fair', 'mutual', 'both']],
  ['coalition', ['coalition', 'partner', 'commit']],
  ['threat', ['punish', 'never', 'retaliate']],
];

/** The original's keyword signal of a message (docs/RULES.md §A.1): lower-case substrings, in that priority. */
export function messageSignal(text: string): OriginalMessage['signal'] {
  const lower = text.toLowerCase();
  for (const [signal, words] of SIGNALS) if (words.some((w) => lower.includes(w))) return signal;
  return 'neutral';
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

function job(j: Job): OriginalJob {
  const notes = [`outcome=${j.outcome}`, `allocated_hours=${j.allocatedHours}`];
  if (j.surge) notes.push('demand_surge');
  return {
    job_id: j.id,
    gpu_hours_required: j.gpuHoursRequired,
    deadline_round: j.deadlineRound,
    base_value: j.baseValue,
    urgency_multiplier: j.urgencyMultiplier,
    min_reliability: j.minReliability,
    partial_credit_allowed: j.partialCreditAllowed,
    private_notes: notes.join(', '),
    completed: j.outcome === 'completed' || (j.outcome === 'pending' && j.allocatedHours >= j.gpuHoursRequired),
    allocated_block_ids: [...j.allocatedBlockIds],
  };
}

/** A block; `own` (the seat's full record) gives its reservation and job, others' stay null. */
function block(b: PublicBlock, own: Block | undefined): OriginalBlock {
  return {
    block_id: b.id,
    start_round: 0,
    duration: b.duration,
    gpu_count: b.gpuCount,
    reliability: b.reliability,
    energy_cost: b.energyCost,
    owner_lab_id: b.owner,
    reserved_by: own?.reservedFor ?? null,
    allocated_to_job_id: own?.usedFor ?? null,
    status: b.status,
  };
}

function offer(o: Offer): OriginalOffer {
  const status = o.status === 'withdrawn' || o.status === 'countered' ? 'rejected' : o.status;
  return {
    offer_id: o.id,
    from_lab_id: o.from,
    to_lab_id: o.to,
    round_created: o.roundCreated,
    expires_round: o.expiresRound,
    offered_blocks: [...o.offeredBlockIds],
    requested_blocks: [...o.requestedBlockIds],
    payment: o.payment,
    message: o.message === '' ? null : o.message,
    conditions: (o.ask ?? 0) > 0 ? { ask: o.ask! } : {},
    status,
    linked_offer_id: o.linkedOfferId,
  };
}

function message(m: Message): OriginalMessage {
  return { from_lab_id: m.from, to_lab_id: m.to, round_index: m.round, message: m.text, signal: messageSignal(m.text) };
}

const shockLine = (e: ShockEvent): string => `round_${e.round}: ${e.text}`;

const LEVEL: Record<DemandLevel, number> = { low: 0, medium: 1, high: 2 };

/** Public facts the views do not carry: active offers per lab, each coalition's creation round. */
interface PublicExtras {
  offersOf: Map<LabId, number>;
  createdAt: Map<string, number>;
}

function extras(s: MatchState): PublicExtras {
  const offersOf = new Map<LabId, number>();
  for (const id in s.offers) {
    const o = s.offers[id]!;
    if (o.status !== 'active') continue;
    offersOf.set(o.from, (offersOf.get(o.from) ?? 0) + 1);
    offersOf.set(o.to, (offersOf.get(o.to) ?? 0) + 1);
  }
  const createdAt = new Map<string, number>();
  for (const id in s.coalitions) createdAt.set(id, s.coalitions[id]!.roundCreated);
  return { offersOf, createdAt };
}

function lab(l: PublicLab, x: PublicExtras, coalitions: { id: string; members: LabId[] }[]): OriginalLab {
  return {
    lab_id: l.id,
    public_name: l.publicName,
    reputation: round3(l.reputation),
    public_budget_band: l.budgetBand,
    public_demand: l.demandLevel,
    owned_block_ids: [...l.blockIds],
    active_offer_count: x.offersOf.get(l.id) ?? 0,
    coalition_ids: coalitions.filter((c) => c.members.includes(l.id)).map((c) => c.id),
  };
}

/** A coalition: the seat's own (full record) or another's public facts; commitments by block owner. */
function coalition(
  c: Coalition | PublicCoalition,
  x: PublicExtras,
  reputation: (lab: LabId) => number,
  owner: (block: string) => LabId | undefined,
): OriginalCoalition {
  const commitments: Record<string, string[]> = {};
  let excused = false;
  if ('commitments' in c) {
    for (const m of c.members) {
      const cm = c.commitments[m];
      commitments[m] = cm ? [...cm.blockIds] : [];
      if (cm?.standing === 'excused') excused = true;
    }
  } else {
    for (const m of c.members) commitments[m] = [];
    for (const b of c.committedBlockIds) {
      const o = owner(b);
      if (o !== undefined && commitments[o]) commitments[o].push(b);
    }
  }
  const trust = c.members.length === 0 ? 0.5 : c.members.reduce((a, m) => a + reputation(m), 0) / c.members.length;
  return {
    coalition_id: c.id,
    members: [...c.members],
    purpose: c.purpose,
    commitments,
    trust_score: round3(trust),
    round_created: x.createdAt.get(c.id) ?? 0,
    expires_round: c.expiresRound,
    breach_status: c.status === 'breached' ? 'breached' : excused ? 'excused' : 'none',
  };
}

/** Shared parts of the observation and the public state. */
function parts(s: MatchState, obs: Observation, x: PublicExtras) {
  const owners = new Map(obs.blocks.map((b) => [b.id, b.owner]));
  const reps = new Map<LabId, number>(obs.labs.map((l) => [l.id, l.reputation]));
  reps.set(obs.self.id, obs.self.reputation);
  const all = [...obs.myCoalitions, ...obs.coalitions].filter((c) => c.expiresRound >= s.round);
  const coalitions = all.map((c) =>
    coalition(
      c,
      x,
      (m) => reps.get(m) ?? 0.5,
      (b) => owners.get(b),
    ),
  );
  const everyCoalition = [...obs.myCoalitions, ...obs.coalitions].map((c) => ({ id: c.id, members: c.members }));
  return { coalitions, everyCoalition };
}

/**
 * The original's observation of `seat` (contract "Observation"). `ctx.taskId` is what the answer may say
 * (self-play hides the seed until the match is over).
 */
export function originalObservation(s: MatchState, seat: LabId, ctx: OriginalContext): OriginalObservation {
  const obs = observe(s, seat);
  const x = extras(s);
  const own = new Map(obs.self.blocks.map((b) => [b.id, b]));
  const { coalitions, everyCoalition } = parts(s, obs, x);
  const live = obs.blocks.filter(
    (b) => b.status === 'available' || b.status === 'reserved' || b.status === 'committed',
  );
  const levels = [...obs.labs.map((l) => l.demandLevel), ownDemand(obs)];
  const mean = levels.reduce((a, l) => a + LEVEL[l], 0) / levels.length;
  return {
    task_id: ctx.taskId,
    difficulty: obs.difficulty,
    round_index: obs.round,
    max_rounds: obs.maxRounds,
    controlled_lab_id: seat,
    controlled_lab_budget: Math.round(obs.self.budget * 100) / 100,
    controlled_lab_reputation: round3(obs.self.reputation),
    private_jobs: obs.self.jobs.map(job),
    owned_blocks: obs.self.blocks.map((b) => block(b, b)),
    public_market: {
      available_blocks: live.map((b) => block(b, own.get(b.id))),
      market_pressure: mean < 0.5 ? 'low' : mean < 1.5 ? 'medium' : 'high',
      shock_history: obs.shockHistory.map(shockLine),
    },
    visible_labs: obs.labs.map((l) => lab(l, x, everyCoalition)),
    active_offers: obs.offers.map(offer),
    active_coalitions: coalitions,
    message_history: obs.messages.map(message),
    last_action_result: ctx.last,
    reward: ctx.reward,
    cumulative_reward: obs.cumulativeReward,
    reward_breakdown: originalReward(ctx.breakdown),
    done: ctx.done,
  };
}

/** The seat's own demand level, as the engine rates every lab publicly (docs/RULES.md §0 demandLevel). */
function ownDemand(obs: Observation): DemandLevel {
  let need = 0;
  for (const j of obs.self.jobs)
    if (j.outcome === 'pending') need += Math.max(0, j.gpuHoursRequired - j.allocatedHours);
  let have = 0;
  for (const b of obs.self.blocks) if (b.status !== 'used' && b.status !== 'failed') have += b.gpuHours;
  const ratio = need / Math.max(1, have);
  return ratio < 0.7 ? 'low' : ratio < 1.4 ? 'medium' : 'high';
}

/**
 * `GET /state` of a single-seat session in the original's shape: the public view (every block, every
 * active offer, public messages) around the controlled `seat`, with the seed the trainer chose.
 */
export function originalPublicState(
  s: MatchState,
  seat: LabId,
  ctx: { taskId: string; judgeMode: 'off' | 'rule'; last: OriginalResult; done: boolean },
): OriginalPublicState {
  const pub = publicView(s);
  const obs = observe(s, seat);
  const x = extras(s);
  const { coalitions, everyCoalition } = parts(s, obs, x);
  return {
    task_id: ctx.taskId,
    task_type: pub.task,
    difficulty: pub.difficulty,
    // HTTP sessions are created from the trainer's integer seeds (routes.ts), never from a match secret.
    seed: Number(pub.seed),
    judge_mode: ctx.judgeMode,
    round_index: pub.round,
    max_rounds: pub.maxRounds,
    controlled_lab_id: seat,
    visible_labs: obs.labs.map((l) => lab(l, x, everyCoalition)),
    public_blocks: pub.blocks.map((b) => block(b, undefined)),
    active_offers: pub.offers.map(offer),
    active_coalitions: coalitions,
    message_history: pub.messages.slice(-20).map(message),
    shock_history: pub.shockHistory.map(shockLine),
    last_action_result: ctx.last,
    cumulative_reward: obs.cumulativeReward,
    done: ctx.done,
  };
}
