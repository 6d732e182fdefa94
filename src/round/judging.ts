/**
 * The judge decision of a round close (docs/RULES.md §6): the configured async judge (LLM) within a
 * time limit, else the rule judge, whose decision then records why in `meta.fallback`. The decision is
 * stored in the `round_closed` event, so replay never calls a judge.
 */
import type { JudgeDecision, MatchState } from '../env/types';
import { ruleJudge } from '../judge/rule-judge';
import type { AsyncJudge } from '../judge/types';
import { sleep, type Clock } from './timers';

/** Default time the async judge gets before the rule judge takes over (the brief: 20 s). */
export const DEFAULT_JUDGE_TIMEOUT_MS = 20_000;

/**
 * Judge `state`'s current-round pitches. Without `judge`, the rule judge decides. With one, its answer
 * is used unless it rejects or takes longer than `timeoutMs` (clock time): then the rule judge decides and
 * `meta.fallback` says why (e.g. `"timeout after 20000 ms"`). Never throws. Returns null when nobody pitched.
 */
export async function decideRound(
  state: MatchState,
  judge: AsyncJudge | undefined,
  opts: { clock: Clock; timeoutMs: number },
): Promise<JudgeDecision | null> {
  if (!judge) return ruleJudge.judge(state);
  const abort = new AbortController();
  const timeout = sleep(opts.clock, opts.timeoutMs, abort.signal).then(
    () => ({ fallback: `timeout after ${opts.timeoutMs} ms` }),
    () => ({ fallback: 'aborted' }),
  );
  const answer = Promise.resolve()
    .then(() => judge.judge(state, abort.signal))
    .then(
      (decision) => ({ decision }),
      (e: unknown) => ({ fallback: `judge error: ${e instanceof Error ? e.message : String(e)}`.slice(0, 200) }),
    );
  const outcome = await Promise.race([answer, timeout]);
  abort.abort(new Error('judging finished'));
  if ('decision' in outcome) return outcome.decision;
  const fallback = ruleJudge.judge(state);
  if (!fallback) return null;
  return { ...fallback, meta: { ...fallback.meta, fallback: outcome.fallback, intendedJudge: judge.id } };
}
