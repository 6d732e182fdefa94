/**
 * Dry run of an agent's actions with the engine's own `applyAction` (pure, copy-on-write: the input
 * state is never changed), so the LLM agent gets the engine's error codes before the host applies
 * anything. The host passes `validate: validatorFor(state, lab)` in the agent context.
 */
import { applyAction } from '../engine/index.js';
import type { LabId, MatchState } from '../engine/types.js';
import type { ActionCheck, ValidateActions } from './seat-agent.js';

/**
 * Apply `actions` in order to a scratch copy of `state` as `lab`; each sees the previous valid ones
 * applied. Returns the engine's `{ ok, code, message }` per action. Never throws.
 */
export function dryRunActions(state: MatchState, lab: LabId, actions: readonly unknown[]): ActionCheck[] {
  let scratch = state;
  return actions.map((a) => {
    const { state: next, result } = applyAction(scratch, lab, a);
    if (result.ok) scratch = next;
    return { ok: result.ok, code: result.code, message: result.message };
  });
}

/** A {@link ValidateActions} bound to a state snapshot and a seat. */
export const validatorFor =
  (state: MatchState, lab: LabId): ValidateActions =>
  (actions) =>
    dryRunActions(state, lab, actions);
