/**
 * The judge interface. The grounded rule judge (sync, in the engine) and the LLM judge (async, outside
 * the engine) both produce a {@link JudgeDecision}. The engine calls the rule judge itself when a round
 * closes without a decision supplied; the round host may instead pass a decision it obtained from an
 * LLM judge, which is then stored in the event log so replay never calls the model again.
 */
import type { JudgeDecision, MatchState } from '../types.js';

/** Synchronous judge used inside the pure engine (the rule judge). */
export interface SyncJudge {
  readonly id: string;
  /** Judge the current round's pitches of `state`. Returns null when nobody pitched. Pure. */
  judge(state: MatchState): JudgeDecision | null;
}

/** Asynchronous judge (LLM, panel, hybrid). Must never throw: on failure it returns the fallback's decision. */
export interface AsyncJudge {
  readonly id: string;
  judge(state: MatchState, signal?: AbortSignal): Promise<JudgeDecision | null>;
  /**
   * `judge(state)`'s decision when it would ask no model (no model answer could change it), wrapped; null
   * when it would ask one. Pure and synchronous, so the host can decide a round at once instead of waiting
   * off the match lock. Absent = it always asks.
   */
  withoutModel?(state: MatchState): { decision: JudgeDecision | null } | null;
}

/** Maximum judge_argument bonus a round's winner can get (bounded, docs/RULES.md §6). */
export const JUDGE_BONUS_MAX = 0.15;
