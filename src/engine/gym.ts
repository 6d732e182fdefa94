/**
 * Single-agent wrapper (docs/RULES.md §8): one controlled seat, every other seat scripted. With
 * `actionsPerRound = 1` (default) each `step` is one action followed by a round close, as in the
 * reference (one action = one round). `wait` always closes the round. The step's reward is the seat's
 * step reward plus its round-close reward, so Σ step rewards = the seat's cumulative reward.
 */
import { z } from 'zod';
import { applyAction, closeRound, createMatch, labIdsFor, observe } from './index.js';
import { addBreakdowns, emptyBreakdown } from './reward.js';
import type { ArchetypeName, LabId, MatchState, PolicyName, RewardBreakdown, TaskName } from './types.js';
import { TASK_NAMES } from './types.js';
import type { Observation, RoundReport } from './views.js';
import { ARCHETYPES } from './policies/index.js';
import { POLICY_NAMES } from './config.js';
import { visiblePitchBonus } from './pitch-bonus.js';

const PolicyNameSchema = z.enum(POLICY_NAMES as [PolicyName, ...PolicyName[]]);

/** Options of {@link ArenaEnv.reset} (zod-parsed; unknown keys stripped). */
export const ResetOptionsSchema = z.object({
  task: z.enum(TASK_NAMES as [TaskName, ...TaskName[]]),
  seed: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  /** Controlled seat (default lab_0). */
  seat: z.string().default('lab_0'),
  /** Policies of the other seats: in seat order (skipping the controlled seat) or by lab id. Default: {@link defaultOpponents}. */
  opponents: z.union([z.array(PolicyNameSchema), z.record(z.string(), PolicyNameSchema)]).optional(),
  /** Holdout archetype parameters (§7.2). */
  holdout: z.boolean().default(false),
  /** Actions of the controlled seat per round before the round closes by itself (1–12, default 1). */
  actionsPerRound: z.number().int().min(1).max(12).default(1),
});
export type ResetOptions = z.input<typeof ResetOptionsSchema>;

/**
 * Archetypes of the other seats, in seat order skipping the controlled seat (docs/RULES.md §8): the list
 * cooperative, selfish, deadline_panicked, deceptive, retaliatory rotated by `seed mod 5`, so every
 * archetype meets the controlled seat across seeds; in hard tasks (coalition_market) the last opponent
 * is retaliatory when the rotation leaves it out (the original never instantiated it: docs/RULES.md §A.2 D16).
 */
export function defaultOpponents(task: TaskName, seed: number, seat: LabId): Record<LabId, ArchetypeName> {
  const others = labIdsFor(task, seed).filter((l) => l !== seat);
  const names = others.map((_, k) => ARCHETYPES[(seed + k) % ARCHETYPES.length]!);
  if (task === 'coalition_market' && !names.includes('retaliatory') && names.length > 0)
    names[names.length - 1] = 'retaliatory';
  return Object.fromEntries(others.map((l, k) => [l, names[k]!]));
}

type ParsedReset = z.output<typeof ResetOptionsSchema>;

/**
 * {@link defaultOpponents} frozen and shared, by everything it depends on: task, seat count, seat (its
 * position among the seats) and seed mod 5 (a bounded memo of a pure function), under one number so that
 * a reset builds no key string. `reset` passes it to createMatch, which keeps it (parseConfig).
 */
const defaultMemo = new Map<number, Readonly<Record<LabId, ArchetypeName>>>();
function sharedDefaultOpponents(
  task: TaskName,
  seed: number,
  seat: LabId,
  labs: readonly LabId[],
): Readonly<Record<LabId, ArchetypeName>> {
  const key =
    ((TASK_NAMES.indexOf(task) * 64 + labs.length) * 64 + labs.indexOf(seat)) * ARCHETYPES.length +
    (seed % ARCHETYPES.length);
  let v = defaultMemo.get(key);
  if (v === undefined) {
    if (defaultMemo.size >= 256) defaultMemo.clear();
    defaultMemo.set(key, (v = Object.freeze(defaultOpponents(task, seed, seat))));
  }
  return v;
}

/**
 * Policies of the scripted seats when `controlled` seats are played from outside (the gym's one seat, or
 * several in self-play): {@link defaultOpponents} of the first controlled seat, overridden by `opponents`
 * (a list in order of the other seats, repeated, or a map by lab id); controlled seats are never scripted.
 */
export function scriptedSeats(
  task: TaskName,
  seed: number,
  controlled: readonly LabId[],
  opponents?: readonly PolicyName[] | Record<LabId, PolicyName>,
): Record<LabId, PolicyName> {
  const others = labIdsFor(task, seed).filter((l) => !controlled.includes(l));
  let scripted: Record<LabId, PolicyName> = defaultOpponents(task, seed, controlled[0] ?? 'lab_0');
  if (Array.isArray(opponents)) {
    const list = opponents as readonly PolicyName[];
    if (list.length > 0) scripted = Object.fromEntries(others.map((l, k) => [l, list[k % list.length]!]));
  } else if (opponents) scripted = { ...scripted, ...(opponents as Record<LabId, PolicyName>) };
  for (const seat of controlled) delete scripted[seat];
  return scripted;
}

/**
 * The parsed options when they are plainly valid and name no opponents (the common call), else
 * undefined and the schema decides. Same fields and defaults as the schema.
 */
function parseResetFast(options: unknown): ParsedReset | undefined {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return undefined;
  const { task, seed, seat, opponents, holdout, actionsPerRound } = options as Record<string, unknown>;
  if (typeof task !== 'string' || !(TASK_NAMES as readonly string[]).includes(task)) return undefined;
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0) return undefined;
  if ((seat !== undefined && typeof seat !== 'string') || opponents !== undefined) return undefined;
  if (holdout !== undefined && typeof holdout !== 'boolean') return undefined;
  const perRound = actionsPerRound ?? 1;
  if (typeof perRound !== 'number' || !Number.isSafeInteger(perRound) || perRound < 1 || perRound > 12)
    return undefined;
  return { task: task as TaskName, seed, seat: seat ?? 'lab_0', holdout: holdout ?? false, actionsPerRound: perRound };
}

/** What a step reports besides the reward. */
export interface StepInfo {
  ok: boolean;
  /** Result code of the action (codes.ts), or 'round_closed' for {@link ArenaEnv.endRound}. */
  code: string;
  message: string;
  /** This step closed the round. */
  closed: boolean;
  /** The round-close report (null when the round stays open). */
  report: RoundReport | null;
  /** Round after the step (0-based). */
  round: number;
  cumulativeReward: number;
  invalidActions: number;
}

export interface StepResult {
  observation: Observation;
  /** Step reward + round-close reward (normalized, docs/RULES.md §4). */
  reward: number;
  /** Column-wise sum of the step and close breakdowns. */
  breakdown: RewardBreakdown;
  /** The match is over or the controlled seat finished. */
  done: boolean;
  info: StepInfo;
}

/** Gym-style environment over the pure engine. Not thread-safe; one match at a time. */
export class ArenaEnv {
  private s: MatchState | null = null;
  private lab: LabId = 'lab_0';
  private perRound = 1;

  /** Start a match; throws a ZodError on invalid options or an unknown seat. */
  reset(options: ResetOptions): Observation {
    const o = parseResetFast(options) ?? ResetOptionsSchema.parse(options);
    const labs = labIdsFor(o.task, o.seed);
    if (!labs.includes(o.seat))
      throw new Error(`reset: no seat ${o.seat} in ${o.task} seed ${o.seed} (seats: ${labs.join(', ')})`);
    // Without opponents, scriptedSeats is defaultOpponents of the seat (which it never contains).
    const scripted =
      o.opponents === undefined
        ? sharedDefaultOpponents(o.task, o.seed, o.seat, labs)
        : scriptedSeats(o.task, o.seed, [o.seat], o.opponents);
    this.s = createMatch({
      task: o.task,
      seed: o.seed,
      holdout: o.holdout,
      scripted,
      maxActionsPerRound: Math.max(12, o.actionsPerRound),
    });
    this.lab = o.seat;
    this.perRound = o.actionsPerRound;
    return observe(this.s, this.lab);
  }

  /** The current engine state (throws before reset). */
  get state(): MatchState {
    if (!this.s) throw new Error('ArenaEnv: call reset() first');
    return this.s;
  }

  get seat(): LabId {
    return this.lab;
  }

  get done(): boolean {
    const s = this.state;
    return s.over || s.labs[this.lab]!.finished;
  }

  observation(): Observation {
    return observe(this.state, this.lab);
  }

  /**
   * Apply one action of the controlled seat (object or JSON text; never throws for a bad action), then
   * close the round if it was `wait` or the seat used its `actionsPerRound`.
   */
  step(action: unknown): StepResult {
    const before = this.state;
    const { state, result } = applyAction(before, this.lab, action);
    this.s = state;
    const seat = state.seats[this.lab]!;
    const finished = state.labs[this.lab]!.finished;
    const close = !state.over && !finished && (result.code === 'waited' || seat.actionsThisRound >= this.perRound);
    const info = { ok: result.ok, code: result.code, message: result.message };
    return close ? this.close(result.reward, info) : this.result(result.reward, info, null);
  }

  /** Close the round now without an action (for callers that take several actions a round). */
  endRound(): StepResult {
    if (this.done)
      return this.result(emptyBreakdown(), { ok: false, code: 'match_over', message: 'the episode is done' }, null);
    return this.close(emptyBreakdown(), { ok: true, code: 'round_closed', message: 'round closed' });
  }

  private close(stepReward: RewardBreakdown, info: { ok: boolean; code: string; message: string }): StepResult {
    const { state, report } = closeRound(this.state);
    this.s = state;
    return this.result(
      addBreakdowns(stepReward, report.rewards[this.lab] ?? emptyBreakdown()),
      info,
      seatReport(report, this.lab),
    );
  }

  private result(
    breakdown: RewardBreakdown,
    info: { ok: boolean; code: string; message: string },
    report: RoundReport | null,
  ): StepResult {
    const s = this.state;
    const seat = s.seats[this.lab]!;
    return {
      observation: observe(s, this.lab),
      reward: breakdown.normalized_reward,
      breakdown,
      done: s.over || s.labs[this.lab]!.finished,
      // Written out: adding keys to a spread copy makes a slow dictionary-mode object in V8.
      info: {
        ok: info.ok,
        code: info.code,
        message: info.message,
        closed: report !== null,
        report,
        round: s.round,
        cumulativeReward: seat.cumulativeReward,
        invalidActions: seat.invalidActions,
      },
    };
  }
}

/** A seat's own scripted step, without the reward entries it gave other seats. */
function ownStep(a: RoundReport['scriptedActions'][number], lab: LabId): RoundReport['scriptedActions'][number] {
  if (a.entries === undefined) return a;
  const mine = a.entries.filter((e) => e.lab === lab);
  const { entries: _all, ...rest } = a;
  return mine.length > 0 ? { ...rest, entries: mine } : rest;
}

/** The keys every round report starts with, in order (round-close.ts writes them so). */
const REPORT_KEYS = [
  'round',
  'scriptedActions',
  'trades',
  'judge',
  'shocks',
  'settlements',
  'coalitions',
  'rewards',
  'leaderboard',
  'final',
];

/**
 * Which of the round close's report shapes `r` has (round-close.ts): its keys are REPORT_KEYS in order,
 * then 1: pitchBonus, entries; 2: those and deadOffers; 3: pitchBonus, arrivals, entries; 4: those and
 * deadOffers; 5: nothing more (a match already over). 0: any other keys.
 */
function reportShape(r: RoundReport): 0 | 1 | 2 | 3 | 4 | 5 {
  const n = REPORT_KEYS.length;
  let i = 0;
  let tail = 0;
  for (const k in r) {
    if (i < n) {
      if (k !== REPORT_KEYS[i]) return 0;
    } else if (i === n) {
      if (k !== 'pitchBonus') return 0;
    } else if (i === n + 1) {
      if (k === 'entries') tail = 1;
      else if (k === 'arrivals') tail = 3;
      else return 0;
    } else if (i === n + 2) {
      if (!(tail === 1 ? k === 'deadOffers' : k === 'entries')) return 0;
      if (tail === 1) tail = 2;
    } else if (i === n + 3) {
      if (tail !== 3 || k !== 'deadOffers') return 0;
      tail = 4;
    } else return 0;
    i++;
  }
  if (i === n) return 5;
  return (tail === 1 && i === n + 2) ||
    (tail === 2 && i === n + 3) ||
    (tail === 3 && i === n + 3) ||
    (tail === 4 && i === n + 4)
    ? (tail as 1 | 2 | 3 | 4)
    : 0;
}

/**
 * The round report as the controlled seat may see it: other seats' actions by type and code only (their
 * result messages name private values), only its own reward breakdown, and of other seats' pitch
 * bonuses only what the channel may see (visiblePitchBonus), and only its own reward entries.
 *
 * The same keys in the same order as `{ ...report, scriptedActions, rewards, entries, pitchBonus }`
 * (each of the last two only when the report has it): written as one literal per report shape of the
 * round close, because a spread of a report (five shapes, a dozen keys) takes V8's slow generic copy;
 * a report of any other shape is spread.
 */
export function seatReport(report: RoundReport, lab: LabId): RoundReport {
  const own = report.rewards[lab];
  const scriptedActions = report.scriptedActions.map((a) =>
    a.lab === lab ? ownStep(a, lab) : { lab: a.lab, action_type: a.action_type, ok: a.ok, code: a.code, message: '' },
  );
  const rewards = own ? { [lab]: own } : {};
  const shape = reportShape(report);
  if (shape === 0) {
    return {
      ...report,
      scriptedActions,
      rewards,
      ...(report.entries ? { entries: report.entries.filter((e) => e.lab === lab) } : {}),
      ...(report.pitchBonus ? { pitchBonus: visiblePitchBonus(report.pitchBonus, lab) } : {}),
    };
  }
  const { round, trades, judge, shocks, settlements, coalitions, leaderboard, final } = report;
  if (shape === 5)
    return { round, scriptedActions, trades, judge, shocks, settlements, coalitions, rewards, leaderboard, final };
  // Shapes 1–4 carry pitchBonus and entries; a falsy one stays as it is, as in the spread.
  const pitchBonus = report.pitchBonus ? visiblePitchBonus(report.pitchBonus, lab) : report.pitchBonus;
  const entries = report.entries ? report.entries.filter((e) => e.lab === lab) : report.entries;
  const { arrivals, deadOffers } = report;
  switch (shape) {
    case 1:
      return {
        round,
        scriptedActions,
        trades,
        judge,
        shocks,
        settlements,
        coalitions,
        rewards,
        leaderboard,
        final,
        pitchBonus,
        entries,
      };
    case 2:
      return {
        round,
        scriptedActions,
        trades,
        judge,
        shocks,
        settlements,
        coalitions,
        rewards,
        leaderboard,
        final,
        pitchBonus,
        entries,
        deadOffers,
      };
    case 3:
      return {
        round,
        scriptedActions,
        trades,
        judge,
        shocks,
        settlements,
        coalitions,
        rewards,
        leaderboard,
        final,
        pitchBonus,
        arrivals,
        entries,
      };
    default:
      return {
        round,
        scriptedActions,
        trades,
        judge,
        shocks,
        settlements,
        coalitions,
        rewards,
        leaderboard,
        final,
        pitchBonus,
        arrivals,
        entries,
        deadOffers,
      };
  }
}
