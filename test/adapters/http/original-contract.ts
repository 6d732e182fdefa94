/**
 * The original arena's answer shapes as strict zod schemas, written from its pydantic models
 * (https://github.com/abhinavgautam01/GPU_Budget_Negotiation_Arena/blob/128c8c20f9b6ebd941741bcf947af778441ff623/gpu_budget_arena/models.py), not from our mapper: every field it lists is required
 * here (even those its pydantic models default, because a client reads them), no other key is allowed,
 * and each has the contract's type. A misnamed, missing or extra nested field fails the parse.
 */
import { z } from 'zod';

const level = z.enum(['low', 'medium', 'high']);
const int = z.number().int();
const float = z.number().refine(Number.isFinite, 'a finite number');

export const JobView = z.strictObject({
  job_id: z.string(),
  gpu_hours_required: float,
  deadline_round: int,
  base_value: float,
  urgency_multiplier: float,
  min_reliability: float,
  partial_credit_allowed: z.boolean(),
  private_notes: z.string(),
  completed: z.boolean(),
  allocated_block_ids: z.array(z.string()),
});

export const GpuBlockView = z.strictObject({
  block_id: z.string(),
  start_round: int,
  duration: int,
  gpu_count: int,
  reliability: float,
  energy_cost: float,
  owner_lab_id: z.string(),
  reserved_by: z.string().nullable(),
  allocated_to_job_id: z.string().nullable(),
  status: z.enum(['available', 'reserved', 'committed', 'used', 'failed']),
});

export const VisibleLabView = z.strictObject({
  lab_id: z.string(),
  public_name: z.string(),
  reputation: float,
  public_budget_band: level,
  public_demand: level,
  owned_block_ids: z.array(z.string()),
  active_offer_count: int,
  coalition_ids: z.array(z.string()),
});

export const OfferView = z.strictObject({
  offer_id: z.string(),
  from_lab_id: z.string(),
  to_lab_id: z.string(),
  round_created: int,
  expires_round: int,
  offered_blocks: z.array(z.string()),
  requested_blocks: z.array(z.string()),
  payment: float,
  message: z.string().nullable(),
  conditions: z.record(z.string(), z.unknown()),
  status: z.enum(['active', 'accepted', 'rejected', 'expired', 'invalid']),
  linked_offer_id: z.string().nullable(),
});

export const CoalitionView = z.strictObject({
  coalition_id: z.string(),
  members: z.array(z.string()),
  purpose: z.string(),
  commitments: z.record(z.string(), z.array(z.string())),
  trust_score: float,
  round_created: int,
  expires_round: int,
  breach_status: z.enum(['none', 'breached', 'excused']),
});

export const MessageView = z.strictObject({
  from_lab_id: z.string(),
  to_lab_id: z.string().nullable(),
  round_index: int,
  message: z.string(),
  signal: z.enum(['urgency', 'fairness', 'coalition', 'threat', 'neutral']),
});

export const PublicMarketView = z.strictObject({
  available_blocks: z.array(GpuBlockView),
  market_pressure: level,
  shock_history: z.array(z.string()),
});

export const ActionResult = z.strictObject({ ok: z.boolean(), code: z.string(), message: z.string() });

export const RewardBreakdown = z.strictObject({
  job_utility_score: float,
  deal_quality_score: float,
  coalition_reliability_score: float,
  judge_argument_score: float,
  budget_efficiency_score: float,
  negotiation_efficiency_score: float,
  market_adaptation_score: float,
  invalid_action_penalty: float,
  spam_penalty: float,
  breach_penalty: float,
  normalized_reward: float,
});

export const Observation = z.strictObject({
  task_id: z.string(),
  difficulty: z.enum(['easy', 'medium', 'hard']),
  round_index: int,
  max_rounds: int,
  controlled_lab_id: z.string(),
  controlled_lab_budget: float,
  controlled_lab_reputation: float,
  private_jobs: z.array(JobView),
  owned_blocks: z.array(GpuBlockView),
  public_market: PublicMarketView,
  visible_labs: z.array(VisibleLabView),
  active_offers: z.array(OfferView),
  active_coalitions: z.array(CoalitionView),
  message_history: z.array(MessageView),
  last_action_result: ActionResult.nullable(),
  reward: float,
  cumulative_reward: float,
  reward_breakdown: RewardBreakdown,
  done: z.boolean(),
});

export const PublicState = z.strictObject({
  task_id: z.string(),
  task_type: z.enum(['single_trade', 'market_round', 'coalition_market']),
  difficulty: z.enum(['easy', 'medium', 'hard']),
  seed: int,
  judge_mode: z.enum(['off', 'rule']),
  round_index: int,
  max_rounds: int,
  controlled_lab_id: z.string(),
  visible_labs: z.array(VisibleLabView),
  public_blocks: z.array(GpuBlockView),
  active_offers: z.array(OfferView),
  active_coalitions: z.array(CoalitionView),
  message_history: z.array(MessageView),
  shock_history: z.array(z.string()),
  last_action_result: ActionResult.nullable(),
  cumulative_reward: float,
  done: z.boolean(),
});

/** Parse or fail with every issue's path (what a pydantic client would report). */
export function mustParse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const r = schema.safeParse(value);
  if (!r.success)
    throw new Error(`${what}: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return r.data;
}
