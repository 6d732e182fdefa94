/**
 * The original arena's answer shapes as TypeScript types (its pydantic models,
 * https://github.com/abhinavgautam01/GPU_Budget_Negotiation_Arena/blob/128c8c20f9b6ebd941741bcf947af778441ff623/gpu_budget_arena/models.py): what original-format.ts builds. Field order is
 * the models'.
 */
import type { Block } from '../../engine/types.js';
import type { Observation } from '../../engine/views.js';

/** A coarse public level. */
export type Level = 'low' | 'medium' | 'high';

/** `JobView` of the contract. */
export interface OriginalJob {
  job_id: string;
  gpu_hours_required: number;
  deadline_round: number;
  base_value: number;
  urgency_multiplier: number;
  min_reliability: number;
  partial_credit_allowed: boolean;
  private_notes: string;
  completed: boolean;
  allocated_block_ids: string[];
}

/** `GpuBlockView` of the contract. */
export interface OriginalBlock {
  block_id: string;
  start_round: number;
  duration: number;
  gpu_count: number;
  reliability: number;
  energy_cost: number;
  owner_lab_id: string;
  reserved_by: string | null;
  allocated_to_job_id: string | null;
  status: Block['status'];
}

/** `VisibleLabView` of the contract. */
export interface OriginalLab {
  lab_id: string;
  public_name: string;
  reputation: number;
  public_budget_band: Level;
  public_demand: Level;
  owned_block_ids: string[];
  active_offer_count: number;
  coalition_ids: string[];
}

/** `OfferView` of the contract. */
export interface OriginalOffer {
  offer_id: string;
  from_lab_id: string;
  to_lab_id: string;
  round_created: number;
  expires_round: number;
  offered_blocks: string[];
  requested_blocks: string[];
  payment: number;
  message: string | null;
  /** `{}`, or `{ask}` for an offer that asks the recipient to pay (rules v3 `ask`; the original's `payment` only flows sender → recipient). */
  conditions: { ask?: number };
  status: 'active' | 'accepted' | 'rejected' | 'expired' | 'invalid';
  linked_offer_id: string | null;
}

/** `CoalitionView` of the contract. */
export interface OriginalCoalition {
  coalition_id: string;
  members: string[];
  purpose: string;
  commitments: Record<string, string[]>;
  trust_score: number;
  round_created: number;
  expires_round: number;
  breach_status: 'none' | 'breached' | 'excused';
}

/** `MessageView` of the contract. */
export interface OriginalMessage {
  from_lab_id: string;
  to_lab_id: string | null;
  round_index: number;
  message: string;
  signal: 'urgency' | 'fairness' | 'coalition' | 'threat' | 'neutral';
}

/** `RewardBreakdown` of the contract: seven columns carry a `_score` suffix. */
export interface OriginalReward {
  job_utility_score: number;
  deal_quality_score: number;
  coalition_reliability_score: number;
  judge_argument_score: number;
  budget_efficiency_score: number;
  negotiation_efficiency_score: number;
  market_adaptation_score: number;
  invalid_action_penalty: number;
  spam_penalty: number;
  breach_penalty: number;
  normalized_reward: number;
}

/** `ActionResult` of the contract. */
export type OriginalResult = { ok: boolean; code: string; message: string } | null;

/** `GpuNegotiationObservation` of the contract, fields in its order. */
export interface OriginalObservation {
  task_id: string;
  difficulty: Observation['difficulty'];
  round_index: number;
  max_rounds: number;
  controlled_lab_id: string;
  controlled_lab_budget: number;
  controlled_lab_reputation: number;
  private_jobs: OriginalJob[];
  owned_blocks: OriginalBlock[];
  public_market: { available_blocks: OriginalBlock[]; market_pressure: Level; shock_history: string[] };
  visible_labs: OriginalLab[];
  active_offers: OriginalOffer[];
  active_coalitions: OriginalCoalition[];
  message_history: OriginalMessage[];
  last_action_result: OriginalResult;
  reward: number;
  cumulative_reward: number;
  reward_breakdown: OriginalReward;
  done: boolean;
}

/** The original's public state (contract "Public state"): no `labs`, no private jobs or budget. */
export interface OriginalPublicState {
  task_id: string;
  task_type: string;
  difficulty: Observation['difficulty'];
  seed: number;
  judge_mode: 'off' | 'rule';
  round_index: number;
  max_rounds: number;
  controlled_lab_id: string;
  visible_labs: OriginalLab[];
  public_blocks: OriginalBlock[];
  active_offers: OriginalOffer[];
  active_coalitions: OriginalCoalition[];
  message_history: OriginalMessage[];
  shock_history: string[];
  last_action_result: OriginalResult;
  cumulative_reward: number;
  done: boolean;
}
