/**
 * Wiring for the console, the bots and the eval CLI: from settings to the round host's `agentFor` and
 * `judge` options. When no endpoint is configured everything is null and {@link describeLlmConfig}
 * says that the rule judge and scripted seats are used. With a store, every call of the seats and the
 * judge goes through the spend gate (src/agents/budget.ts): daily token budgets per deployment and per
 * channel and the per-match budget, counted in the store's `llm_usage` table.
 */
import type { Logger } from 'pino';
import type { AgentFactory } from '../agents/seat.js';
import {
  seatBudgetRefusal,
  spendGate,
  type LlmUsageLine,
  type MatchScope,
  type SpendLedger,
  type TokenBudgets,
} from '../agents/budget.js';
import { configureUsageBudgets } from '../commands/usage-budgets.js';
import { agentNoteSink } from './llm-guard.js';
import { configureUsagePrices, costOf, type TokenPrices } from '../commands/usage-prices.js';
import type { AsyncJudge } from '../engine/judge/types.js';
import type { LlmClient } from '../llm/client.js';
import type { LlmCaller } from '../llm/types.js';
import { describeLlmConfig, judgeModels, llmEnabled, loadLlmConfig, type LlmConfig } from '../llm/config.js';
import type { EventStore } from '../store/types.js';

/** What the host needs from the LLM side. */
export interface LlmRuntime {
  config: LlmConfig;
  /** null when no endpoint is configured. */
  client: LlmClient | null;
  /** Agent factory for `{ kind: 'llm', model }` seats; null without an endpoint. */
  agentFor: AgentFactory | null;
  /** LLM judge (panel when several models); null = the rule judge decides. */
  judge: AsyncJudge | null;
  /** Model for `agent:llm` seats that name none (config agentModel), or null. */
  defaultAgentModel: string | null;
  /** Models a host may seat ({@link allowedModelsOf}); the agent factory builds agents for these only, so its cache is bounded by this list. */
  allowedModels: string[];
  /** Agents for any model, for the operator's own evaluation runs (`npm run eval -- --players llm:<model>`), never for chat seats. */
  evalAgentFor: AgentFactory | null;
  /** Give the round host this `judgeTimeoutMs`: a little over the judge's own deadline. */
  hostJudgeTimeoutMs: number;
  /** The token budgets in force ({@link budgetsOf}); enforced only when the runtime was given a store. */
  budgets: TokenBudgets;
  /**
   * Why a host may not seat a model in a (budget) channel today (a daily token budget is spent: a sentence
   * for the host), or null when it may; the round host's `llmSeatRefusal`. Null itself without an endpoint or a store.
   */
  llmSeatRefusal: ((where: { channelId: string; personId: string }) => Promise<string | null>) | null;
  /** One line for the console/logs. */
  summary: string;
}

/**
 * Build the runtime from validated settings. With `store`, the agents and the judge call the model
 * through the spend gate (src/agents/budget.ts): a call past `llm.dailyTokens`, `llm.channelDailyTokens`
 * or `llm.matchTokenBudget` is refused before it is made, and every call (made or refused) is logged as
 * one `llm usage` line (info; refusals warn) with its tokens. Without a store (the eval CLI) only the
 * client's per-match budget applies. Also tells the admin usage view (`stats view:usage`) the budgets.
 * The judge's whole-judgement deadline is `judgeTimeoutMs`; give the host a judge timeout a little
 * longer (its own fallback then never fires first).
 */
export async function createLlmRuntime(
  config: LlmConfig,
  logger?: Logger,
  store?: Pick<EventStore, 'llmSpent' | 'addLlmUsage' | 'getMatch' | 'load' | 'addLlmGuard'>,
): Promise<LlmRuntime> {
  const summary = describeLlmConfig(config);
  const hostJudgeTimeoutMs = config.judgeTimeoutMs + 2_000;
  const allowedModels = allowedModelsOf(config);
  const budgets = budgetsOf(config);
  configureUsageBudgets(budgets);
  const prices = pricesOf(config);
  configureUsagePrices(prices);
  if (!llmEnabled(config))
    return {
      config,
      client: null,
      agentFor: null,
      evalAgentFor: null,
      judge: null,
      defaultAgentModel: null,
      allowedModels: [],
      hostJudgeTimeoutMs,
      budgets,
      llmSeatRefusal: null,
      summary,
    };
  // The OpenAI SDK (~13 MB) loads only when an endpoint is configured.
  const [{ LlmClient }, { createLlmJudge }, { llmAgentFactory }] = await Promise.all([
    import('../llm/client.js'),
    import('../agents/llm-judge.js'),
    import('../agents/seat-agent.js'),
  ]);
  const client = new LlmClient(
    config,
    store || !logger ? {} : { onCall: (rec) => logger.debug({ llm: rec }, 'llm call') },
  );
  // Everything that spends the operator's key in a match (seats, extra turns, the judge) goes through the gate.
  const caller: LlmCaller = store
    ? spendGate(client, {
        ledger: storeLedger(store),
        budgets,
        maxOutputTokens: config.maxOutputTokens,
        ...gateLogging(logger, prices),
      })
    : client;
  const models = judgeModels(config);
  const judge = models.length
    ? createLlmJudge({
        client: caller,
        models,
        samples: config.judgeSamples,
        temperature: config.judgeTemperature,
        timeoutMs: config.judgeTimeoutMs,
      })
    : null;
  // Each seat turn is logged; redacted figures and refused actions are also counted for `stats view:usage`.
  // Counted under the match's budget channel (a thread's parent), as its tokens are.
  const scopes = store ? storeLedger(store) : null;
  const onNote = agentNoteSink(
    logger,
    store && scopes
      ? {
          addLlmGuard: (g) => store.addLlmGuard(g),
          channelOf: async (id) => (await scopes.scopeOf(id))?.channelId ?? null,
        }
      : undefined,
  );
  const anyModel = llmAgentFactory(caller, onNote ? { onNote } : {});
  // Only allowed models get an agent: the factory's cache (one agent per model) holds at most this list.
  const agentFor: AgentFactory = (driver) =>
    driver.kind === 'llm' && !allowedModels.includes(driver.model) ? null : anyModel(driver);
  const llmSeatRefusal = store ? seatRefusalOf(storeLedger(store), budgets) : null;
  return {
    config,
    client,
    agentFor,
    evalAgentFor: anyModel,
    judge,
    defaultAgentModel: config.agentModel,
    allowedModels,
    hostJudgeTimeoutMs,
    budgets,
    llmSeatRefusal,
    summary,
  };
}

/** The token budgets of `config` (0 = unlimited): `dailyTokens`, `personDailyTokens`, `channelDailyTokens`, and `matchTokenBudget` as `matchTokens`. */
export function budgetsOf(config: LlmConfig): TokenBudgets {
  return {
    dailyTokens: config.dailyTokens,
    personDailyTokens: config.personDailyTokens,
    channelDailyTokens: config.channelDailyTokens,
    matchTokens: config.matchTokenBudget,
  };
}

/** The token prices of `config` (dollars per million), or null unless both are set. */
export function pricesOf(config: LlmConfig): TokenPrices | null {
  const { priceInputPerMillion: input, priceOutputPerMillion: output } = config;
  return input === null || output === null ? null : { inputPerMillion: input, outputPerMillion: output };
}

/** Scopes remembered per match id (a match never changes channel or host); bounded, oldest dropped first. */
const SCOPE_CACHE_SIZE = 1_000;

/** The host's up-front check of a new LLM seat ({@link seatBudgetRefusal}), as a sentence for the host. */
function seatRefusalOf(
  ledger: SpendLedger,
  budgets: TokenBudgets,
): (where: { channelId: string; personId: string }) => Promise<string | null> {
  return async (where) => {
    const refusal = await seatBudgetRefusal(ledger, budgets, where);
    if (refusal === null) return null;
    // The ledger's sentence without its machine-readable prefix; the host's error carries the code.
    const why = refusal.message.replace(/^llm_budget_spent \(\w+\): /, '');
    return `No LLM seat now: ${why} Seat a scripted policy (\`agent:scripted\`) instead.`;
  };
}

/**
 * The gate's ledger over the store: usage sums and upserts, and each match's scope (cached): its budget
 * channel (a thread's parent, from the match's first event, else its channel) and its host (from that event).
 */
export function storeLedger(store: Pick<EventStore, 'llmSpent' | 'addLlmUsage' | 'getMatch' | 'load'>): SpendLedger {
  const scopes = new Map<string, MatchScope>();
  return {
    spent: (q) => store.llmSpent(q),
    add: (u) => store.addLlmUsage(u),
    async scopeOf(matchId) {
      const known = scopes.get(matchId);
      if (known !== undefined) return known;
      const rec = await store.getMatch(matchId);
      if (rec === null) return null;
      const first = (await store.load(matchId))[0]?.body;
      const created = first?.type === 'match_created' ? first : null;
      const scope = { channelId: created?.parentChannelId ?? rec.channelId, personId: created?.hostUserId ?? null };
      // A log still empty has no host yet: remembered once it has.
      if (created) {
        scopes.set(matchId, scope);
        if (scopes.size > SCOPE_CACHE_SIZE) scopes.delete(scopes.keys().next().value!);
      }
      return scope;
    },
  };
}

/**
 * One structured log line per LLM call: info when made, warn when a budget refused it; ledger failures as
 * errors. A made call's line also has `matchTokens` (the match's tokens so far as read before the call,
 * plus this call's: calls in flight together do not count each other) and, with prices, `costUsd` (this
 * call's estimated cost in dollars).
 */
function gateLogging(
  logger: Logger | undefined,
  prices: TokenPrices | null,
): { onCall?: (line: LlmUsageLine) => void; onError?: (err: unknown, during: 'check' | 'record') => void } {
  if (!logger) return {};
  return {
    onCall: (line) => {
      if (line.code === 'llm_budget_spent' || line.code === 'llm_usage_unavailable')
        return logger.warn({ llm: line }, `llm call refused: ${line.refusal?.message ?? line.code}`);
      const matchTokens = line.matchId !== null && line.spentBefore ? line.spentBefore.match + line.tokens : undefined;
      const costUsd = prices
        ? Math.round(costOf(prices, line.promptTokens, line.completionTokens) * 1e6) / 1e6
        : undefined;
      logger.info(
        {
          llm: {
            ...line,
            ...(matchTokens !== undefined ? { matchTokens } : {}),
            ...(costUsd !== undefined ? { costUsd } : {}),
          },
        },
        'llm usage',
      );
    },
    onError: (err, during) =>
      logger.error(
        { err: err instanceof Error ? err.message : String(err), code: 'llm_usage_unavailable', during },
        'llm usage ledger failed',
      ),
  };
}

/**
 * The models a host may seat: `llm.allowedModels` when set, else the configured agent model and judge
 * models (deduplicated, in that order). Empty when no model is configured.
 */
export function allowedModelsOf(config: LlmConfig): string[] {
  if (config.allowedModels.length > 0) return [...new Set(config.allowedModels)];
  return [
    ...new Set(
      [config.agentModel, config.judgeModel, ...config.judgePanel].filter((m): m is string => typeof m === 'string'),
    ),
  ];
}

/**
 * Eval plugin entry (src/cli/eval.ts): registers the `llm:<model>` players when an endpoint is
 * configured by environment variables. Returns what it did.
 */
export async function registerEvalAgents(
  register: (f: AgentFactory) => void,
  env: Record<string, string | undefined> = process.env,
): Promise<{ ok: boolean; message: string }> {
  const loaded = loadLlmConfig({}, env);
  if (!loaded.ok) return { ok: false, message: loaded.error.message };
  const rt = await createLlmRuntime(loaded.config);
  if (!rt.evalAgentFor) return { ok: false, message: rt.summary };
  // The operator names the model on the command line: evaluation is not bound by llm.allowedModels.
  register(rt.evalAgentFor);
  return { ok: true, message: rt.summary };
}
