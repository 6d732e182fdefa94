/**
 * The original arena's HTTP contract (../shared/reference/arena-rules.md §1.1, §2, §7, §10) mapped onto
 * our engine, so scripts written for the original run unchanged:
 *
 * - Reset: `task_type` = our `task`; `seed` (default 42, as the original); `difficulty` alone picks the
 *   task of that difficulty (easy → single_trade, medium → market_round, hard → coalition_market); a
 *   difficulty that contradicts the task is refused (`difficulty_conflict`): our worlds are defined per
 *   task (seats, rounds, shocks, coalitions), there is no "hard single_trade". `judge_mode` ("off" or
 *   "rule") is accepted and echoed, but our engine judges every round's pitches with the rule judge
 *   whatever it says (docs/RULES.md §6): the reference's "off" mode, where pitches earn nothing, does not exist.
 * - Actions: the original's action object (`action_type`, `target_lab_id`, `offer_id`, `coalition_id`,
 *   `block_ids`, `requested_block_ids`, `job_id`, `payment`, `message`, `conditions`) maps field by field
 *   ({@link fromOriginalAction}). Differences: form_coalition's single `target_lab_id` becomes
 *   `target_lab_ids: [id]`; make_pitch/counter_pitch's `job_id` becomes `job_ids: [id]`; make_pitch's
 *   `target_lab_id` makes it a counter_pitch (ours answers a pitch of that lab this round); a numeric
 *   string payment ("5") is read as a number as pydantic did, but "nan"/"inf" are refused (Ref §12.8).
 *   `conditions` cannot map: the original stored them and never enforced them (Ref §2.1, §12), our
 *   offers have no conditions, so they are dropped and the response says so in `info.ignored_fields`.
 * - Observation: ours (camelCase, docs/RULES.md §0) plus the original's top-level names where they
 *   overlap ({@link originalFields}); nested objects keep our field names.
 */
import type { Action } from '../env/actions';
import type { Difficulty, TaskName } from '../env/types';
import type { Observation } from '../env/views';

/** The original's task → difficulty pairs (Ref §1.2), which are ours too (docs/RULES.md §1). */
export const TASK_DIFFICULTY: Readonly<Record<TaskName, Difficulty>> = {
  single_trade: 'easy',
  market_round: 'medium',
  coalition_market: 'hard',
};

/** The original's default reset (Ref §1.1): single_trade, seed 42. */
export const ORIGINAL_DEFAULT_TASK: TaskName = 'single_trade';
export const ORIGINAL_DEFAULT_SEED = 42;

/** A task from `task`/`task_type` and `difficulty`, or an error sentence (code `difficulty_conflict`). */
export function resolveTask(task: TaskName | undefined, taskType: TaskName | undefined, difficulty: Difficulty | null | undefined): TaskName | { conflict: string } {
  if (task !== undefined && taskType !== undefined && task !== taskType) return { conflict: `task ${task} and task_type ${taskType} disagree; send one of them` };
  const named = task ?? taskType;
  if (difficulty === undefined || difficulty === null) return named ?? ORIGINAL_DEFAULT_TASK;
  const byDifficulty = (Object.keys(TASK_DIFFICULTY) as TaskName[]).find((t) => TASK_DIFFICULTY[t] === difficulty)!;
  if (named === undefined) return byDifficulty;
  if (TASK_DIFFICULTY[named] === difficulty) return named;
  return {
    conflict: `difficulty ${difficulty} does not fit task ${named} (${TASK_DIFFICULTY[named]}): worlds are defined per task here; use task ${byDifficulty} for ${difficulty}`,
  };
}

/** Keys of a step body that address the session rather than belong to the action. */
const ENVELOPE_KEYS = new Set(['session_id', 'token', 'action']);

/** The original's action fields this server reads (Ref §2); anything else is passed through untouched. */
export const ORIGINAL_ACTION_FIELDS = ['action_type', 'target_lab_id', 'offer_id', 'coalition_id', 'block_ids', 'requested_block_ids', 'job_id', 'payment', 'message', 'conditions'] as const;

/** A step body with the action's fields at the top level (the original's `/step`): the action part. */
export function actionFromTopLevel(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (!ENVELOPE_KEYS.has(k)) out[k] = v;
  return out;
}

/** "5", " 2.50 " → number; anything else unchanged (so zod refuses "nan", "inf", "-1" is a negative number). */
function numericString(v: unknown): unknown {
  return typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v;
}

/** Result of {@link fromOriginalAction}: the action in our field names, and original fields that had no place. */
export interface MappedAction {
  action: Record<string, unknown>;
  ignored: string[];
}

/**
 * An action object in the original's field names → ours (docs/RULES.md §3). Fields already in our names
 * pass unchanged, so one mapper serves both dialects; null fields are dropped (pydantic's "absent").
 * Never throws; validation is the caller's (ActionSchema).
 */
export function fromOriginalAction(input: Record<string, unknown>): MappedAction {
  const a: Record<string, unknown> = {};
  // null = absent, as pydantic's Optional fields (our nullable fields default to null anyway).
  for (const [k, v] of Object.entries(input)) if (v !== null) a[k] = v;
  const ignored: string[] = [];
  if ('conditions' in a) {
    delete a.conditions;
    ignored.push('conditions');
  }
  if ('payment' in a) a.payment = numericString(a.payment);
  const type = a.action_type;
  if (type === 'form_coalition' && a.target_lab_ids === undefined && typeof a.target_lab_id === 'string') {
    a.target_lab_ids = [a.target_lab_id];
    delete a.target_lab_id;
  }
  if ((type === 'make_pitch' || type === 'counter_pitch') && a.job_ids === undefined && typeof a.job_id === 'string') {
    a.job_ids = [a.job_id];
    delete a.job_id;
  }
  if (type === 'make_pitch' && typeof a.target_lab_id === 'string') a.action_type = 'counter_pitch';
  return { action: a, ignored };
}

/** The original observation's top-level fields (Ref §7) that have a counterpart here. */
export interface OriginalFields {
  task_id: string;
  round_index: number;
  max_rounds: number;
  controlled_lab_id: string;
  controlled_lab_budget: number;
  controlled_lab_reputation: number;
  private_jobs: Observation['self']['jobs'];
  owned_blocks: Observation['self']['blocks'];
  active_offers: Observation['offers'];
  message_history: Observation['messages'];
  last_action_result: { ok: boolean; code: string; message: string } | null;
  reward: number;
  cumulative_reward: number;
  reward_breakdown: Observation['lastReward'];
  done: boolean;
}

/** An observation as answered over HTTP: ours plus {@link OriginalFields}. */
export type HttpObservation = Observation & OriginalFields;

/**
 * Our observation with the original's top-level names added (the nested job/block/offer objects keep
 * our field names). `seed` makes `task_id` = `<task>-<seed>` as the original (Ref §1.1); `step` is what
 * the response reports (reward = this step's reward including its round close, as the gym).
 */
export function withOriginalFields(
  obs: Observation,
  seed: number,
  last: { ok: boolean; code: string; message: string } | null,
  step: { reward: number; breakdown: Observation['lastReward']; done: boolean },
): HttpObservation {
  return {
    ...obs,
    task_id: `${obs.task}-${seed}`,
    round_index: obs.round,
    max_rounds: obs.maxRounds,
    controlled_lab_id: obs.self.id,
    controlled_lab_budget: obs.self.budget,
    controlled_lab_reputation: obs.self.reputation,
    private_jobs: obs.self.jobs,
    owned_blocks: obs.self.blocks,
    active_offers: obs.offers,
    message_history: obs.messages,
    last_action_result: last,
    reward: step.reward,
    cumulative_reward: obs.cumulativeReward,
    reward_breakdown: step.breakdown,
    done: step.done,
  };
}

/** Our action type names, to tell an unknown `action_type` from a malformed known one. */
export type KnownAction = Action['action_type'];
