/**
 * Dry run of an agent's actions with the engine's own `applyAction` (pure, copy-on-write: the input
 * state is never changed), so the LLM agent gets the engine's error codes before the host applies
 * anything; then the self-harm guard (guard.ts) on each action the engine accepts, valued on the state the
 * earlier actions of the turn left. The host passes `validate: validatorFor(state, lab)` in the agent
 * context, so a refused action never reaches the log.
 */
import { applyAction, observe } from '../engine/index.js';
import type { LabId, MatchState } from '../engine/types.js';
import { guardAction } from './guard.js';
import type { ActionCheck, ValidateActions } from './seat-agent.js';

/** Options of {@link dryRunActions}. */
export interface DryRunOptions {
  /** Apply the self-harm guard (default true); false gives the engine's verdicts alone. */
  guard?: boolean;
}

/**
 * Apply `actions` in order to a scratch copy of `state` as `lab`; each sees the previous valid ones
 * applied. Returns the engine's `{ ok, code, message }` per action, or the guard's refusal (code
 * `gives_value_away`, not applied either). Never throws.
 */
export function dryRunActions(
  state: MatchState,
  lab: LabId,
  actions: readonly unknown[],
  opts: DryRunOptions = {},
): ActionCheck[] {
  let scratch = state;
  return actions.map((a) => {
    const { state: next, result } = applyAction(scratch, lab, a);
    if (!result.ok) return { ok: false, code: result.code, message: result.message };
    const refused = opts.guard === false ? null : guardAction(observe(scratch, lab), a);
    if (refused) return { ok: false, code: refused.code, message: refused.message };
    scratch = next;
    return { ok: true, code: result.code, message: result.message };
  });
}

/** A {@link ValidateActions} bound to a state snapshot and a seat. */
export const validatorFor =
  (state: MatchState, lab: LabId, opts: DryRunOptions = {}): ValidateActions =>
  (actions) =>
    dryRunActions(state, lab, actions, opts);
