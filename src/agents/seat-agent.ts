/**
 * The LLM seat agent (issue 4 item 2): asked once per round (all LLM seats in parallel by the host),
 * it answers with up to {@link MAX_LLM_ACTIONS} actions plus an optional pitch.
 *
 * Validation: every action is checked — with the host's dry run of the engine (`ctx.validate`, the
 * engine's own `applyAction` on a scratch copy of the state, so the codes are the engine's), or, when the
 * host gives none, with the engine's action schema (`malformed_action`). Rejected actions are fed back
 * to the model once with their error codes; replacements that fail again are dropped. The engine still
 * decides when the host applies them.
 *
 * Failure: a model failure (timeout, HTTP error, garbage) rejects with an {@link LlmAgentError} whose
 * message names the code; the host turns a rejection into "the seat waits this round" and shows the
 * reason, so the match never stalls.
 */
import { ActionSchema } from '../engine/actions.js';
import type { ActionInput } from '../engine/actions.js';
import type { Observation } from '../engine/views.js';
import type { AgentContext, AgentFactory, SeatAgent } from './seat.js';
import type { LlmCaller, LlmErrorCode, LlmUsage } from '../llm/types.js';
import { AgentReplySchema, buildAgentMessages, buildFeedbackMessages, MAX_LLM_ACTIONS, toActionInput, type Rejection } from './prompts.js';

/** The engine's verdict on one action (code from src/engine/codes.ts). */
export interface ActionCheck {
  ok: boolean;
  code: string;
  message: string;
}

/**
 * Dry run of actions, in order, against the current state (each sees the previous ones applied).
 * Never throws; returns one check per action. The host passes one as `AgentContext.validate`.
 */
export type ValidateActions = NonNullable<AgentContext['validate']>;

/** A model failure, with the client's code (see {@link LlmErrorCode}). */
export class LlmAgentError extends Error {
  /** Machine-readable cause, as the client reported it. */
  readonly code: LlmErrorCode;
  constructor(code: LlmErrorCode, message: string) {
    super(`LLM ${code}: ${message}`);
    this.name = 'LlmAgentError';
    this.code = code;
  }
}

/** One decision, for transcripts and logs. */
export interface AgentNote {
  matchId: string;
  lab: string;
  round: number;
  model: string;
  ok: boolean;
  /** Error code when the model failed. */
  code?: LlmErrorCode;
  /** Actions returned to the host. */
  actions: number;
  /** Actions rejected on the first try (with the engine's codes) and whether a retry was made. */
  rejected: { code: string }[];
  retried: boolean;
  /** Summed over the (one or two) calls. */
  usage: LlmUsage | null;
  latencyMs: number;
}

/** Options of {@link createLlmSeatAgent}; `onNote` receives one {@link AgentNote} per turn (transcript, logs). */
export interface LlmSeatAgentOptions {
  client: LlmCaller;
  model: string;
  /** Sampling temperature (default: the client's). */
  temperature?: number;
  /** Draws the quoting nonce (default Math.random). */
  rng?: () => number;
  onNote?: (note: AgentNote) => void;
}

function schemaCheck(actions: readonly unknown[]): ActionCheck[] {
  return actions.map((a) => {
    const r = ActionSchema.safeParse(a);
    return r.success
      ? { ok: true, code: 'ok', message: 'well-formed' }
      : { ok: false, code: 'malformed_action', message: r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ').slice(0, 200) };
  });
}

const addUsage = (a: LlmUsage | null, b: LlmUsage | null): LlmUsage | null =>
  !a ? b : !b ? a : { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens, totalTokens: a.totalTokens + b.totalTokens, estimated: a.estimated || b.estimated };

/** Build an LLM seat agent for one model. */
export function createLlmSeatAgent(opts: LlmSeatAgentOptions): SeatAgent {
  return {
    async act(obs: Observation, ctx: AgentContext): Promise<ActionInput[]> {
      const started = performance.now();
      // Shape first (the engine's schema); the well-formed ones then go through the host's dry run in order.
      const check = (list: readonly unknown[]): ActionCheck[] => {
        const shape = schemaCheck(list);
        if (!ctx.validate) return shape;
        const formed = list.filter((_, i) => shape[i]?.ok);
        const dry = ctx.validate(formed);
        let k = 0;
        return shape.map((c) => (c.ok ? (dry[k++] ?? { ok: false, code: 'malformed_action', message: 'not checked' }) : c));
      };
      const call = (messages: ReturnType<typeof buildAgentMessages>) =>
        opts.client.structured({
          role: 'agent',
          model: opts.model,
          messages,
          schema: AgentReplySchema,
          name: 'arena_actions',
          matchId: ctx.matchId,
          signal: ctx.signal,
          ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
        });
      const note = (n: Omit<AgentNote, 'matchId' | 'lab' | 'round' | 'model' | 'latencyMs'>) =>
        opts.onNote?.({ matchId: ctx.matchId, lab: ctx.lab, round: ctx.round, model: opts.model, latencyMs: Math.round(performance.now() - started), ...n });

      const messages = buildAgentMessages(obs, opts.rng);
      const first = await call(messages);
      if (!first.ok) {
        note({ ok: false, code: first.code, actions: 0, rejected: [], retried: false, usage: null });
        throw new LlmAgentError(first.code, first.message);
      }
      const proposed: Record<string, unknown>[] = first.value.actions.slice(0, MAX_LLM_ACTIONS).map(toActionInput);
      if (first.value.pitch) {
        proposed.push({ action_type: 'make_pitch', message: first.value.pitch.message, job_ids: first.value.pitch.job_ids ?? [] });
      }
      const checks = check(proposed);
      const kept = proposed.filter((_, i) => checks[i]?.ok);
      const rejected: Rejection[] = proposed.flatMap((action, i) => {
        const c = checks[i];
        return c && !c.ok ? [{ action, code: c.code, message: c.message }] : [];
      });
      let usage: LlmUsage | null = first.usage;
      let replacements: Record<string, unknown>[] = [];
      const retried = rejected.length > 0 && !ctx.signal.aborted;
      if (retried) {
        const second = await call(buildFeedbackMessages(messages, first.raw, rejected));
        if (second.ok) {
          usage = addUsage(usage, second.usage);
          const candidates = second.value.actions.slice(0, rejected.length).map(toActionInput);
          const again = check([...kept, ...candidates]).slice(kept.length);
          replacements = candidates.filter((_, i) => again[i]?.ok);
        }
      }
      const actions = [...kept, ...replacements] as ActionInput[];
      note({ ok: true, actions: actions.length, rejected: rejected.map((r) => ({ code: r.code })), retried, usage });
      return actions;
    },
  };
}

/**
 * Agent factory for the round host: an LLM agent for `{ kind: 'llm', model }` drivers, null for other
 * drivers or when no client is configured (then the host makes such seats wait).
 */
export function llmAgentFactory(client: LlmCaller | null, extra: Omit<LlmSeatAgentOptions, 'client' | 'model'> = {}): AgentFactory {
  const cache = new Map<string, SeatAgent>();
  return (driver) => {
    if (driver.kind !== 'llm' || !client) return null;
    let agent = cache.get(driver.model);
    if (!agent) {
      agent = createLlmSeatAgent({ client, model: driver.model, ...extra });
      cache.set(driver.model, agent);
    }
    return agent;
  };
}
