/**
 * Settings of the LLM client (agents and judge) from the config file's `llm` section and environment
 * variables (environment wins). Parsed with zod; errors are values.
 *
 * Environment variables:
 * | variable | setting |
 * |---|---|
 * | `ARENA_LLM_BASE_URL` (or `OPENAI_BASE_URL`) | baseUrl, e.g. `http://localhost:11434/v1` (Ollama), `http://localhost:8000/v1` (vLLM) |
 * | `OPENAI_API_KEY` (or `ARENA_LLM_API_KEY`) | apiKey (optional for local servers) |
 * | `ARENA_AGENT_MODEL` / `ARENA_JUDGE_MODEL` | agentModel / judgeModel |
 * | `ARENA_JUDGE_PANEL` | judgePanel, comma-separated model names |
 * | `ARENA_LLM_ALLOWED_MODELS` | allowedModels, comma-separated (default: the agent and judge models) |
 * | `ARENA_LLM_TEMPERATURE` | temperature (agents; the judge uses judgeTemperature, default 0) |
 * | `ARENA_LLM_TIMEOUT_MS` | timeoutMs per HTTP attempt |
 * | `ARENA_LLM_RETRIES` | maxRetries (429, 5xx, timeouts, connection errors) |
 * | `ARENA_LLM_MAX_CONCURRENT` | maxConcurrent requests in flight, shared round-robin between matches |
 * | `ARENA_LLM_MATCH_TOKEN_BUDGET` | matchTokenBudget (prompt + completion tokens per match; 0 = unlimited) |
 * | `ARENA_LLM_DAILY_TOKENS` | dailyTokens (prompt + completion tokens per UTC day, whole deployment; 0 = unlimited) |
 * | `ARENA_LLM_CHANNEL_DAILY_TOKENS` | channelDailyTokens (prompt + completion tokens per UTC day per channel; a Discord thread counts against its parent; 0 = unlimited) |
 * | `ARENA_LLM_PERSON_DAILY_TOKENS` | personDailyTokens (prompt + completion tokens per UTC day per host, every channel and server together; 0 = unlimited) |
 * | `ARENA_LLM_RESPONSE_FORMAT` | responseFormat: auto, json_schema, json_object, text |
 * | `ARENA_LLM_PRICE_INPUT` / `ARENA_LLM_PRICE_OUTPUT` | priceInputPerMillion / priceOutputPerMillion (dollars per million tokens, for the cost shown to operators) |
 */
import { z } from 'zod';
import { redactUrls } from './redact.js';

/** The official OpenAI endpoint, used when only an API key is configured. */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/**
 * The `llm` section of the config file (also the merged settings). Embed it in the file schema as
 * `llm: LlmConfigSchema.default({})`.
 */
export const LlmConfigSchema = z.object({
  /** OpenAI-compatible base URL ending in /v1; null = OpenAI's own when an apiKey is set, else disabled. */
  baseUrl: z.url().nullable().default(null),
  /** Bearer key; local servers usually need none. */
  apiKey: z.string().min(1).nullable().default(null),
  /** Default model of LLM seats (a seat may name its own). null = LLM seats need an explicit model. */
  agentModel: z.string().min(1).nullable().default(null),
  /**
   * Models a match host may seat (`seat … agent:llm model:…`); empty = the configured agent and judge
   * models (agentModel, judgeModel, judgePanel). Anything else is refused with the list.
   */
  allowedModels: z.array(z.string().min(1)).default([]),
  /** Judge model; null = no LLM judge (the rule judge decides). */
  judgeModel: z.string().min(1).nullable().default(null),
  /** Extra judge models for a panel (median per seat, RULES §6 hybrid); empty = judgeModel alone. */
  judgePanel: z.array(z.string().min(1)).default([]),
  /** Samples per judge model (panel of samples; ≥ 2 only makes sense with temperature > 0). */
  judgeSamples: z.number().int().min(1).max(5).default(1),
  /** Sampling temperature of agents. */
  temperature: z.number().min(0).max(2).default(0.4),
  /** Sampling temperature of the judge (0: as repeatable as the server allows). */
  judgeTemperature: z.number().min(0).max(2).default(0),
  /** Timeout of one HTTP attempt, ms. */
  timeoutMs: z.number().int().min(50).max(600_000).default(30_000),
  /**
   * Whole-judgement deadline for the LLM judge, ms; past it the rule judge's decision stands. Default
   * 18 s: inside the round host's own 20 s judge limit (src/match/judging.ts), so the judge's fallback,
   * which records the failed calls, normally fires first.
   */
  judgeTimeoutMs: z.number().int().min(50).max(600_000).default(18_000),
  /** Retries of the openai client (429 honouring retry-after, 5xx, timeouts, connection errors). */
  maxRetries: z.number().int().min(0).max(10).default(2),
  /**
   * Requests in flight at once in this process, across every match's seats and judge (size it to the
   * provider's rate limit). Matches take turns for free slots (round-robin, src/llm/fair-queue.ts), so one
   * busy match cannot starve another; a match alone may use them all. Default 8.
   */
  maxConcurrent: z.number().int().min(1).max(256).default(8),
  /** Prompt + completion tokens one match may spend; 0 = unlimited. Past it calls fail `budget_exhausted`. */
  matchTokenBudget: z.number().int().min(0).default(400_000),
  /**
   * Tokens (prompt + completion, as the server reports them) the whole deployment may spend per UTC day:
   * every process sharing the database, every channel, seats and judge together; 0 = unlimited. Counted
   * in the store (table `llm_usage`) when the runtime has one (src/app/llm.ts); past it calls are refused
   * before they are made (`llm_budget_spent`, scope `deployment`). Default 5 000 000.
   */
  dailyTokens: z.number().int().min(0).default(5_000_000),
  /**
   * Tokens (prompt + completion) one channel may spend per UTC day, its matches' seats and judge together;
   * 0 = unlimited. Past it calls are refused (`llm_budget_spent`, scope `channel`). Default 1 500 000: about
   * 27–31 coalition_market matches with two LLM seats and the LLM judge (48.8k–55.7k tokens each, measured
   * with `npm run bench:llm`, docs/LLM.md "What a match costs"), or under four matches that each spend their
   * whole matchTokenBudget.
   */
  channelDailyTokens: z.number().int().min(0).default(1_500_000),
  /**
   * Tokens (prompt + completion) one host may spend per UTC day: the seats and judge of every match they
   * host (the person who opens a match and seats its models), in every channel, thread and server together;
   * 0 = unlimited. Past it that host's LLM seats are refused and their calls too (`llm_budget_spent`, scope
   * `person`); nobody else's. Default 1 000 000 (a fifth of the default `dailyTokens`, so no one host can
   * spend the deployment's day).
   */
  personDailyTokens: z.number().int().min(0).default(1_000_000),
  /**
   * Dollars per million input (prompt) tokens, for the estimated cost `stats view:usage` and the `llm usage`
   * log lines show; null = no cost shown. One price for every model (e.g. 0.15 for gpt-4o-mini).
   */
  priceInputPerMillion: z.number().min(0).nullable().default(null),
  /** Dollars per million output (completion) tokens; null = no cost shown (e.g. 0.60 for gpt-4o-mini). */
  priceOutputPerMillion: z.number().min(0).nullable().default(null),
  /** Max completion tokens per call. */
  maxOutputTokens: z.number().int().min(16).max(32_768).default(1_200),
  /** Structured-output mode; auto tries json_schema, then json_object, then plain text (per model, remembered). */
  responseFormat: z.enum(['auto', 'json_schema', 'json_object', 'text']).default('auto'),
});

/** Merged, validated settings. */
export type LlmConfig = z.output<typeof LlmConfigSchema>;
/** What the config file may hold under `llm`. */
export type LlmConfigInput = z.input<typeof LlmConfigSchema>;

/** A configuration error: the setting's path and zod's message. */
export interface LlmConfigError {
  code: 'invalid_llm_config';
  message: string;
  issues: { path: string; message: string }[];
}

type Env = Record<string, string | undefined>;

const nonEmpty = (v: string | undefined) => (v !== undefined && v.trim() !== '' ? v.trim() : undefined);
/** Env numbers stay strings until zod sees them, so a typo gives an error instead of NaN. */
const num = (v: string | undefined) => {
  const s = nonEmpty(v);
  if (s === undefined) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : s;
};

/** The settings that environment variables set (undefined = not set). */
export function llmEnvOverrides(env: Env): Record<string, unknown> {
  const panel = nonEmpty(env.ARENA_JUDGE_PANEL);
  const out: Record<string, unknown> = {
    baseUrl: nonEmpty(env.ARENA_LLM_BASE_URL) ?? nonEmpty(env.OPENAI_BASE_URL),
    apiKey: nonEmpty(env.ARENA_LLM_API_KEY) ?? nonEmpty(env.OPENAI_API_KEY),
    agentModel: nonEmpty(env.ARENA_AGENT_MODEL),
    judgeModel: nonEmpty(env.ARENA_JUDGE_MODEL),
    judgePanel: panel
      ?.split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
    allowedModels: nonEmpty(env.ARENA_LLM_ALLOWED_MODELS)
      ?.split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
    temperature: num(env.ARENA_LLM_TEMPERATURE),
    timeoutMs: num(env.ARENA_LLM_TIMEOUT_MS),
    maxRetries: num(env.ARENA_LLM_RETRIES),
    maxConcurrent: num(env.ARENA_LLM_MAX_CONCURRENT),
    matchTokenBudget: num(env.ARENA_LLM_MATCH_TOKEN_BUDGET),
    dailyTokens: num(env.ARENA_LLM_DAILY_TOKENS),
    channelDailyTokens: num(env.ARENA_LLM_CHANNEL_DAILY_TOKENS),
    personDailyTokens: num(env.ARENA_LLM_PERSON_DAILY_TOKENS),
    responseFormat: nonEmpty(env.ARENA_LLM_RESPONSE_FORMAT),
    priceInputPerMillion: num(env.ARENA_LLM_PRICE_INPUT),
    priceOutputPerMillion: num(env.ARENA_LLM_PRICE_OUTPUT),
  };
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}

/**
 * Merge the config file's `llm` section with the environment (environment wins) and validate.
 *
 * @param file the `llm` section as read from the file (unvalidated), or undefined
 * @param env usually `process.env`
 */
export function loadLlmConfig(
  file: unknown = {},
  env: Env = process.env,
): { ok: true; config: LlmConfig } | { ok: false; error: LlmConfigError } {
  const base = file && typeof file === 'object' ? (file as Record<string, unknown>) : {};
  const parsed = LlmConfigSchema.safeParse({ ...base, ...llmEnvOverrides(env) });
  if (parsed.success) return { ok: true, config: parsed.data };
  const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  return {
    ok: false,
    error: {
      code: 'invalid_llm_config',
      message: `invalid llm settings: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
      issues,
    },
  };
}

/** Base URL the client talks to, or null when no endpoint is configured (no base URL and no key). */
export function effectiveBaseUrl(cfg: LlmConfig): string | null {
  if (cfg.baseUrl) return cfg.baseUrl;
  return cfg.apiKey ? OPENAI_DEFAULT_BASE_URL : null;
}

/** True when an endpoint is configured (LLM seats may be seated). */
export const llmEnabled = (cfg: LlmConfig): boolean => effectiveBaseUrl(cfg) !== null;

/** Judge models to ask (judgeModel first, then the panel, deduplicated); empty = rule judge only. */
export function judgeModels(cfg: LlmConfig): string[] {
  if (!llmEnabled(cfg)) return [];
  const all = [...(cfg.judgeModel ? [cfg.judgeModel] : []), ...cfg.judgePanel];
  return [...new Set(all)];
}

/** One line for the console / logs saying what is in use, without the key (nor any credential in the base URL). */
export function describeLlmConfig(cfg: LlmConfig): string {
  const url = effectiveBaseUrl(cfg);
  if (!url)
    return 'No LLM endpoint configured: the rule judge decides and LLM seats are unavailable (set ARENA_LLM_BASE_URL or OPENAI_API_KEY).';
  const judges = judgeModels(cfg);
  return [
    `LLM endpoint ${redactUrls(url)}${cfg.apiKey ? ' (with API key)' : ''}`,
    `agent model: ${cfg.agentModel ?? 'none (name one per seat)'}`,
    `judge: ${judges.length ? judges.join(', ') + (cfg.judgeSamples > 1 ? ` ×${cfg.judgeSamples}` : '') : 'rule judge (no ARENA_JUDGE_MODEL)'}`,
  ].join('; ');
}
