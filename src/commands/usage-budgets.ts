/**
 * The token budgets the admin usage view (`stats view:usage`) shows beside the day's usage. The budgets
 * are configuration (`llm.dailyTokens`, `llm.personDailyTokens`, `llm.channelDailyTokens`, `llm.matchTokenBudget`), which the
 * catalogue does not read: the LLM runtime (src/app/llm.ts) sets them here when it starts. Until then the
 * view shows the usage without budgets. No imports, so the runtime pulls in nothing else.
 */

/** Token budgets as configured (prompt + completion tokens; 0 = unlimited). */
export interface UsageBudgets {
  /** Per UTC day, the whole deployment. */
  dailyTokens: number;
  /** Per UTC day, one host (every match they host). */
  personDailyTokens: number;
  /** Per UTC day, one channel. */
  channelDailyTokens: number;
  /** One match. */
  matchTokens: number;
}

let budgets: UsageBudgets | null = null;

/** Set (or clear, with null) the budgets this process enforces; called by the LLM runtime. */
export function configureUsageBudgets(next: UsageBudgets | null): void {
  budgets = next === null ? null : { ...next };
}

/** The budgets set by {@link configureUsageBudgets}, or null when no LLM runtime set any. */
export function usageBudgets(): UsageBudgets | null {
  return budgets === null ? null : { ...budgets };
}
