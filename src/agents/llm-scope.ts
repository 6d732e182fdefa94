/**
 * Which match an LLM call is made for, when the caller cannot say so itself. The LLM judge is an
 * engine-level `AsyncJudge` that sees a state, not a match id; the round host runs the judgement inside
 * {@link withLlmMatch}, and the spend gate (budget.ts) reads {@link currentLlmMatch} for calls that name no
 * match, so the judge's tokens count against the match and its channel like the seats'.
 * AsyncLocalStorage carries the id through every await of the judgement and nothing else.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<{ matchId: string }>();

/** Run `fn` with `matchId` as the match of the LLM calls it makes (directly or after any await). */
export function withLlmMatch<T>(matchId: string, fn: () => T): T {
  return scope.run({ matchId }, fn);
}

/** The match of the enclosing {@link withLlmMatch}, or null outside one. */
export function currentLlmMatch(): string | null {
  return scope.getStore()?.matchId ?? null;
}
