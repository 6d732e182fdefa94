/**
 * Scripted policy contract. A policy sees only its own seat's observation (never the state) plus a
 * seeded rng, and returns at most {@link MAX_SCRIPTED_ACTIONS} actions, applied in order at round close.
 */
import type { ActionInput } from '../actions.js';
import type { Observation } from '../views.js';
import type { PolicyName } from '../types.js';

export const MAX_SCRIPTED_ACTIONS = 4;

export interface PolicyContext {
  /** Deterministic uniform [0, 1) draws for this seat and round. */
  rng: () => number;
  /** Use the holdout parameter set (docs/RULES.md §7.2). */
  holdout: boolean;
}

export type Policy = (obs: Observation, ctx: PolicyContext) => ActionInput[];

export interface PolicyInfo {
  name: PolicyName;
  kind: 'archetype' | 'baseline' | 'probe';
  description: string;
  policy: Policy;
}
