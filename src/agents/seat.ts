/**
 * The agent-seat contract: a seat driven by a program that is asked for its actions once per round (the
 * LLM seat agent implements {@link SeatAgent}). The host asks agents through src/host/agent-turn.ts.
 */
import type { ActionInput } from '../engine/actions.js';
import type { LabId } from '../engine/types.js';
import type { Observation } from '../engine/views.js';
import type { SeatDriver } from '../events/schema.js';

/** What an agent is told besides its observation. `signal` aborts when the round closes or the host stops. */
export interface AgentContext {
  matchId: string;
  lab: LabId;
  /** 0-based engine round the actions are for. */
  round: number;
  signal: AbortSignal;
  /**
   * Optional dry run of actions, in order, against the state the agent was asked in (the engine's
   * applyAction on a scratch copy): the engine's `{ ok, code, message }` per action. The LLM agent uses it
   * to feed an invalid action back once with the engine's code (src/agents/dry-run.ts).
   */
  validate?: (actions: readonly unknown[]) => { ok: boolean; code: string; message: string }[];
}

/** A program that plays one seat: returns this round's actions (the engine validates each one). */
export interface SeatAgent {
  act(obs: Observation, ctx: AgentContext): Promise<ActionInput[]>;
  /**
   * The version of the prompt it asks a model with (the LLM agent: `AGENT_PROMPT_VERSION`), recorded with each
   * action it takes in the match's event log, as the judge's prompt version is with its decision.
   */
  readonly promptVersion?: string;
}

/** Hook that builds the agent of a seat's driver; null when this driver has no agent (e.g. no LLM configured). */
export type AgentFactory = (driver: SeatDriver) => SeatAgent | null;

/** Most actions taken from one agent answer per round (the engine's default per-round limit, RULES §2). */
export const MAX_AGENT_ACTIONS = 12;

/** Default time an agent gets per round before its seat waits. */
export const DEFAULT_AGENT_TIMEOUT_MS = 60_000;

/** JSON-normalise a value (undefined/NaN/functions dropped as JSON.stringify does); unserialisable → null. */
export function toJson(value: unknown): unknown {
  try {
    const s = JSON.stringify(value);
    return s === undefined ? null : (JSON.parse(s) as unknown);
  } catch {
    return null;
  }
}
