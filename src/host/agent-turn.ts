/**
 * One agent turn: the host asks every agent seat of a match in parallel when a round opens, appends the
 * returned actions as `action` events and marks the seat done. An agent that fails, times out or answers
 * garbage makes its seat wait for the round; the match never stalls.
 */
import { z } from 'zod';
import { MAX_AGENT_ACTIONS, toJson, type AgentContext, type SeatAgent } from '../agents/seat.js';
import type { Observation } from '../engine/views.js';
import { sleep, type Clock } from '../match/timers.js';

/** An agent's answer: actions are JSON values (checked by the engine), or why the seat waits. */
export type AgentOutcome = { ok: true; actions: unknown[]; promptVersion?: string } | { ok: false; reason: string };

const AnswerSchema = z.array(z.unknown()).max(100);

/**
 * Ask one agent with a timeout (clock time). Never throws: a rejection, a timeout or a non-array answer
 * becomes `{ ok: false, reason }`. Answers are JSON-normalised (so the log stores exactly what is applied)
 * and capped at {@link MAX_AGENT_ACTIONS}; they carry the agent's prompt version, if it has one.
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
        const actions = parsed.data.slice(0, MAX_AGENT_ACTIONS).map(toJson);
        return agent.promptVersion === undefined
          ? { ok: true, actions }
          : { ok: true, actions, promptVersion: agent.promptVersion };
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

/**
 * The public reason of a failed agent turn: its error code only (e.g. `LLM invalid_json`). Never the
 * message, which for a model failure may quote the model's reply and so the seat's private observation.
 */
function shortError(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  // A spent token budget says which one (src/agents/budget.ts); its scope is no secret of the seat's.
  const scope =
    e instanceof Error ? /llm_budget_spent \((deployment|person|channel|match)\)/.exec(e.message)?.[1] : undefined;
  if (scope === 'match') return "this match's LLM token budget is spent";
  if (scope)
    return `today's LLM token budget ${scope === 'channel' ? 'for this channel' : scope === 'person' ? "of this match's host" : 'of the bot'} is spent (it resets at 00:00 UTC)`;
  if (typeof code === 'string') return e instanceof Error && e.name === 'LlmAgentError' ? `LLM ${code}` : code;
  return e instanceof Error ? e.name : 'error';
}

/** How long past the agent timeout a process waits before taking over a turn another process claimed. */
export const TURN_TAKEOVER_MARGIN_MS = 10_000;

/**
 * Whether this process should run `lab`'s turn of `round`: it claims the turn in the store (so two
 * processes resuming one match, e.g. several Discord shards started at once, never ask the model twice or
 * apply its actions twice). A process that loses the claim waits out the agent timeout plus a margin and
 * then takes the turn over only if the seat is still not done in that round (its claimant died); `false`
 * if the round is aborted meanwhile.
 */
export async function claimAgentTurn(
  d: { tryClaim(key: string): Promise<boolean>; stillPending(): Promise<boolean>; clock: Clock; timeoutMs: number },
  key: string,
  signal: AbortSignal,
): Promise<boolean> {
  if (await d.tryClaim(key)) return true;
  const waited = await sleep(d.clock, d.timeoutMs + TURN_TAKEOVER_MARGIN_MS, signal).then(
    () => true,
    () => false,
  );
  return waited && !signal.aborted && (await d.stillPending());
}
