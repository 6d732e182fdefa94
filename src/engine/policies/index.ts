/**
 * Registry of the scripted policies (docs/RULES.md §7): the five archetypes, the six baselines and the
 * do-nothing probes (§7.4).
 * `getPolicy(name)` is what the engine calls for scripted seats at round close; `POLICIES` lists them
 * for CLIs and the host.
 */
import {
  ARCHETYPE_NAMES,
  BASELINE_NAMES,
  PROBE_NAMES,
  type ArchetypeName,
  type BaselineName,
  type PolicyName,
  type ProbeName,
} from '../types.js';
import type { Policy, PolicyInfo } from './types.js';
import { archetype } from './archetypes.js';
import { alwaysAccept, baseInstructNaive, greedyHoarder, noNegotiationAllocator } from './baselines.js';
import { ruleBasedExpert } from './expert.js';
import { randomValidish } from './random.js';
import { PROBE_DESCRIPTIONS, PROBES as PROBE_POLICIES } from './probes.js';

export type { Policy, PolicyContext, PolicyInfo } from './types.js';
export { MAX_SCRIPTED_ACTIONS } from './types.js';
export { TRAIN_PARAMS, HOLDOUT_PARAMS, archetypeParams, type ArchetypeParams } from './params.js';

/** Archetypes in seat order of the single-agent wrapper (§8). */
export const ARCHETYPES: readonly ArchetypeName[] = ARCHETYPE_NAMES;

/** The original's baselines (docs/RULES.md §7.3), in its table order. */
export const BASELINES: readonly BaselineName[] = BASELINE_NAMES;

/** Do-nothing probes (§7.4), in table order. */
export const PROBES: readonly ProbeName[] = PROBE_NAMES;

const DESCRIPTIONS: Record<PolicyName, string> = {
  cooperative: 'Accepts offers with gain ≥ −2, offers fair swaps, proposes, joins and honours coalitions.',
  selfish: 'Accepts only gain ≥ 8, quotes a price when asked for a block, never pays into coalitions.',
  deadline_panicked: 'Acceptance threshold falls as its deadlines approach; overpays (+10) for blocks it needs.',
  deceptive:
    'Sends misleading public messages and inflated pitches; joins coalitions and defects when it needs the block.',
  retaliatory: 'Rejects or counters exploitative offers (gain < −5), then refuses that lab’s offers and coalitions.',
  random_validish: 'One random valid-ish action a round from its observation (seeded).',
  greedy_hoarder: 'Never gives blocks away, reserves everything, allocates all eligible blocks to its first job.',
  always_accept: 'Accepts every incoming offer, then allocates greedily.',
  no_negotiation_allocator:
    'Never trades or talks; allocates just enough blocks to complete jobs, earliest deadline first.',
  base_instruct_naive: 'Accepts polite-sounding offers, believes surplus claims, pitches a vague plea every round.',
  rule_based_expert:
    'Positive-gain trades only, buys missing hours fairly, exact allocations, truthful pitches, useful coalitions.',
  ...PROBE_DESCRIPTIONS,
};

const IMPLEMENTATIONS: Record<PolicyName, Policy> = {
  cooperative: archetype('cooperative'),
  selfish: archetype('selfish'),
  deadline_panicked: archetype('deadline_panicked'),
  deceptive: archetype('deceptive'),
  retaliatory: archetype('retaliatory'),
  random_validish: randomValidish,
  greedy_hoarder: greedyHoarder,
  always_accept: alwaysAccept,
  no_negotiation_allocator: noNegotiationAllocator,
  base_instruct_naive: baseInstructNaive,
  rule_based_expert: ruleBasedExpert,
  ...PROBE_POLICIES,
};

/** Every scripted policy with its kind and a one-line description. */
export const POLICIES: readonly PolicyInfo[] = [
  ...ARCHETYPES.map((name): PolicyInfo => ({
    name,
    kind: 'archetype',
    description: DESCRIPTIONS[name],
    policy: IMPLEMENTATIONS[name],
  })),
  ...BASELINES.map((name): PolicyInfo => ({
    name,
    kind: 'baseline',
    description: DESCRIPTIONS[name],
    policy: IMPLEMENTATIONS[name],
  })),
  ...PROBES.map((name): PolicyInfo => ({
    name,
    kind: 'probe',
    description: DESCRIPTIONS[name],
    policy: IMPLEMENTATIONS[name],
  })),
];

const NAMES = new Set<string>(Object.keys(IMPLEMENTATIONS));

/** True if `name` is a scripted policy name. */
export const isPolicyName = (name: string): name is PolicyName => NAMES.has(name);

/** The policy function for `name`. */
export function getPolicy(name: PolicyName): Policy {
  return IMPLEMENTATIONS[name];
}
