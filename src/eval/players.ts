/**
 * Names the eval CLI accepts for the evaluated player: any scripted policy (src/engine/policies), or
 * `<kind>:<spec>` (e.g. `llm:gpt-4o-mini`) resolved by a registered {@link AgentFactory}. The LLM
 * helper registers its factory from a plugin module (`--plugin`, see src/cli/eval.ts); nothing here knows
 * about models.
 */
import type { AgentFactory } from '../agents/seat.js';
import type { SeatDriver } from '../match/types.js';
import { getPolicy, isPolicyName } from '../engine/policies/index.js';
import type { EvalPlayer } from './runner.js';

const factories: AgentFactory[] = [];

/** Register a factory for `<kind>:<spec>` players (`llm:<model>` → driver `{ kind: 'llm', model }`). */
export function registerAgentFactory(factory: AgentFactory): void {
  factories.push(factory);
}

/** Forget every registered factory (tests). */
export function clearAgentFactories(): void {
  factories.length = 0;
}

/** Result of {@link resolvePlayer}: the player, or `unknown_policy` / `no_agent_factory`. */
export type ResolveResult =
  { ok: true; player: EvalPlayer } | { ok: false; code: 'unknown_policy' | 'no_agent_factory'; message: string };

/** Resolve a player name. Errors are values: `unknown_policy`, `no_agent_factory`. */
export function resolvePlayer(name: string): ResolveResult {
  if (isPolicyName(name)) return { ok: true, player: { name, kind: 'policy', policy: getPolicy(name) } };
  const m = /^llm:(.+)$/.exec(name);
  if (!m) return { ok: false, code: 'unknown_policy', message: `unknown policy ${name}` };
  const driver: SeatDriver = { kind: 'llm', model: m[1]! };
  for (const f of factories) {
    const agent = f(driver);
    if (agent) return { ok: true, player: { name, kind: 'agent', agent } };
  }
  return { ok: false, code: 'no_agent_factory', message: `no agent factory handles ${name} (load one with --plugin)` };
}
