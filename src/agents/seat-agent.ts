/**
 * The LLM seat agent: asked once per round (all LLM seats in parallel by the host),
 * it answers with up to {@link MAX_LLM_ACTIONS} actions plus an optional pitch.
 *
 * Validation: every action is checked — with the host's dry run of the engine (`ctx.validate`, the
 * engine's own `applyAction` on a scratch copy of the state, so the codes are the engine's), or, when the
 * host gives none, with the engine's action schema (`malformed_action`). Rejected actions are fed back
 * to the model once with their error codes; replacements that fail again are dropped. The engine still
 * decides when the host applies them.
 *
 * Self-protection, in code (a message may talk the model into anything): the dry run includes the
 * self-harm guard (guard.ts, code `gives_value_away`), which refuses a trade, bid or finish by which the seat
 * would give value away by its own valuation; a refused action is fed back in the retry like an engine
 * rejection, and told to the seat again at its next turn, with the reason. The text of every action
 * (messages, offer and coalition notes, pitches) has the seat's private figures redacted (redact.ts) before
 * anything is checked; the count is in the turn's {@link AgentNote}. Other players' text reaches the model
 * only quoted, as data (prompts.ts).
 *
 * Failure: a model failure (timeout, HTTP error, garbage) rejects with an {@link LlmAgentError} whose
 * message names the code; the host turns a rejection into "the seat waits this round" and shows the
 * reason, so the match never stalls.
 */
import { ActionSchema } from '../engine/actions.js';
import { CodedError } from '../errors/coded-error.js';
import type { ActionInput } from '../engine/actions.js';
import type { Observation } from '../engine/views.js';
import type { AgentContext, AgentFactory, SeatAgent } from './seat.js';
import type { LlmCaller, LlmErrorCode, LlmUsage } from '../llm/types.js';
import { GUARD_CODE, guardAction } from './guard.js';
import {
  AGENT_PROMPT_VERSION,
  AgentReplySchema,
  buildAgentMessages,
  buildFeedbackMessages,
  MAX_LLM_ACTIONS,
  toActionInput,
  type Rejection,
} from './prompts.js';
import { privateFigures, redactFigures } from './redact.js';

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

/** A model failure, with the client's code: the agents layer throws the LLM client's codes ({@link LlmErrorCode}, src/llm/types.ts). */
export class LlmAgentError extends CodedError<LlmErrorCode> {
  override readonly name = 'LlmAgentError';

  constructor(code: LlmErrorCode, message: string) {
    super(code, `LLM ${code}: ${message}`);
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
  /** Actions rejected on the first try (with the engine's codes, or the guard's `gives_value_away`) and whether a retry was made. */
  rejected: { code: string }[];
  retried: boolean;
  /** Actions the self-harm guard refused this turn, on the first try and in the retry. */
  refused: number;
  /** Private figures replaced in the text of this turn's actions (redact.ts). */
  redactions: number;
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

/** Seats whose refused actions are remembered for their next turn, at most (oldest forgotten first). */
const REMEMBERED_SEATS = 1_000;

/** `actions` with the seat's private figures redacted from their `message`; adds the count to `counter`. */
function redacted(
  obs: Observation,
  actions: Record<string, unknown>[],
  counter: { n: number },
): Record<string, unknown>[] {
  const figures = privateFigures(obs);
  return actions.map((a) => {
    if (typeof a['message'] !== 'string') return a;
    const r = redactFigures(a['message'], figures);
    counter.n += r.redactions;
    return r.redactions ? { ...a, message: r.text } : a;
  });
}

function schemaCheck(actions: readonly unknown[]): ActionCheck[] {
  return actions.map((a) => {
    const r = ActionSchema.safeParse(a);
    return r.success
      ? { ok: true, code: 'ok', message: 'well-formed' }
      : {
          ok: false,
          code: 'malformed_action',
          message: r.error.issues
            .map((i) => `${i.path.join('.')}: ${i.message}`)
            .join('; ')
            .slice(0, 200),
        };
  });
}

const addUsage = (a: LlmUsage | null, b: LlmUsage | null): LlmUsage | null =>
  !a
    ? b
    : !b
      ? a
      : {
          promptTokens: a.promptTokens + b.promptTokens,
          completionTokens: a.completionTokens + b.completionTokens,
          totalTokens: a.totalTokens + b.totalTokens,
          estimated: a.estimated || b.estimated,
        };

/** Build an LLM seat agent for one model. */
export function createLlmSeatAgent(opts: LlmSeatAgentOptions): SeatAgent {
  // The guard's refusals of each seat's last turn (match:lab), told to the seat at its next turn.
  const refusedBefore = new Map<string, Rejection[]>();
  return {
    promptVersion: AGENT_PROMPT_VERSION,
    async act(obs: Observation, ctx: AgentContext): Promise<ActionInput[]> {
      const started = performance.now();
      const seat = `${ctx.matchId}:${ctx.lab}`;
      const lastRefused = refusedBefore.get(seat) ?? [];
      refusedBefore.delete(seat);
      // Shape first (the engine's schema); the well-formed ones then go through the host's dry run (engine
      // and guard) in order, or, without one, through the guard on this observation.
      const check = (list: readonly unknown[]): ActionCheck[] => {
        const shape = schemaCheck(list);
        const formed = list.filter((_, i) => shape[i]?.ok);
        const dry = ctx.validate
          ? ctx.validate(formed)
          : formed.map((a) => {
              const g = guardAction(obs, a);
              return g
                ? { ok: false, code: g.code, message: g.message }
                : { ok: true, code: 'ok', message: 'well-formed' };
            });
        let k = 0;
        return shape.map((c) =>
          c.ok ? (dry[k++] ?? { ok: false, code: 'malformed_action', message: 'not checked' }) : c,
        );
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
      const redactions = { n: 0 };
      const refused: Rejection[] = [];
      const note = (
        n: Omit<AgentNote, 'matchId' | 'lab' | 'round' | 'model' | 'latencyMs' | 'refused' | 'redactions'>,
      ) =>
        opts.onNote?.({
          matchId: ctx.matchId,
          lab: ctx.lab,
          round: ctx.round,
          model: opts.model,
          latencyMs: Math.round(performance.now() - started),
          refused: refused.length,
          redactions: redactions.n,
          ...n,
        });

      const messages = buildAgentMessages(obs, opts.rng, { refused: lastRefused });
      const first = await call(messages);
      if (!first.ok) {
        note({ ok: false, code: first.code, actions: 0, rejected: [], retried: false, usage: null });
        throw new LlmAgentError(first.code, first.message);
      }
      const raw: Record<string, unknown>[] = first.value.actions.slice(0, MAX_LLM_ACTIONS).map(toActionInput);
      if (first.value.pitch) {
        raw.push({
          action_type: 'make_pitch',
          message: first.value.pitch.message,
          job_ids: first.value.pitch.job_ids ?? [],
        });
      }
      const proposed = redacted(obs, raw, redactions);
      const checks = check(proposed);
      const kept = proposed.filter((_, i) => checks[i]?.ok);
      const rejected: Rejection[] = proposed.flatMap((action, i) => {
        const c = checks[i];
        return c && !c.ok ? [{ action, code: c.code, message: c.message }] : [];
      });
      refused.push(...rejected.filter((r) => r.code === GUARD_CODE));
      let usage: LlmUsage | null = first.usage;
      let replacements: Record<string, unknown>[] = [];
      const retried = rejected.length > 0 && !ctx.signal.aborted;
      if (retried) {
        const second = await call(buildFeedbackMessages(messages, first.raw, rejected));
        if (second.ok) {
          usage = addUsage(usage, second.usage);
          const candidates = redacted(
            obs,
            second.value.actions.slice(0, rejected.length).map(toActionInput),
            redactions,
          );
          const again = check([...kept, ...candidates]).slice(kept.length);
          replacements = candidates.filter((_, i) => again[i]?.ok);
          candidates.forEach((action, i) => {
            const c = again[i];
            if (c?.code === GUARD_CODE) refused.push({ action, code: c.code, message: c.message });
          });
        }
      }
      if (refused.length > 0) {
        refusedBefore.set(seat, refused);
        if (refusedBefore.size > REMEMBERED_SEATS) refusedBefore.delete(refusedBefore.keys().next().value!);
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
export function llmAgentFactory(
  client: LlmCaller | null,
  extra: Omit<LlmSeatAgentOptions, 'client' | 'model'> = {},
): AgentFactory {
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
