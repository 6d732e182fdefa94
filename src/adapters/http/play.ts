/**
 * The two kinds of session behind the HTTP API:
 * - {@link SingleSeatPlay}: one controlled seat, every other seat scripted — the gym (src/engine/gym.ts),
 *   so the same seed and actions give exactly the in-process rewards.
 * - {@link SelfPlay}: several seats driven over HTTP (each with its own token), the rest scripted. A seat
 *   is done for the round when it waited, finished or used `actions_per_round` actions; the round closes
 *   (engine closeRound) when every listed seat that has not finished is done. A seat's round-close reward
 *   reaches it with its next response, so the sum of the rewards a seat receives is its cumulative reward.
 * Both are synchronous; the session store serialises calls per session. Each answers in its session's
 * format: `native` (ours plus the original's top-level names, original-compat.ts) or `original` (the
 * original's exact shapes, original-format.ts). A self-play seat's `task_id` carries no seed until the
 * match is over: the seed derives every private value of the world.
 */
import { ArenaEnv, scriptedSeats, seatReport } from '../../engine/gym.js';
import {
  addBreakdowns,
  applyAction,
  closeRound,
  createMatch,
  emptyBreakdown,
  labIdsFor,
  observe,
} from '../../engine/index.js';
import type { LabId, MatchState, PolicyName, RewardBreakdown, TaskName } from '../../engine/types.js';
import type { RoundReport } from '../../engine/views.js';
import { ApiError } from './errors.js';
import { boundaryAction } from './actions.js';
import { withOriginalFields, type HttpObservation } from './original-compat.js';
import {
  originalObservation,
  originalPublicState,
  type OriginalObservation,
  type OriginalPublicState,
} from './original-format.js';

/** How a session's answers are shaped. */
export type ObservationFormat = 'native' | 'original';

/** Settings of a session, fixed at reset. */
export interface PlaySettings {
  task: TaskName;
  seed: number;
  holdout: boolean;
  actionsPerRound: number;
  invalidActions: 'reject' | 'penalize';
  /** Echo of the original's judge_mode (the rule judge runs anyway). */
  judgeMode: 'off' | 'rule' | null;
  opponents?: PolicyName[] | Record<string, PolicyName>;
  /** Shape of the observations (default native). */
  format?: ObservationFormat;
}

/** `info` of a step response: the action's result and the reward breakdown (private to the seat). */
export interface StepInfo {
  ok: boolean;
  code: string;
  message: string;
  seat: LabId;
  /** Round after the step (0-based). */
  round: number;
  /** A round closed since this seat's previous response. */
  closed: boolean;
  /** Reports of the rounds closed since then, as this seat may see them (gym seatReport). */
  reports: RoundReport[];
  reward_breakdown: RewardBreakdown;
  cumulative_reward: number;
  invalid_actions: number;
  /** Original action fields that have no counterpart here (e.g. `conditions`). */
  ignored_fields: string[];
  /** Self-play: listed seats the round still waits for. */
  waiting_for?: LabId[];
}

/** An observation in either format. */
export type AnyObservation = HttpObservation | OriginalObservation;

/** The original's `{observation, reward, done, info}` (docs/RULES.md §A.1), reward = step + round-close reward. */
export interface StepResponse {
  observation: AnyObservation;
  reward: number;
  done: boolean;
  info: StepInfo;
}

/** An action's result as the original's `last_action_result` (docs/RULES.md §A.1). */
type LastResult = { ok: boolean; code: string; message: string } | null;

/** What a seat may be told of its task: `<task>-<seed>`, or (`hideSeed` before the end) `<task>`. */
function taskIdOf(s: MatchState, hideSeed: boolean): string {
  return hideSeed && !s.over ? s.config.task : `${s.config.task}-${s.config.seed}`;
}

function httpObservation(
  format: ObservationFormat,
  s: MatchState,
  lab: LabId,
  hideSeed: boolean,
  last: LastResult,
  reward: number,
  breakdown: RewardBreakdown,
  done: boolean,
): AnyObservation {
  const taskId = taskIdOf(s, hideSeed);
  if (format === 'original') return originalObservation(s, lab, { taskId, last, reward, breakdown, done });
  return withOriginalFields(observe(s, lab), taskId, last, { reward, breakdown, done });
}

/** The seat's view between steps (reset, GET /state): its last breakdown and result. */
function viewOf(
  format: ObservationFormat,
  s: MatchState,
  lab: LabId,
  hideSeed: boolean,
  last: LastResult,
  done: boolean,
): AnyObservation {
  const b = s.seats[lab]!.lastBreakdown;
  return httpObservation(format, s, lab, hideSeed, last, b.normalized_reward, b, done);
}

/** Refuse an unknown seat with the seats of the world. */
function checkSeat(task: TaskName, seed: number, seat: LabId): void {
  const labs = labIdsFor(task, seed);
  if (!labs.includes(seat))
    throw new ApiError(422, 'unknown_seat', `no seat ${seat} in ${task} seed ${seed} (seats: ${labs.join(', ')})`);
}

/** One controlled seat over the gym. */
export class SingleSeatPlay {
  readonly kind = 'single';
  private readonly env = new ArenaEnv();
  private last: LastResult = null;

  constructor(
    readonly settings: PlaySettings,
    readonly seat: LabId,
  ) {
    checkSeat(settings.task, settings.seed, seat);
    this.env.reset({
      task: settings.task,
      seed: settings.seed,
      seat,
      holdout: settings.holdout,
      actionsPerRound: settings.actionsPerRound,
      opponents: settings.opponents,
    });
  }

  /** The full engine state (debug `GET /state?include_private=true` only: every seat's secrets). */
  get state(): MatchState {
    return this.env.state;
  }

  get format(): ObservationFormat {
    return this.settings.format ?? 'native';
  }

  /** The controlled seat's view with its last result and breakdown (reset, `GET /state` native). */
  observation(): AnyObservation {
    return viewOf(this.format, this.env.state, this.seat, false, this.last, this.env.done);
  }

  /** `GET /state` of an original-format session: the original's public state. */
  publicState(): OriginalPublicState {
    return originalPublicState(this.env.state, this.seat, {
      taskId: taskIdOf(this.env.state, false),
      judgeMode: this.settings.judgeMode ?? 'off',
      last: this.last,
      done: this.env.done,
    });
  }

  /** One action (throws ApiError for a refused action in reject mode; the session is then unchanged). */
  step(raw: unknown): StepResponse {
    const { action, ignored } = boundaryAction(raw, this.settings.invalidActions);
    const r = this.env.step(action);
    const info: StepInfo = {
      ok: r.info.ok,
      code: r.info.code,
      message: r.info.message,
      seat: this.seat,
      round: r.info.round,
      closed: r.info.closed,
      reports: r.info.report ? [r.info.report] : [],
      reward_breakdown: r.breakdown,
      cumulative_reward: r.info.cumulativeReward,
      invalid_actions: r.info.invalidActions,
      ignored_fields: ignored,
    };
    this.last = { ok: info.ok, code: info.code, message: info.message };
    return {
      observation: httpObservation(
        this.format,
        this.env.state,
        this.seat,
        false,
        this.last,
        r.reward,
        r.breakdown,
        r.done,
      ),
      reward: r.reward,
      done: r.done,
      info,
    };
  }
}

/** Several seats over HTTP (self-play), the rest scripted. */
export class SelfPlay {
  readonly kind = 'self_play';
  private s: MatchState;
  private readonly doneThisRound = new Set<LabId>();
  /** Per seat: round-close rewards and reports not yet delivered. */
  private readonly pending = new Map<LabId, { breakdown: RewardBreakdown; reports: RoundReport[] }>();
  private readonly last = new Map<LabId, LastResult>();

  constructor(
    readonly settings: PlaySettings,
    readonly seats: LabId[],
  ) {
    if (new Set(seats).size !== seats.length)
      throw new ApiError(422, 'unknown_seat', `seats lists a seat twice: ${seats.join(', ')}`);
    for (const seat of seats) checkSeat(settings.task, settings.seed, seat);
    const scripted = scriptedSeats(settings.task, settings.seed, seats, settings.opponents);
    this.s = createMatch({
      task: settings.task,
      seed: settings.seed,
      holdout: settings.holdout,
      scripted,
      maxActionsPerRound: Math.max(12, settings.actionsPerRound),
    });
    for (const seat of seats) this.pending.set(seat, { breakdown: emptyBreakdown(), reports: [] });
  }

  /** The full engine state (debug `GET /state?include_private=true` only: every seat's secrets). */
  get state(): MatchState {
    return this.s;
  }

  private isDone(seat: LabId): boolean {
    return this.s.over || this.s.labs[seat]!.finished;
  }

  /** Listed seats the round still waits for. */
  waitingFor(): LabId[] {
    if (this.s.over) return [];
    return this.seats.filter((l) => !this.s.labs[l]!.finished && !this.doneThisRound.has(l));
  }

  get format(): ObservationFormat {
    return this.settings.format ?? 'native';
  }

  /** `seat`'s view with its last result and breakdown (reset, `GET /state?token=…`); no seed before the end. */
  observation(seat: LabId): AnyObservation {
    return viewOf(this.format, this.s, seat, true, this.last.get(seat) ?? null, this.isDone(seat));
  }

  /** One action of `seat` (a 409 `seat_waiting` if it is done for this round and others are not). */
  step(seat: LabId, raw: unknown): StepResponse {
    if (!this.isDone(seat) && this.doneThisRound.has(seat)) {
      throw new ApiError(
        409,
        'seat_waiting',
        `${seat} is done for round ${this.s.round}; the round closes when ${this.waitingFor().join(', ')} act(s) or wait(s)`,
      );
    }
    const { action, ignored } = boundaryAction(raw, this.settings.invalidActions);
    const { state, result } = applyAction(this.s, seat, action);
    this.s = state;
    const finished = state.labs[seat]!.finished;
    if (
      !state.over &&
      !finished &&
      (result.code === 'waited' || state.seats[seat]!.actionsThisRound >= this.settings.actionsPerRound)
    )
      this.doneThisRound.add(seat);
    const open = this.seats.filter((l) => !this.s.labs[l]!.finished);
    if (!this.s.over && open.length > 0 && open.every((l) => this.doneThisRound.has(l))) this.close();
    const mine = this.pending.get(seat)!;
    this.pending.set(seat, { breakdown: emptyBreakdown(), reports: [] });
    const breakdown = addBreakdowns(result.reward, mine.breakdown);
    const done = this.isDone(seat);
    const info: StepInfo = {
      ok: result.ok,
      code: result.code,
      message: result.message,
      seat,
      round: this.s.round,
      closed: mine.reports.length > 0,
      reports: mine.reports,
      reward_breakdown: breakdown,
      cumulative_reward: this.s.seats[seat]!.cumulativeReward,
      invalid_actions: this.s.seats[seat]!.invalidActions,
      ignored_fields: ignored,
      waiting_for: this.waitingFor(),
    };
    const last = { ok: info.ok, code: info.code, message: info.message };
    this.last.set(seat, last);
    return {
      observation: httpObservation(this.format, this.s, seat, true, last, breakdown.normalized_reward, breakdown, done),
      reward: breakdown.normalized_reward,
      done,
      info,
    };
  }

  private close(): void {
    const { state, report } = closeRound(this.s);
    this.s = state;
    this.doneThisRound.clear();
    for (const seat of this.seats) {
      const p = this.pending.get(seat)!;
      this.pending.set(seat, {
        breakdown: addBreakdowns(p.breakdown, report.rewards[seat] ?? emptyBreakdown()),
        reports: [...p.reports, seatReport(report, seat)],
      });
    }
  }
}

/** Either kind of session. */
export type Play = SingleSeatPlay | SelfPlay;
