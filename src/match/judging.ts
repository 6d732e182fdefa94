/**
 * The judge decision of a round close (docs/RULES.md §2 step 2, §6), decided by the host before the
 * close is recorded so that it can be stored in the `round_closed` event (replay never calls a judge).
 *
 * The engine judges *after* the scripted seats took their close-of-round turn (step 1), so their
 * pitches count. The host therefore judges that same state:
 * - rule judge (no async judge configured, or the fallback): a dry run of the engine's own
 *   `closeRound(state)` gives exactly the decision the engine would make;
 * - async (LLM) judge: {@link stateForJudge} replays step 1 with the engine's exported pieces.
 *
 * Every decision carries the judge's work claim by claim in `meta.checks` (src/engine/judge/explain.ts):
 * stored in the `round_closed` event for the verdict posts (src/present/verdicts.ts), never in the state
 * (replay keeps only the public part of a decision), because it holds each author's private truth.
 */
import { closeRound, runScripted } from '../engine/index.js';
import type { JudgeDecision, MatchState } from '../engine/types.js';
import type { AsyncJudge } from '../engine/judge/types.js';
import { checkRound, type PitchCheck } from '../engine/judge/explain.js';
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

/** `decision` with the judge's per-claim work on `judged` (the state it judged) in `meta.checks`. */
function withChecks(decision: JudgeDecision | null, judged: MatchState): JudgeDecision | null {
  if (!decision) return null;
  const checks: PitchCheck[] = checkRound(judged);
  return { ...decision, meta: { ...decision.meta, checks } };
}

/**
 * The decision for the close of `state` when no model call could change it, or null when `judge` would ask
 * a model (the host then judges off the match lock, src/host/rounds.ts). Without `judge` it is the rule
 * judge's; with one, its {@link AsyncJudge.withoutModel} (e.g. the LLM judge when fewer than two pitches
 * can win, or a pitch addresses the judge). Pure; `meta.checks` as in {@link decideRound}.
 */
export function decisionWithoutModel(
  state: MatchState,
  judge: AsyncJudge | undefined,
): { decision: JudgeDecision | null } | null {
  const judged = stateForJudge(state);
  if (!judge) return { decision: withChecks(ruleDecision(state), judged) };
  const pre = judge.withoutModel?.(judged);
  return pre ? { decision: withChecks(pre.decision, judged) } : null;
}

/**
 * The rule judge's decision for `state` when the state a model judged is not the state that closes (a
 * writer that does not know `round_judging` acted meanwhile): `meta.fallback` says so. Never a model call.
 */
export function changedWhileJudged(state: MatchState): JudgeDecision | null {
  const d = ruleDecision(state);
  return d
    ? withChecks({ ...d, meta: { ...d.meta, fallback: 'the round changed while it was judged' } }, stateForJudge(state))
    : null;
}

/**
 * Judge the round of `state` (the state before closing). Without `judge`, the rule judge decides. With
 * one, its answer is used unless it rejects or takes longer than `timeoutMs` (clock time): then the rule
 * judge decides and `meta.fallback` says why (e.g. `"timeout after 20000 ms"`), `meta.intendedJudge` names
 * the judge that failed; `signal` aborts the judge the same way (`"aborted"`). `meta.checks` holds the
 * per-claim work (see the file comment). Never throws.
 * Returns null when nobody pitched.
 */
export async function decideRound(
  state: MatchState,
  judge: AsyncJudge | undefined,
  opts: { clock: Clock; timeoutMs: number; signal?: AbortSignal },
): Promise<JudgeDecision | null> {
  const judged = stateForJudge(state);
  if (!judge) return withChecks(ruleDecision(state), judged);
  const abort = new AbortController();
  const onAbort = () => abort.abort(opts.signal?.reason);
  if (opts.signal?.aborted) onAbort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const timeout = sleep(opts.clock, opts.timeoutMs, abort.signal).then(
    () => ({ fallback: `timeout after ${opts.timeoutMs} ms` }),
    () => ({ fallback: 'aborted' }),
  );
  const answer = Promise.resolve()
    .then(() => judge.judge(judged, abort.signal))
    .then(
      (decision) => ({ decision }),
      (e: unknown) => ({ fallback: `judge error: ${e instanceof Error ? e.message : String(e)}`.slice(0, 200) }),
    );
  const outcome = await Promise.race([answer, timeout]);
  opts.signal?.removeEventListener('abort', onAbort);
  abort.abort(new Error('judging finished'));
  if ('decision' in outcome) return withChecks(outcome.decision, judged);
  const fallback = ruleDecision(state);
  if (!fallback) return null;
  return withChecks(
    { ...fallback, meta: { ...fallback.meta, fallback: outcome.fallback, intendedJudge: judge.id } },
    judged,
  );
}
