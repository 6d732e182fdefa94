/** Names of the scripted policies (docs/RULES.md §7): archetypes, the original's baselines and do-nothing probes. */

/** Names of scripted policies: the five archetypes, the six baselines and the probes (docs/RULES.md §7). */
export type ArchetypeName = 'cooperative' | 'selfish' | 'deadline_panicked' | 'deceptive' | 'retaliatory';
/** The six baseline policies of the original (docs/RULES.md §7.3, §A.1). */
export type BaselineName =
  | 'random_validish'
  | 'greedy_hoarder'
  | 'always_accept'
  | 'no_negotiation_allocator'
  | 'base_instruct_naive'
  | 'rule_based_expert';
/**
 * Do-nothing probes (docs/RULES.md §7.4): non-negotiating policies that each exercise one reward column;
 * none may beat random_validish.
 */
export type ProbeName =
  'pitch_only' | 'message_only' | 'reserve_only' | 'coalition_only' | 'accept_only_gifts' | 'finish_at_once';
/** Any scripted policy a seat can be given (`MatchConfig.scripted`). */
export type PolicyName = ArchetypeName | BaselineName | ProbeName;
/** Archetypes in seat order of the single-agent wrapper (docs/RULES.md §7–8). */
export const ARCHETYPE_NAMES: readonly ArchetypeName[] = [
  'cooperative',
  'selfish',
  'deadline_panicked',
  'deceptive',
  'retaliatory',
];
/** The original's baselines (docs/RULES.md §7.3), in its table order. */
export const BASELINE_NAMES: readonly BaselineName[] = [
  'random_validish',
  'greedy_hoarder',
  'always_accept',
  'no_negotiation_allocator',
  'base_instruct_naive',
  'rule_based_expert',
];

/** The probes, in table order (docs/RULES.md §7.4). */
export const PROBE_NAMES: readonly ProbeName[] = [
  'pitch_only',
  'message_only',
  'reserve_only',
  'coalition_only',
  'accept_only_gifts',
  'finish_at_once',
];
