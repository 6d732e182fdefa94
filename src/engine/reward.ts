/**
 * Reward breakdowns (docs/RULES.md §4; the original's 11 columns, §A.1). A breakdown is per seat, for one step or
 * one round close; its normalized_reward is the weighted, clamped sum of the columns.
 */
import type { RewardBreakdown } from './types.js';
import type { SourcedColumn } from './reward-source.js';
import { clamp, round4 } from './util.js';

/** Column names that carry a value (everything but normalized_reward). */
export type RewardColumn = Exclude<keyof RewardBreakdown, 'normalized_reward'>;

/** The ledger's column type (reward-source.ts, kept free of imports) must stay exactly these columns. */
type SameColumns = [RewardColumn] extends [SourcedColumn]
  ? [SourcedColumn] extends [RewardColumn]
    ? true
    : never
  : never;
export const COLUMNS_IN_SYNC: SameColumns = true;

export const REWARD_COLUMNS: readonly RewardColumn[] = [
  'job_utility',
  'deal_quality',
  'coalition_reliability',
  'judge_argument',
  'budget_efficiency',
  'negotiation_efficiency',
  'market_adaptation',
  'invalid_action_penalty',
  'spam_penalty',
  'breach_penalty',
];

/** Weights of docs/RULES.md §4 (judge and penalties are added unweighted). */
export const REWARD_WEIGHTS: Readonly<Record<RewardColumn, number>> = {
  job_utility: 0.35,
  deal_quality: 0.2,
  coalition_reliability: 0.15,
  judge_argument: 1,
  budget_efficiency: 0.1,
  negotiation_efficiency: 0.1,
  market_adaptation: 0.1,
  invalid_action_penalty: 1,
  spam_penalty: 1,
  breach_penalty: 1,
};

/** Penalties (docs/RULES.md §4.1). */
export const INVALID_PENALTY = -0.1;
export const MALFORMED_PENALTY = -0.15;
export const SPAM_PENALTY = -0.05;
export const BREACH_PENALTY = -0.2;
/** job_utility cost of a reservation still idle when its job (or the match) settles. */
export const IDLE_RESERVATION_COST = -0.05;
/** Bounds of the cumulative reward (the original's, docs/RULES.md §A.1). */
export const CUMULATIVE_MIN = -10;
export const CUMULATIVE_MAX = 10;

/**
 * The zero breakdown every {@link emptyBreakdown} copies. Its columns first held null, so V8 gives
 * breakdowns a "tagged" layout (any value) from the start. A literal of zeros gets a small-integer layout
 * instead, which the first fractional reward replaces with a new one; every breakdown later born from the
 * literal then has the outdated layout and is migrated, one runtime call, on its first write
 * (--trace-migration: thousands a second). A tagged layout never needs replacing.
 */
const TEMPLATE = ((): RewardBreakdown => {
  const t = {
    job_utility: null,
    deal_quality: null,
    coalition_reliability: null,
    judge_argument: null,
    budget_efficiency: null,
    negotiation_efficiency: null,
    market_adaptation: null,
    invalid_action_penalty: null,
    spam_penalty: null,
    breach_penalty: null,
    normalized_reward: null,
  } as unknown as RewardBreakdown;
  for (const c of REWARD_COLUMNS) t[c] = 0;
  t.normalized_reward = 0;
  return t;
})();

/** A breakdown with every column 0 (a copy of {@link TEMPLATE}: same keys, same order). */
export function emptyBreakdown(): RewardBreakdown {
  return { ...TEMPLATE };
}

/** clamp(Σ weight × column, −1, 1), rounded to 4 dp (docs/RULES.md §4). Written out: this is on the hot path. */
export function normalizedReward(b: RewardBreakdown): number {
  const sum =
    0.35 * b.job_utility +
    0.2 * b.deal_quality +
    0.15 * b.coalition_reliability +
    b.judge_argument +
    0.1 * b.budget_efficiency +
    0.1 * b.negotiation_efficiency +
    0.1 * b.market_adaptation +
    b.invalid_action_penalty +
    b.spam_penalty +
    b.breach_penalty;
  return round4(clamp(sum, -1, 1));
}

/** A new breakdown with every column of `b` rounded to 4 dp and normalized_reward computed. */
export function normalize(b: RewardBreakdown): RewardBreakdown {
  return {
    job_utility: round4(b.job_utility),
    deal_quality: round4(b.deal_quality),
    coalition_reliability: round4(b.coalition_reliability),
    judge_argument: round4(b.judge_argument),
    budget_efficiency: round4(b.budget_efficiency),
    negotiation_efficiency: round4(b.negotiation_efficiency),
    market_adaptation: round4(b.market_adaptation),
    invalid_action_penalty: round4(b.invalid_action_penalty),
    spam_penalty: round4(b.spam_penalty),
    breach_penalty: round4(b.breach_penalty),
    normalized_reward: normalizedReward(b),
  };
}

/** Column-wise sum a + b, 4 dp (normalized_reward summed too; call normalize to recompute it instead). */
export function addBreakdowns(a: RewardBreakdown, b: RewardBreakdown): RewardBreakdown {
  return {
    job_utility: round4(a.job_utility + b.job_utility),
    deal_quality: round4(a.deal_quality + b.deal_quality),
    coalition_reliability: round4(a.coalition_reliability + b.coalition_reliability),
    judge_argument: round4(a.judge_argument + b.judge_argument),
    budget_efficiency: round4(a.budget_efficiency + b.budget_efficiency),
    negotiation_efficiency: round4(a.negotiation_efficiency + b.negotiation_efficiency),
    market_adaptation: round4(a.market_adaptation + b.market_adaptation),
    invalid_action_penalty: round4(a.invalid_action_penalty + b.invalid_action_penalty),
    spam_penalty: round4(a.spam_penalty + b.spam_penalty),
    breach_penalty: round4(a.breach_penalty + b.breach_penalty),
    normalized_reward: round4(a.normalized_reward + b.normalized_reward),
  };
}

/**
 * A shared, frozen all-zero breakdown. The engine stores it in state where a seat has nothing (state
 * objects are never mutated in place, so sharing is safe); use emptyBreakdown() for one to fill in.
 */
export const ZERO_BREAKDOWN: Readonly<RewardBreakdown> = Object.freeze(emptyBreakdown());

/**
 * True when every column is 0. Written out, as the helpers below: a `b[c]` over a list of column names
 * is a keyed access by a varying name (a stub-cache lookup each), and these run at every step.
 */
export function isZeroBreakdown(b: RewardBreakdown): boolean {
  return (
    b.job_utility === 0 &&
    b.deal_quality === 0 &&
    b.coalition_reliability === 0 &&
    b.judge_argument === 0 &&
    b.budget_efficiency === 0 &&
    b.negotiation_efficiency === 0 &&
    b.market_adaptation === 0 &&
    b.invalid_action_penalty === 0 &&
    b.spam_penalty === 0 &&
    b.breach_penalty === 0
  );
}

/** `b[col] += v` (in place) by a named store. */
export function addToColumn(b: RewardBreakdown, col: RewardColumn, v: number): void {
  switch (col) {
    case 'job_utility':
      b.job_utility += v;
      break;
    case 'deal_quality':
      b.deal_quality += v;
      break;
    case 'coalition_reliability':
      b.coalition_reliability += v;
      break;
    case 'judge_argument':
      b.judge_argument += v;
      break;
    case 'budget_efficiency':
      b.budget_efficiency += v;
      break;
    case 'negotiation_efficiency':
      b.negotiation_efficiency += v;
      break;
    case 'market_adaptation':
      b.market_adaptation += v;
      break;
    case 'invalid_action_penalty':
      b.invalid_action_penalty += v;
      break;
    case 'spam_penalty':
      b.spam_penalty += v;
      break;
    case 'breach_penalty':
      b.breach_penalty += v;
      break;
  }
}

/** Every column of `b` rounded to 4 dp in place (as `round4(b[c] + 0)` column by column); returns `b`. */
export function roundColumnsInPlace(b: RewardBreakdown): RewardBreakdown {
  b.job_utility = round4(b.job_utility + 0);
  b.deal_quality = round4(b.deal_quality + 0);
  b.coalition_reliability = round4(b.coalition_reliability + 0);
  b.judge_argument = round4(b.judge_argument + 0);
  b.budget_efficiency = round4(b.budget_efficiency + 0);
  b.negotiation_efficiency = round4(b.negotiation_efficiency + 0);
  b.market_adaptation = round4(b.market_adaptation + 0);
  b.invalid_action_penalty = round4(b.invalid_action_penalty + 0);
  b.spam_penalty = round4(b.spam_penalty + 0);
  b.breach_penalty = round4(b.breach_penalty + 0);
  return b;
}
