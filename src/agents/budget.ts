/**
 * The spend gate (bounded LLM spend, docs/LLM.md): an {@link LlmCaller} in front of the real client that
 * every call spending the operator's key goes through (seat agents, their extra turns, the LLM judge;
 * src/app/llm.ts wires it). Before a call it reads what was spent from a shared ledger (the store's
 * `llm_usage` table) and refuses the call, without making it, when a token budget is spent:
 * - `deployment`: tokens per UTC day of the whole deployment (`llm.dailyTokens`);
 * - `person`: tokens per UTC day of the call's host, the person who opened its match and seats its models
 *   (`llm.personDailyTokens`): one host cannot spend more than that however many channels, threads or
 *   servers they play in, so they cannot spend the deployment's day and leave another server's judge to
 *   fall back; a spent person budget stops that host's seats and judge only;
 * - `channel`: tokens per UTC day of the call's channel (`llm.channelDailyTokens`); a Discord thread counts
 *   against its parent channel;
 * - `match`: tokens of the call's match over its life (`llm.matchTokenBudget`), across processes.
 * A refusal is the client's own `budget_exhausted` result (so a seat waits and the judge falls back to the
 * rule judge exactly as when the client's per-match cap is hit) whose message starts with the
 * machine-readable `llm_budget_spent (<scope>)`; the {@link BudgetRefusal} itself goes to `onCall`.
 * After a call its tokens are added to the ledger (one atomic upsert), and one {@link LlmUsageLine} per
 * call, made or refused, goes to `onCall` (the runtime logs it).
 *
 * Tokens are prompt + completion as the server reports them (the client estimates chars / 4 when it
 * reports none); a failed call the server probably processed (timeout, unreadable reply) is charged the
 * prompt estimate, as the client charges its per-match budget. A call is refused when what was spent plus
 * its prompt estimate would pass a budget. The check and the charge are separate statements, so calls in
 * flight at the moment a budget runs out may pass it by their own tokens (at most `maxConcurrent` calls
 * per process); the count itself never loses an increment.
 *
 * When the ledger cannot be read the call is refused too (`llm_usage_unavailable`): spend stays bounded
 * while the database is away. Never throws.
 */
import type { LlmCaller, LlmErrorCode, LlmMode, LlmResult, LlmRole, StructuredRequest } from '../llm/types.js';
import { currentLlmMatch } from './llm-scope.js';

/** Which budget refused a call. */
export type BudgetScope = 'deployment' | 'person' | 'channel' | 'match';

/** Token budgets (prompt + completion tokens); 0 = unlimited. */
export interface TokenBudgets {
  /** Per UTC day, the whole deployment. */
  dailyTokens: number;
  /** Per UTC day, one host (a person: every match they host, in every channel). */
  personDailyTokens: number;
  /** Per UTC day, one channel (a Discord thread counts against its parent). */
  channelDailyTokens: number;
  /** One match, over all its days. */
  matchTokens: number;
}

/** Tokens spent so far, as the ledger sums them (see EventStore.llmSpent). */
export interface SpentTotals {
  /** The deployment on the day. */
  deployment: number;
  /** The call's channel on the day (0 without a channel). */
  channel: number;
  /** The call's match, every day (0 without a match). */
  match: number;
  /** The call's host on the day (0 without one). */
  person: number;
}

/** Where a match's calls count: its budget channel (a thread's parent, else its channel) and its host. */
export interface MatchScope {
  channelId: string;
  /** Platform user id of the match's host (`discord:123`); null while its log is empty. */
  personId: string | null;
}

/** What a call is counted against: its day, and (when it has them) its channel, match and host. */
export interface SpendKey {
  day: string;
  channelId: string | null;
  matchId: string | null;
  personId: string | null;
}

/** What the gate needs from the store (EventStore has llmSpent and addLlmUsage; src/app/llm.ts finds each match's scope). */
export interface SpendLedger {
  spent(q: SpendKey): Promise<SpentTotals>;
  add(
    u: SpendKey & { model: string; calls?: number; refused?: number; promptTokens?: number; completionTokens?: number },
  ): Promise<void>;
  /** The match's budget channel and host, or null when the match is unknown. */
  scopeOf(matchId: string): Promise<MatchScope | null>;
}

/** A call refused before it was made: which budget, how much of it was spent, on which UTC day. */
export interface BudgetRefusal {
  code: 'llm_budget_spent';
  scope: BudgetScope;
  /** Tokens spent in the scope before the call. */
  spent: number;
  /** The scope's budget, tokens. */
  budget: number;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  /** A sentence for people (posted as the reason a seat waits, logged). */
  message: string;
}

/** One structured line per call (made or refused), for the log. Tokens are prompt + completion. */
export interface LlmUsageLine {
  /** ISO time the call started. */
  at: string;
  /** UTC day it counts for. */
  day: string;
  role: LlmRole;
  model: string;
  matchId: string | null;
  channelId: string | null;
  /** The host the call counts against, or null. */
  personId: string | null;
  /** `ok`, the client's failure code, `llm_budget_spent` or `llm_usage_unavailable` (refused, nothing sent). */
  code: 'ok' | LlmErrorCode | 'llm_budget_spent' | 'llm_usage_unavailable';
  /** Set when a budget refused the call. */
  refusal?: BudgetRefusal;
  mode?: LlmMode;
  latencyMs: number;
  promptTokens: number;
  completionTokens: number;
  /** Charged to the ledger: prompt + completion. */
  tokens: number;
  /** True when the tokens are an estimate (the server reported none, or the call failed). */
  estimated: boolean;
  /** Spent before the call (null when the ledger could not be read). */
  spentBefore: SpentTotals | null;
  budgets: TokenBudgets;
}

/** Options of {@link spendGate}. */
export interface SpendGateOptions {
  ledger: SpendLedger;
  budgets: TokenBudgets;
  /** The clock that picks the UTC day (default: the system clock). */
  now?: () => Date;
  /**
   * Completion tokens a call may spend when it names no `maxTokens` (the client's `maxOutputTokens`), added to
   * the prompt's estimate so that a call that passes the check cannot pass the budget by its reply. Default 0.
   */
  maxOutputTokens?: number;
  /** One line per call, made or refused. */
  onCall?: (line: LlmUsageLine) => void;
  /** A ledger failure: reading (the call was refused) or recording (the call's tokens are missing from the count). */
  onError?: (err: unknown, during: 'check' | 'record') => void;
}

/** Failures after which the server probably processed the prompt (as the client charges them). */
const CHARGED_FAILURES = new Set<LlmErrorCode>([
  'timeout',
  'invalid_json',
  'schema_mismatch',
  'empty_reply',
  'refused',
  'truncated',
]);
const estimateTokens = (s: string) => Math.ceil(s.length / 4);
const fmt = (n: number) => n.toLocaleString('en-US');

/** The UTC day of `d`, `YYYY-MM-DD`. */
export const utcDay = (d: Date): string => d.toISOString().slice(0, 10);

/**
 * The first budget a call of `estimate` prompt tokens would pass, given what was `spent` (deployment, then
 * person, then channel, then match), or null. Pure. `inChannel` / `inMatch` / `ofPerson`: whether the call
 * has a channel / match / host.
 */
export function budgetRefusal(
  spent: SpentTotals,
  budgets: TokenBudgets,
  estimate: number,
  day: string,
  where: { inChannel: boolean; inMatch: boolean; ofPerson?: boolean },
): BudgetRefusal | null {
  const over = (used: number, budget: number) => budget > 0 && used + estimate > budget;
  const refusal = (scope: BudgetScope, used: number, budget: number, sentence: string): BudgetRefusal => ({
    code: 'llm_budget_spent',
    scope,
    spent: used,
    budget,
    day,
    message: `llm_budget_spent (${scope}): ${sentence}`,
  });
  if (over(spent.deployment, budgets.dailyTokens)) {
    // No figures in the sentence: it is stored with the match (the judge's meta) and a deployment serves many
    // servers; the operator's log line carries spent and budget.
    return refusal(
      'deployment',
      spent.deployment,
      budgets.dailyTokens,
      `the bot's LLM tokens for today (UTC ${day}) are spent; LLM calls resume at 00:00 UTC.`,
    );
  }
  if (where.ofPerson && over(spent.person, budgets.personDailyTokens)) {
    // No figures either: a host's use sums their matches in every channel and server, which this one need not learn.
    return refusal(
      'person',
      spent.person,
      budgets.personDailyTokens,
      `this match's host has used their LLM tokens for today (UTC ${day}); their LLM calls resume at 00:00 UTC.`,
    );
  }
  if (where.inChannel && over(spent.channel, budgets.channelDailyTokens)) {
    return refusal(
      'channel',
      spent.channel,
      budgets.channelDailyTokens,
      `this channel has spent ${fmt(spent.channel)} of its ${fmt(budgets.channelDailyTokens)} LLM tokens for today (UTC ${day}); LLM calls resume at 00:00 UTC.`,
    );
  }
  if (where.inMatch && over(spent.match, budgets.matchTokens)) {
    return refusal(
      'match',
      spent.match,
      budgets.matchTokens,
      `this match has spent ${fmt(spent.match)} of its ${fmt(budgets.matchTokens)} LLM tokens.`,
    );
  }
  return null;
}

/**
 * Whether a new LLM seat of a match hosted by `where.personId` in budget channel `where.channelId` (a
 * thread's parent) would start on a spent daily budget (the deployment's, the host's, the channel's; a
 * match's budget starts with its match): the refusal a one-token call there would get today, or null. Asked
 * when a host seats a model (`seat … agent:llm`), so the seat is refused up front instead of waiting every
 * round. A ledger that cannot be read gives null: the gate still guards each call.
 */
export async function seatBudgetRefusal(
  ledger: Pick<SpendLedger, 'spent'>,
  budgets: TokenBudgets,
  where: { channelId: string; personId: string },
  now: Date = new Date(),
): Promise<BudgetRefusal | null> {
  if (budgets.dailyTokens <= 0 && budgets.channelDailyTokens <= 0 && budgets.personDailyTokens <= 0) return null;
  const day = utcDay(now);
  let spent: SpentTotals;
  try {
    spent = await ledger.spent({ day, channelId: where.channelId, matchId: null, personId: where.personId });
  } catch {
    return null;
  }
  return budgetRefusal(spent, budgets, 1, day, { inChannel: true, inMatch: false, ofPerson: true });
}

/**
 * Put the budgets of `opts` in front of `inner` (see the file comment). Calls that name no match take the
 * match of the enclosing `withLlmMatch` (the judge, src/agents/llm-scope.ts); the match's budget channel and
 * host come from the ledger. The returned caller never throws.
 */
export function spendGate(inner: LlmCaller, opts: SpendGateOptions): LlmCaller {
  const now = opts.now ?? (() => new Date());
  return {
    async structured<T>(req: StructuredRequest<T>): Promise<LlmResult<T>> {
      const started = now();
      const at = started.toISOString();
      const day = utcDay(started);
      const matchId = req.matchId ?? currentLlmMatch();
      const estimate =
        estimateTokens(req.messages.map((m) => m.content).join('\n')) + (req.maxTokens ?? opts.maxOutputTokens ?? 0);
      const base = { at, day, role: req.role, model: req.model, matchId, budgets: opts.budgets };
      let channelId: string | null = null;
      let personId: string | null = null;
      let spent: SpentTotals;
      try {
        const scope = matchId === null ? null : await opts.ledger.scopeOf(matchId);
        channelId = scope?.channelId ?? null;
        personId = scope?.personId ?? null;
        spent = await opts.ledger.spent({ day, channelId, matchId, personId });
      } catch (err) {
        opts.onError?.(err, 'check');
        const message =
          'llm_usage_unavailable: the token usage could not be read, so no LLM call is made until the database answers.';
        opts.onCall?.({
          ...base,
          channelId,
          personId,
          code: 'llm_usage_unavailable',
          latencyMs: 0,
          promptTokens: 0,
          completionTokens: 0,
          tokens: 0,
          estimated: false,
          spentBefore: null,
        });
        return refused(req.model, message);
      }
      const key = { day, channelId, matchId, personId };
      const refusal = budgetRefusal(spent, opts.budgets, estimate, day, {
        inChannel: channelId !== null,
        inMatch: matchId !== null,
        ofPerson: personId !== null,
      });
      if (refusal) {
        await record(opts, { ...key, model: req.model, refused: 1 });
        opts.onCall?.({
          ...base,
          channelId,
          personId,
          code: 'llm_budget_spent',
          refusal,
          latencyMs: 0,
          promptTokens: 0,
          completionTokens: 0,
          tokens: 0,
          estimated: false,
          spentBefore: spent,
        });
        return refused(req.model, refusal.message);
      }
      const result = await inner.structured({ ...req, matchId });
      // The client refused on its own per-match count: nothing was sent, nothing to charge.
      const notSent = !result.ok && result.code === 'budget_exhausted';
      const charge = result.ok
        ? {
            promptTokens: result.usage.promptTokens,
            completionTokens: result.usage.completionTokens,
            estimated: result.usage.estimated,
          }
        : { promptTokens: CHARGED_FAILURES.has(result.code) ? estimate : 0, completionTokens: 0, estimated: true };
      await record(
        opts,
        notSent
          ? { ...key, model: req.model, refused: 1 }
          : {
              ...key,
              model: req.model,
              calls: 1,
              promptTokens: charge.promptTokens,
              completionTokens: charge.completionTokens,
            },
      );
      opts.onCall?.({
        ...base,
        channelId,
        personId,
        code: result.ok ? 'ok' : result.code,
        mode: result.mode,
        latencyMs: result.latencyMs,
        ...(notSent
          ? { promptTokens: 0, completionTokens: 0, tokens: 0 }
          : {
              promptTokens: charge.promptTokens,
              completionTokens: charge.completionTokens,
              tokens: charge.promptTokens + charge.completionTokens,
            }),
        estimated: charge.estimated,
        spentBefore: spent,
      });
      return result;
    },
  };
}

/** Add to the ledger; a failure is reported, never thrown (the call itself is over). */
async function record(opts: SpendGateOptions, u: Parameters<SpendLedger['add']>[0]): Promise<void> {
  try {
    await opts.ledger.add(u);
  } catch (err) {
    opts.onError?.(err, 'record');
  }
}

/** The client's "budget spent, nothing sent" result, with `message`. */
function refused<T>(model: string, message: string): LlmResult<T> {
  return { ok: false, code: 'budget_exhausted', message, model, mode: 'json_schema', latencyMs: 0 };
}
