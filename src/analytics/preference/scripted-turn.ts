/**
 * The scripted seats' turn at a round close (docs/RULES.md §2 step 1), replayed with what each seat saw
 * and did: the engine's `runScripted` keeps only action types and result codes, while demonstrations
 * (SFT exports) need each scripted seat's observation and its action JSON. It mirrors `runScripted`
 * step for step (seat order, own observation, rng(seed, round, `policy:<lab>`), at most
 * MAX_SCRIPTED_ACTIONS each); a test checks that the state after it equals `runScripted`'s. Pure.
 */
import { applyAction, observe, rng } from '../../engine/index.js';
import { getPolicy } from '../../engine/policies/index.js';
import { MAX_SCRIPTED_ACTIONS } from '../../engine/policies/types.js';
import type { LabId, MatchState } from '../../engine/types.js';
import type { Observation } from '../../engine/views.js';

/** One seat's turn: the observation it acted on and its actions in order, with the engine's verdict. */
export interface SeatTurn {
  lab: LabId;
  observation: Observation;
  actions: { action: unknown; ok: boolean }[];
}

/** Replays the scripted seats' close-of-round turn of `state`: each seat's turn and the state after all of them. */
export function scriptedTurns(state: MatchState): { turns: SeatTurn[]; after: MatchState } {
  let s = state;
  const turns: SeatTurn[] = [];
  const { seed, holdout, scripted } = s.config;
  for (const lab of s.labIds) {
    const name = scripted[lab];
    if (name === undefined || s.over || s.labs[lab]!.finished) continue;
    const observation = observe(s, lab);
    let out: unknown;
    try {
      out = getPolicy(name)(observation, { rng: rng(seed, s.round, `policy:${lab}`), holdout });
    } catch {
      out = [];
    }
    const list = Array.isArray(out) ? out.slice(0, MAX_SCRIPTED_ACTIONS) : [];
    const turn: SeatTurn = { lab, observation, actions: [] };
    for (const action of list) {
      const step = applyAction(s, lab, action);
      s = step.state;
      turn.actions.push({ action: toJson(action), ok: step.result.ok });
      if (s.over || s.labs[lab]!.finished) break;
    }
    turns.push(turn);
  }
  return { turns, after: s };
}

/** JSON-normalised copy (what an export writes); unserialisable → null. */
function toJson(value: unknown): unknown {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}
