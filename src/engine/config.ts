/**
 * Match configuration: what `createMatch` accepts, validated with zod (docs/RULES.md §0–§1).
 */
import { z } from 'zod';
import type { MatchConfig, PolicyName, RulesVersion, Seed } from './types.js';
import { ARCHETYPE_NAMES, BASELINE_NAMES, PROBE_NAMES, TASK_NAMES } from './types.js';
import { labIdsFor } from './world.js';

/** Every scripted policy name: the five archetypes, the six baselines, then the probes (docs/RULES.md §7). */
export const POLICY_NAMES: readonly PolicyName[] = [...ARCHETYPE_NAMES, ...BASELINE_NAMES, ...PROBE_NAMES];

/** The rules new matches play under (docs/RULES.md §0). */
export const CURRENT_RULES: RulesVersion = 4;
/** Every rules version this engine plays: older ones only to replay stored matches. */
export const PLAYABLE_RULES: readonly RulesVersion[] = [3, 4];

/** The rules version of a state (absent in v3 configs). */
export const rulesOf = (s: { config: MatchConfig }): RulesVersion => s.config.rules ?? 3;

/** Whether positions are valued by the best assignment of blocks to jobs (rules v4, docs/RULES.md §3.2). */
export const exactValuation = (s: { config: MatchConfig }): boolean => rulesOf(s) >= 4;

/** A match secret used as the seed: 128 bits as 32 lowercase hex digits ({@link Seed}). */
export const SECRET_SEED = /^[0-9a-f]{32}$/;

/** Whether `x` is a valid {@link Seed}: a safe integer ≥ 0 or a 32-hex-digit secret. */
export const isSeed = (x: unknown): x is Seed =>
  (typeof x === 'number' && Number.isSafeInteger(x) && x >= 0) || (typeof x === 'string' && SECRET_SEED.test(x));

/** Default actions per seat per round before `action_limit` (docs/RULES.md §2). */
export const DEFAULT_MAX_ACTIONS_PER_ROUND = 12;

const TaskSchema = z.enum(TASK_NAMES as [MatchConfig['task'], ...MatchConfig['task'][]]);
const PolicySchema = z.enum(POLICY_NAMES as [PolicyName, ...PolicyName[]]);

/**
 * Config of a match. `scripted` keys must be lab ids of the match's world (`labIdsFor(task, seed)`).
 * - task: 'single_trade' | 'market_round' | 'coalition_market'
 * - seed: integer ≥ 0 (≤ 2^53 − 1); all randomness derives from it
 * - holdout: default false (holdout policy parameters, §7.2)
 * - scripted: seat → policy name, default {}
 * - maxActionsPerRound: integer 1–100, default 12
 * - rules: 3 or 4 (default {@link CURRENT_RULES}); 3 only to replay matches stored under it
 */
export const MatchConfigSchema = z
  .object({
    task: TaskSchema,
    seed: z.union([
      z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
      z.string().regex(SECRET_SEED, '32 lowercase hex digits'),
    ]),
    holdout: z.boolean().default(false),
    scripted: z.record(z.string(), PolicySchema).default({}),
    maxActionsPerRound: z.number().int().min(1).max(100).default(DEFAULT_MAX_ACTIONS_PER_ROUND),
    rules: z.union([z.literal(3), z.literal(4)]).default(CURRENT_RULES),
  })
  .superRefine((cfg, ctx) => {
    const labs = new Set(labIdsFor(cfg.task, cfg.seed));
    for (const lab of Object.keys(cfg.scripted)) {
      if (!labs.has(lab))
        ctx.addIssue({ code: 'custom', path: ['scripted', lab], message: `no seat ${lab} in this match` });
    }
  });

/** What a caller may pass to `createMatch` (defaults omitted). */
export type MatchConfigInput = z.input<typeof MatchConfigSchema>;

const POLICY_SET = new Set<string>(POLICY_NAMES);

/**
 * Frozen `scripted` records already checked, with the seat count they were checked for and their stored
 * form (frozen too): the gym hands every match one of a few shared, frozen default-opponent records, so
 * each is checked once instead of at every reset. A WeakMap keyed by the record: it keeps nothing alive,
 * and it can never change a result, since a frozen record's keys and values cannot change and the stored
 * form depends only on them and the seats (`lab_0` … `lab_<n−1>`: the count names them).
 */
const checkedScripted = new WeakMap<object, { seats: number; out: MatchConfig['scripted'] }>();

/**
 * `scripted` in seat order when it is a plain record of seats of `labs` to policy names, else undefined
 * (the schema decides and produces the error).
 */
function scriptedFast(scripted: object, labs: readonly string[]): MatchConfig['scripted'] | undefined {
  if (Object.getPrototypeOf(scripted) !== Object.prototype) return undefined;
  if (Object.getOwnPropertySymbols(scripted).length > 0) return undefined;
  // Each value read once, in key order; arrays rather than a Map: a match has at most five seats.
  const keys = Object.keys(scripted);
  const values: unknown[] = [];
  for (let i = 0; i < keys.length; i++) values.push((scripted as Record<string, unknown>)[keys[i]!]);
  for (let i = 0; i < keys.length; i++) {
    const v = values[i];
    if (!labs.includes(keys[i]!) || typeof v !== 'string' || !POLICY_SET.has(v)) return undefined;
  }
  const out: MatchConfig['scripted'] = {};
  for (let i = 0; i < labs.length; i++) {
    const k = keys.indexOf(labs[i]!);
    if (k >= 0) out[labs[i]!] = values[k] as PolicyName;
  }
  return out;
}

/**
 * The parsed config when `input` is plainly valid (own plain-data fields, every value in range), else
 * undefined and the schema decides (it also produces the error). Same output as the schema path.
 */
function parseConfigFast(input: unknown): MatchConfig | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const { task, seed, holdout, scripted, maxActionsPerRound, rules } = input as Record<string, unknown>;
  if (rules !== undefined && rules !== 3 && rules !== 4) return undefined;
  if (typeof task !== 'string' || !(TASK_NAMES as readonly string[]).includes(task)) return undefined;
  if (!isSeed(seed)) return undefined;
  if (holdout !== undefined && typeof holdout !== 'boolean') return undefined;
  const maxActions = maxActionsPerRound ?? DEFAULT_MAX_ACTIONS_PER_ROUND;
  if (typeof maxActions !== 'number' || !Number.isSafeInteger(maxActions) || maxActions < 1 || maxActions > 100)
    return undefined;
  let out: MatchConfig['scripted'] | undefined = {};
  if (scripted !== undefined) {
    if (typeof scripted !== 'object' || scripted === null) return undefined;
    const labs = labIdsFor(task as MatchConfig['task'], seed);
    if (Object.isFrozen(scripted)) {
      const hit = checkedScripted.get(scripted);
      if (hit !== undefined && hit.seats === labs.length) out = hit.out;
      else {
        out = scriptedFast(scripted, labs);
        if (out === undefined) return undefined;
        checkedScripted.set(scripted, { seats: labs.length, out: Object.freeze(out) });
      }
    } else out = scriptedFast(scripted, labs);
    if (out === undefined) return undefined;
  }
  return withRules(
    {
      task: task as MatchConfig['task'],
      seed,
      holdout: holdout ?? false,
      scripted: out,
      maxActionsPerRound: maxActions,
    },
    rules ?? CURRENT_RULES,
  );
}

/** `cfg` with its rules version: stored from v4 on, absent for v3 (whose states keep their exact JSON). */
function withRules(cfg: MatchConfig, rules: RulesVersion): MatchConfig {
  if (rules !== 3) cfg.rules = rules;
  return cfg;
}

/** Parse a config; throws a ZodError when invalid. Scripted seats are stored in seat order. */
export function parseConfig(input: MatchConfigInput): MatchConfig {
  const fast = parseConfigFast(input);
  if (fast) return fast;
  const cfg = MatchConfigSchema.parse(input);
  const scripted: MatchConfig['scripted'] = {};
  for (const lab of labIdsFor(cfg.task, cfg.seed)) {
    const p = cfg.scripted[lab];
    if (p !== undefined) scripted[lab] = p;
  }
  return withRules(
    { task: cfg.task, seed: cfg.seed, holdout: cfg.holdout, scripted, maxActionsPerRound: cfg.maxActionsPerRound },
    cfg.rules,
  );
}
