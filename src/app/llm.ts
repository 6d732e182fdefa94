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
  if (!llmEnabled(config)) return { config, client: null, agentFor: null, judge: null, defaultAgentModel: null, hostJudgeTimeoutMs, summary };
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
  const agentFor = llmAgentFactory(client, logger ? { onNote: (note) => logger.debug({ agent: note }, 'llm agent turn') } : {});
  return { config, client, agentFor, judge, defaultAgentModel: config.agentModel, hostJudgeTimeoutMs, summary };
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
  if (!rt.agentFor) return { ok: false, message: rt.summary };
  register(rt.agentFor);
  return { ok: true, message: rt.summary };
}
