/**
 * The judge decision of a round close (docs/RULES.md §2 step 2, §6), decided by the host before the
 * close is recorded so that it can be stored in the `round_closed` event (replay never calls a judge).
 *
 * The engine judges *after* the scripted seats took their close-of-round turn (step 1), so their
 * pitches count. The host therefore judges that same state:
 * - rule judge (no async judge configured, or the fallback): a dry run of the engine's own
 *   `closeRound(state)` gives exactly the decision the engine would make;
 * - async (LLM) judge: {@link stateForJudge} replays step 1 with the engine's exported pieces.
 */
import { closeRound, runScripted } from '../engine/index.js';
import type { JudgeDecision, MatchState } from '../engine/types.js';
import type { AsyncJudge } from '../engine/judge/types.js';
import { sleep, type Clock } from './timers.js';

/** Default time the async judge gets before the rule judge takes over (the brief: 20 s). */
export const DEFAULT_JUDGE_TIMEOUT_MS = 20_000;

/** The rule judge's decision for the close of `state`'s round (what `closeRound(state)` would use). */
export const ruleDecision = (state: MatchState): JudgeDecision | null => closeRound(state).report.judge;

/**
 * `state` after the scripted seats' close-of-round turn (RULES §2 step 1: seat order, own observation,
 * rng(seed, round, `policy:<lab>`), ≤ MAX_SCRIPTED_ACTIONS each), i.e. what the engine's judge sees.
 * Pure. A test checks it against the engine (rule judge on it = {@link ruleDecision}).
 */
export function stateForJudge(state: MatchState): MatchState {
  return runScripted(state);
}

/**
 * Judge the round of `state` (the state before closing). Without `judge`, the rule judge decides. With
 * one, its answer is used unless it rejects or takes longer than `timeoutMs` (clock time): then the rule
 * judge decides and `meta.fallback` says why (e.g. `"timeout after 20000 ms"`), `meta.intendedJudge` names
 * the judge that failed. Never throws. Returns null when nobody pitched.
 */
export async function decideRound(
  state: MatchState,
  judge: AsyncJudge | undefined,
  opts: { clock: Clock; timeoutMs: number },
): Promise<JudgeDecision | null> {
  if (!judge) return ruleDecision(state);
  const abort = new AbortController();
  const timeout = sleep(opts.clock, opts.timeoutMs, abort.signal).then(
    () => ({ fallback: `timeout after ${opts.timeoutMs} ms` }),
    () => ({ fallback: 'aborted' }),
  );
  const answer = Promise.resolve()
    .then(() => judge.judge(stateForJudge(state), abort.signal))
    .then(
      (decision) => ({ decision }),
      (e: unknown) => ({ fallback: `judge error: ${e instanceof Error ? e.message : String(e)}`.slice(0, 200) }),
    );
  const outcome = await Promise.race([answer, timeout]);
  abort.abort(new Error('judging finished'));
  if ('decision' in outcome) return outcome.decision;
  const fallback = ruleDecision(state);
  if (!fallback) return null;
  return { ...fallback, meta: { ...fallback.meta, fallback: outcome.fallback, intendedJudge: judge.id } };
}
