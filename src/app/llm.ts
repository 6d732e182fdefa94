/**
 * Wiring for the console, the bots and the eval CLI: from settings to the round host's `agentFor` and
 * `judge` options. When no endpoint is configured everything is null and {@link describeLlmConfig}
 * says that the rule judge and scripted seats are used.
 */
import type { Logger } from 'pino';
import type { AgentFactory } from '../agents/seat.js';
import type { AsyncJudge } from '../engine/judge/types.js';
import type { LlmClient } from '../llm/client.js';
import { describeLlmConfig, judgeModels, llmEnabled, loadLlmConfig, type LlmConfig } from '../llm/config.js';

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
  /** One line for the console/logs. */
  summary: string;
}

/**
 * Build the runtime from validated settings. Calls are logged at debug level (usage, latency, outcome).
 * The judge's whole-judgement deadline is `judgeTimeoutMs`; give the host a judge timeout a little
 * longer (its own fallback then never fires first).
 */
export async function createLlmRuntime(config: LlmConfig, logger?: Logger): Promise<LlmRuntime> {
  const summary = describeLlmConfig(config);
  const hostJudgeTimeoutMs = config.judgeTimeoutMs + 2_000;
  const allowedModels = allowedModelsOf(config);
  if (!llmEnabled(config)) return { config, client: null, agentFor: null, evalAgentFor: null, judge: null, defaultAgentModel: null, allowedModels: [], hostJudgeTimeoutMs, summary };
  // The OpenAI SDK (~13 MB) loads only when an endpoint is configured.
  const [{ LlmClient }, { createLlmJudge }, { llmAgentFactory }] = await Promise.all([
    import('../llm/client.js'),
    import('../agents/llm-judge.js'),
    import('../agents/seat-agent.js'),
  ]);
  const client = new LlmClient(config, logger ? { onCall: (rec) => logger.debug({ llm: rec }, 'llm call') } : {});
  const models = judgeModels(config);
  const judge = models.length
    ? createLlmJudge({ client, models, samples: config.judgeSamples, temperature: config.judgeTemperature, timeoutMs: config.judgeTimeoutMs })
    : null;
  const anyModel = llmAgentFactory(client, logger ? { onNote: (note) => logger.debug({ agent: note }, 'llm agent turn') } : {});
  // Only allowed models get an agent: the factory's cache (one agent per model) holds at most this list.
  const agentFor: AgentFactory = (driver) => (driver.kind === 'llm' && !allowedModels.includes(driver.model) ? null : anyModel(driver));
  return { config, client, agentFor, evalAgentFor: anyModel, judge, defaultAgentModel: config.agentModel, allowedModels, hostJudgeTimeoutMs, summary };
}

/**
 * The models a host may seat: `llm.allowedModels` when set, else the configured agent model and judge
 * models (deduplicated, in that order). Empty when no model is configured.
 */
export function allowedModelsOf(config: LlmConfig): string[] {
  if (config.allowedModels.length > 0) return [...new Set(config.allowedModels)];
  return [...new Set([config.agentModel, config.judgeModel, ...config.judgePanel].filter((m): m is string => typeof m === 'string'))];
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
