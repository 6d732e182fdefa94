/**
 * The original arena's HTTP contract (docs/RULES.md §A.1) mapped onto
 * our engine, so scripts written for the original run unchanged:
 *
 * - Reset: `task_type` = our `task`; `seed` (default 42, as the original); `difficulty` alone picks the
 *   task of that difficulty (easy → single_trade, medium → market_round, hard → coalition_market); a
 *   difficulty that contradicts the task is refused (`difficulty_conflict`): our worlds are defined per
 *   task (seats, rounds, shocks, coalitions), there is no "hard single_trade". `judge_mode` ("off" or
 *   "rule") is accepted and echoed, but our engine judges every round's pitches with the rule judge
 *   whatever it says (docs/RULES.md §6): the original's "off" mode, where pitches earn nothing, does not exist.
 * - Actions: the original's action object (`action_type`, `target_lab_id`, `offer_id`, `coalition_id`,
 *   `block_ids`, `requested_block_ids`, `job_id`, `payment`, `message`, `conditions`) maps field by field
 *   ({@link fromOriginalAction}). Differences: form_coalition's single `target_lab_id` becomes
 *   `target_lab_ids: [id]`; make_pitch/counter_pitch's `job_id` becomes `job_ids: [id]`. The original's
 *   two pitch actions were one and the same (docs/RULES.md §A.1; the target was only checked to be a lab), ours
 *   differ: a counter_pitch answers the target's pitch of this round (docs/RULES.md §3.6). So make_pitch's
 *   `target_lab_id` is dropped (it stays a pitch: scripted seats pitch at the round close, so as a
 *   counter_pitch it would always fail in a single-seat session), and a counter_pitch without a target is
 *   a make_pitch. A numeric string payment ("5") is read as a number as pydantic did, but "nan"/"inf" are
 *   refused (docs/RULES.md §A.2 D8).
 *   `conditions` cannot map: the original stored them and never enforced them (docs/RULES.md §A.1), our
 *   offers have no conditions, so they are dropped and the response says so in `info.ignored_fields`.
 * - Observation (native format): ours (camelCase, docs/RULES.md §0) plus the original's top-level names
 *   where they overlap ({@link withOriginalFields}); nested objects keep our field names. The original's
 *   exact shapes (`--compat original`) are original-format.ts.
 */
import { PRESETS } from '../../engine/world.js';
import { TASK_NAMES, type Difficulty, type TaskName } from '../../engine/types.js';
import type { Observation } from '../../engine/views.js';

/** A task's difficulty: the engine's presets (docs/RULES.md §1), the same pairs as the original's (docs/RULES.md §A.1). */
const difficultyOf = (task: TaskName): Difficulty => PRESETS[task].difficulty;

/** The original's default task of a reset (docs/RULES.md §A.1; its default seed, 42, is applied in routes.ts). */
export const ORIGINAL_DEFAULT_TASK: TaskName = 'single_trade';

/** A task from `task`/`task_type` and `difficulty`, or an error sentence (code `difficulty_conflict`). */
export function resolveTask(
  task: TaskName | undefined,
  taskType: TaskName | undefined,
  difficulty: Difficulty | null | undefined,
): TaskName | { conflict: string } {
  if (task !== undefined && taskType !== undefined && task !== taskType)
    return { conflict: `task ${task} and task_type ${taskType} disagree; send one of them` };
  const named = task ?? taskType;
  if (difficulty === undefined || difficulty === null) return named ?? ORIGINAL_DEFAULT_TASK;
  const byDifficulty = TASK_NAMES.find((t) => difficultyOf(t) === difficulty)!;
  if (named === undefined) return byDifficulty;
  if (difficultyOf(named) === difficulty) return named;
  return {
    conflict: `difficulty ${difficulty} does not fit task ${named} (${difficultyOf(named)}): worlds are defined per task here; use task ${byDifficulty} for ${difficulty}`,
  };
}

/** Keys of a step body that address the session rather than belong to the action. */
const ENVELOPE_KEYS = new Set(['session_id', 'token', 'action']);

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
  // `payment` keeps the original's meaning (credits the sender pays); `ask` (credits the sender asks the
  // recipient to pay) and `amount` (a sealed auction bid) are ours (rules v3) and read the same way.
  if ('payment' in a) a.payment = numericString(a.payment);
  if ('ask' in a) a.ask = numericString(a.ask);
  if ('amount' in a) a.amount = numericString(a.amount);
  const type = a.action_type;
  if (type === 'form_coalition' && a.target_lab_ids === undefined && typeof a.target_lab_id === 'string') {
    a.target_lab_ids = [a.target_lab_id];
    delete a.target_lab_id;
  }
  if ((type === 'make_pitch' || type === 'counter_pitch') && a.job_ids === undefined && typeof a.job_id === 'string') {
    a.job_ids = [a.job_id];
    delete a.job_id;
  }
  if (type === 'make_pitch' && 'target_lab_id' in a) {
    delete a.target_lab_id;
    ignored.push('target_lab_id');
  }
  if (type === 'counter_pitch' && !('target_lab_id' in a)) a.action_type = 'make_pitch';
  return { action: a, ignored };
}

/** The original observation's top-level fields (docs/RULES.md §A.1) that have a counterpart here. */
export interface OriginalFields {
  task_id: string;
  round_index: number;
  max_rounds: number;
  controlled_lab_id: string;
  controlled_lab_budget: number;
  controlled_lab_reputation: number;
  private_jobs: Observation['self']['jobs'];
  owned_blocks: Observation['self']['blocks'];
  /** The other labs' public facts (ours: `labs`). */
  visible_labs: Observation['labs'];
  active_offers: Observation['offers'];
  /** The seat's coalitions in full, then the others' public facts (ours: `myCoalitions`, `coalitions`). */
  active_coalitions: (Observation['myCoalitions'][number] | Observation['coalitions'][number])[];
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
 * our field names). `taskId` is `<task>-<seed>` as the original (docs/RULES.md §A.1), or `<task>` where the seed
 * must stay hidden (self-play before the end); `step` is what the response reports (reward = this
 * step's reward including its round close, as the gym).
 */
export function withOriginalFields(
  obs: Observation,
  taskId: string,
  last: { ok: boolean; code: string; message: string } | null,
  step: { reward: number; breakdown: Observation['lastReward']; done: boolean },
): HttpObservation {
  return {
    ...obs,
    task_id: taskId,
    round_index: obs.round,
    max_rounds: obs.maxRounds,
    controlled_lab_id: obs.self.id,
    controlled_lab_budget: obs.self.budget,
    controlled_lab_reputation: obs.self.reputation,
    private_jobs: obs.self.jobs,
    owned_blocks: obs.self.blocks,
    visible_labs: obs.labs,
    active_offers: obs.offers,
    active_coalitions: [...obs.myCoalitions, ...obs.coalitions],
    message_history: obs.messages,
    last_action_result: last,
    reward: step.reward,
    cumulative_reward: obs.cumulativeReward,
    reward_breakdown: step.breakdown,
    done: step.done,
  };
}
