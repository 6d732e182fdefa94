/**
 * Reward sources (docs/RULES.md §4.6): every call that adds to a seat's reward names its source, so the
 * round host can keep a reward ledger whose entries sum to the seat's cumulative reward. Ids and numbers
 * only (ids are the `LabId`, `JobId`, … strings of types.ts); the words are written by src/present.
 */
type LabId = string;
type JobId = string;
type BlockId = string;
type OfferId = string;
type CoalitionId = string;

/** A reward column that carries a value (every RewardBreakdown column but normalized_reward). */
export type SourcedColumn =
  | 'job_utility'
  | 'deal_quality'
  | 'coalition_reliability'
  | 'judge_argument'
  | 'budget_efficiency'
  | 'negotiation_efficiency'
  | 'market_adaptation'
  | 'invalid_action_penalty'
  | 'spam_penalty'
  | 'breach_penalty';

/** The fact behind one reward entry (raw column units, before the §4 weights). */
export type RewardSource =
  /** deal_quality at an accepted trade: `gain` = the party's change in private valuation (credits). */
  | { kind: 'trade'; offerId: OfferId; gain: number }
  /** job_utility at a job's settlement: realised value (credits) and credit share in [0, 1]. */
  | { kind: 'job_settled'; jobId: JobId; outcome: string; value: number; credit: number }
  /** deal_quality taken back at settlement: trade credit (credits) the job did not realise. */
  | { kind: 'trade_unrealised'; jobId: JobId; credits: number }
  /** market_adaptation: a job a shock touched was still completed. */
  | { kind: 'shock_adapted'; jobId: JobId }
  /** negotiation_efficiency: a completed job used capacity traded between `owner` and the seat. */
  | { kind: 'traded_job'; jobId: JobId; owner: LabId }
  /** judge_argument: a held pitch bonus paid at the job's settlement (× credit). */
  | { kind: 'pitch_bonus'; jobId: JobId; credit: number }
  /** job_utility cost of a block still reserved (for `jobId`, or for nothing) when it settles. */
  | { kind: 'idle_reservation'; blockId: BlockId; jobId: JobId | null }
  /** budget_efficiency at final settlement: completed share × clamp(budget / initialBudget, 0, 1). */
  | { kind: 'budget'; completed: number; total: number; budget: number; initialBudget: number }
  /** coalition_reliability: the seat served a coalition whose capacity a partner used. */
  | { kind: 'coalition_served'; coalitionId: CoalitionId }
  /** breach_penalty: the seat withdrew a block it had committed to a coalition. */
  | { kind: 'coalition_breach'; coalitionId: CoalitionId }
  /** judge_argument cost of a judged pitch's fabricated claims (distinct, at most 2; docs/RULES.md §6.6). */
  | { kind: 'fabricated_pitch'; claims: number };

/** One addition to one seat's reward column, as the engine made it (raw units, not yet weighted). */
export interface RewardEntry {
  lab: LabId;
  column: SourcedColumn;
  value: number;
  source: RewardSource;
}
