/**
 * Agent seats: a seat driven by a program that is asked for its actions once per round (LLM agents;
 * the LLM helper implements {@link SeatAgent}). The host asks every agent seat of a match in parallel
 * when a round opens, appends the returned actions as `action` events and marks the seat done. An agent
 * that fails, times out or answers garbage makes its seat wait for the round; the match never stalls.
 */
import { z } from 'zod';
import type { ActionInput } from '../env/actions';
import type { LabId } from '../env/types';
import type { Observation } from '../env/views';
import { sleep, type Clock } from './timers';
import type { SeatDriver } from './types';

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
   * to feed an invalid action back once with the engine's code (issue 4; src/llm/dry-run.ts).
   */
  validate?: (actions: readonly unknown[]) => { ok: boolean; code: string; message: string }[];
}

/** A program that plays one seat: returns this round's actions (the engine validates each one). */
export interface SeatAgent {
  act(obs: Observation, ctx: AgentContext): Promise<ActionInput[]>;
}

/** Hook that builds the agent of a seat's driver; null when this driver has no agent (e.g. no LLM configured). */
export type AgentFactory = (driver: SeatDriver) => SeatAgent | null;

/** Most actions taken from one agent answer per round (the engine's default per-round limit, RULES §2). */
export const MAX_AGENT_ACTIONS = 12;

/** Default time an agent gets per round before its seat waits. */
export const DEFAULT_AGENT_TIMEOUT_MS = 60_000;

/** An agent's answer: actions are JSON values (checked by the engine), or why the seat waits. */
export type AgentOutcome = { ok: true; actions: unknown[] } | { ok: false; reason: string };

const AnswerSchema = z.array(z.unknown()).max(100);

/**
 * Ask one agent with a timeout (clock time). Never throws: a rejection, a timeout or a non-array answer
 * becomes `{ ok: false, reason }`. Answers are JSON-normalised (so the log stores exactly what is applied)
 * and capped at {@link MAX_AGENT_ACTIONS}.
 */
export async function askAgent(
  agent: SeatAgent,
  obs: Observation,
  ctx: Omit<AgentContext, 'signal'>,
  opts: { clock: Clock; timeoutMs: number; signal: AbortSignal },
): Promise<AgentOutcome> {
  const local = new AbortController();
  const onOuter = () => local.abort(opts.signal.reason);
  if (opts.signal.aborted) return { ok: false, reason: 'round closed' };
  opts.signal.addEventListener('abort', onOuter, { once: true });
  const timeout = sleep(opts.clock, opts.timeoutMs, local.signal).then(
    () => ({ ok: false, reason: `no answer within ${Math.round(opts.timeoutMs / 1000)} s` }) as const,
    () => ({ ok: false, reason: 'round closed' }) as const,
  );
  const answer = Promise.resolve()
    .then(() => agent.act(obs, { ...ctx, signal: local.signal }))
    .then(
      (raw): AgentOutcome => {
        const parsed = AnswerSchema.safeParse(raw);
        if (!parsed.success) return { ok: false, reason: 'answer was not a list of actions' };
        return { ok: true, actions: parsed.data.slice(0, MAX_AGENT_ACTIONS).map(toJson) };
      },
      (e: unknown): AgentOutcome => ({ ok: false, reason: `agent error: ${shortError(e)}` }),
    );
  try {
    return await Promise.race([answer, timeout]);
  } finally {
    opts.signal.removeEventListener('abort', onOuter);
    local.abort(new Error('done'));
  }
}

/** JSON-normalise a value (undefined/NaN/functions dropped as JSON.stringify does); unserialisable → null. */
export function toJson(value: unknown): unknown {
  try {
    const s = JSON.stringify(value);
    return s === undefined ? null : (JSON.parse(s) as unknown);
  } catch {
    return null;
  }
}

/**
 * The public reason of a failed agent turn: its error code only (e.g. `LLM invalid_json`). Never the
 * message, which for a model failure may quote the model's reply and so the seat's private observation.
 */
function shortError(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return e instanceof Error && e.name === 'LlmAgentError' ? `LLM ${code}` : code;
  return e instanceof Error ? e.name : 'error';
}
