/**
 * applyAction (docs/RULES.md §0, §3): parse, common checks, dispatch to the handler, spam control,
 * reward and seat bookkeeping. Never throws; never mutates its input.
 */
import type { ActionResult, LabId, MatchState, RewardBreakdown } from './types.js';
import type { Action } from './actions.js';
import { ActionSchema } from './actions.js';
import { parseActionFast } from './parse-action.js';
import { fingerprintOf } from './fingerprint.js';
import type { ErrorCode } from './codes.js';
import { Draft } from './mut.js';
import type { RewardSink } from './mut.js';
import {
  addBreakdowns,
  addToColumn,
  CUMULATIVE_MAX,
  CUMULATIVE_MIN,
  emptyBreakdown,
  INVALID_PENALTY,
  isZeroBreakdown,
  MALFORMED_PENALTY,
  normalize,
  SPAM_PENALTY,
} from './reward.js';
import type { RewardColumn } from './reward.js';
import type { RewardEntry, RewardSource } from './types.js';
import { clamp, round4 } from './util.js';
import type { Ctx, Outcome } from './handlers/common.js';
import { acceptOffer, counterOffer, rejectOffer, sendOffer } from './handlers/offers.js';
import { counterPitch, makePitch } from './handlers/pitches.js';
import { releaseCapacity, reserveCapacity } from './handlers/capacity.js';
import { commitToCoalition, formCoalition } from './handlers/coalitions.js';
import { allocateToJob } from './handlers/allocate.js';
import { finish, sendMessage, wait } from './handlers/misc.js';
import { bid } from './handlers/auction.js';

export { fingerprintOf } from './fingerprint.js';

/** Reputation lost per penalised invalid action (docs/RULES.md §0). */
export const INVALID_REPUTATION = -0.01;

export interface StepOutput {
  state: MatchState;
  result: ActionResult;
}

/**
 * A step's handler context (Ctx) that is also its reward sink: the actor's rewards go into its step
 * breakdown, other seats' into their pending reward. One object per step instead of two.
 */
class StepCtx implements Ctx, RewardSink {
  readonly sink: RewardSink;
  readonly created: NonNullable<ActionResult['created']> = {};
  constructor(
    readonly d: Draft,
    readonly lab: LabId,
    readonly reward: RewardBreakdown,
  ) {
    this.sink = this;
  }
  /** What this step added to any seat's reward, with its source (null until the first addition). */
  entries: RewardEntry[] | null = null;
  add(lab: LabId, col: RewardColumn, v: number, source: RewardSource): void {
    if (lab === this.lab) addToColumn(this.reward, col, v);
    else this.d.addPending(lab, col, v);
    (this.entries ??= []).push({ lab, column: col, value: v, source });
  }
}

/** Actions judged for spam by repeated text instead of by fingerprint. */
const isTextAction = (type: Action['action_type']): boolean =>
  type === 'send_message' || type === 'make_pitch' || type === 'counter_pitch';

function dispatch(ctx: Ctx, a: Action): Outcome {
  switch (a.action_type) {
    case 'send_offer':
      return sendOffer(ctx, a);
    case 'accept_offer':
      return acceptOffer(ctx, a);
    case 'reject_offer':
      return rejectOffer(ctx, a);
    case 'counter_offer':
      return counterOffer(ctx, a);
    case 'make_pitch':
      return makePitch(ctx, a);
    case 'counter_pitch':
      return counterPitch(ctx, a);
    case 'reserve_capacity':
      return reserveCapacity(ctx, a);
    case 'release_capacity':
      return releaseCapacity(ctx, a);
    case 'form_coalition':
      return formCoalition(ctx, a);
    case 'commit_to_coalition':
      return commitToCoalition(ctx, a);
    case 'allocate_to_job':
      return allocateToJob(ctx, a);
    case 'send_message':
      return sendMessage(ctx, a);
    case 'wait':
      return wait();
    case 'finish':
      return finish(ctx);
    case 'bid':
      return bid(ctx, a);
  }
}

/** A rejected call that changes nothing and earns nothing (unknown seat, match over, seat finished). */
function refuse(state: MatchState, code: ErrorCode, message: string): StepOutput {
  return { state, result: { ok: false, code, message, reward: emptyBreakdown() } };
}

/** The seat's previous message/pitch text, for the repeated-text spam rule. */
function previousText(s: MatchState, lab: LabId): string | null {
  for (let i = s.messages.length - 1; i >= 0; i--) {
    const m = s.messages[i]!;
    if (m.from === lab && m.kind !== 'offer') return m.text;
  }
  return null;
}

/** Write the step's reward and bookkeeping into the seat's stats; returns the final breakdown. */
function settleStep(
  d: Draft,
  lab: LabId,
  raw: RewardBreakdown,
  valid: boolean,
  fingerprint: string | null,
): RewardBreakdown {
  // normalize() of an all-zero breakdown rounds nothing and sums to 0: `raw` (this step's own object) is
  // that breakdown already (normalized_reward, still 0, is set below).
  const b = isZeroBreakdown(raw) ? raw : normalize(raw);
  const seat = d.seat(lab);
  const cumulative0 = seat.cumulativeReward;
  const cumulative = round4(clamp(cumulative0 + b.normalized_reward, CUMULATIVE_MIN, CUMULATIVE_MAX));
  b.normalized_reward = round4(cumulative - cumulative0);
  seat.cumulativeReward = cumulative;
  seat.roundReward = addBreakdowns(seat.roundReward, b);
  seat.lastBreakdown = b;
  seat.actionsThisRound += 1;
  seat.steps += 1;
  if (!valid) seat.invalidActions += 1;
  if (fingerprint !== null) {
    const prev = seat.recentFingerprints;
    const n = prev.length;
    seat.recentFingerprints =
      n >= 2 ? [prev[n - 2]!, prev[n - 1]!, fingerprint] : n === 1 ? [prev[0]!, fingerprint] : [fingerprint];
  }
  if (b.invalid_action_penalty < 0) {
    const l = d.lab(lab);
    l.reputation = round4(clamp(l.reputation + INVALID_REPUTATION, 0, 1));
  }
  return b;
}

/** Penalise a step that never reached a handler (malformed, over the action limit) on draft `d`. */
function penalised(d: Draft, lab: LabId, code: ErrorCode, message: string, penalty: number): StepOutput {
  const raw = emptyBreakdown();
  raw.invalid_action_penalty = penalty;
  const reward = settleStep(d, lab, raw, false, null);
  return { state: d.s, result: { ok: false, code, message, reward } };
}

/** The parsed action, or the malformed_action message (a string). */
function parse(raw: unknown): Action | string {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return 'not valid JSON';
    }
  }
  // Plainly valid input skips zod's machinery with the same result; everything else goes to the schema.
  const fast = parseActionFast(value);
  if (fast !== undefined) return fast;
  let r: ReturnType<typeof ActionSchema.safeParse>;
  try {
    r = ActionSchema.safeParse(value);
  } catch {
    // A hostile object (throwing getter, revoked proxy) is malformed input, never an engine crash.
    return 'unreadable action object';
  }
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  return issue ? `${issue.path.join('.') || 'action'}: ${issue.message}` : 'invalid action';
}

/** The refusal of a step by a seat that cannot act in `s` (unknown, match over, finished), else null. */
function refusal(s: MatchState, lab: LabId): StepOutput | null {
  if (typeof lab !== 'string' || !Object.hasOwn(s.labs, lab)) return refuse(s, 'unknown_lab', `no seat ${String(lab)}`);
  if (s.over) return refuse(s, 'match_over', 'the match is over');
  if (s.labs[lab]!.finished) return refuse(s, 'seat_finished', 'your seat has finished');
  return null;
}

/**
 * One parsed action of a seat that may act, on draft `d` whose state is the state before the action.
 * `own`: the draft is this action's own (applyAction), so a failing handler that wrote anyway is undone
 * by a fresh draft of its base. Otherwise (a turn's shared draft, {@link applyTurn}) such a failure
 * cannot be undone: it returns null, and the caller starts the turn over one draft per action.
 */
function act(d: Draft, lab: LabId, action: Action, own: boolean): StepOutput | null {
  const state = d.s;
  const seat = state.seats[lab]!;
  if (seat.actionsThisRound >= state.config.maxActionsPerRound)
    return penalised(
      d,
      lab,
      'action_limit',
      `at most ${state.config.maxActionsPerRound} actions per round`,
      INVALID_PENALTY,
    );
  const type = action.action_type;
  const text = isTextAction(type);
  const prevText = text ? previousText(state, lab) : null;
  // Read before the handler runs: a shared draft's seat is written in place.
  const recent = seat.recentFingerprints;

  let reward = emptyBreakdown();
  const ctx = new StepCtx(d, lab, reward);
  const out = dispatch(ctx, action);
  if (!out.ok) {
    // A failing handler changes nothing unless it says `keep` (handlers/common.ts); a fresh draft is
    // needed only if it wrote anyway (a shared draft holds the turn's earlier writes: see applyTurn).
    if (!out.keep && !d.pristine()) {
      if (!own) return null;
      d = new Draft(d.base);
    }
    reward = emptyBreakdown();
    if (!out.noPenalty) reward.invalid_action_penalty = INVALID_PENALTY;
  }

  let fingerprint: string | null = null;
  if (text) {
    if (out.ok && 'message' in action && action.message === prevText) reward.spam_penalty = SPAM_PENALTY;
  } else if (type !== 'wait') {
    fingerprint = fingerprintOf(action);
    const n = recent.length;
    if (n >= 2 && recent[n - 1] === fingerprint && recent[n - 2] === fingerprint) reward.spam_penalty = SPAM_PENALTY;
  }
  const b = settleStep(d, lab, reward, out.ok, fingerprint);
  const result: ActionResult = { ok: out.ok, code: out.code, message: out.message, reward: b };
  // A failed step keeps no reward of its own; other seats' pending additions stay only if its draft did.
  const entries = out.ok ? ctx.entries : out.keep ? (ctx.entries?.filter((e) => e.lab !== lab) ?? null) : null;
  if (entries !== null && entries.length > 0) result.entries = entries;
  // ctx.created is this step's own object: it can be handed out as it is.
  if (out.ok && (ctx.created.offerId || ctx.created.coalitionId)) result.created = ctx.created;
  return { state: d.s, result };
}

/**
 * Apply one seat's action. `raw` is an action object or its JSON text (docs/RULES.md §3).
 * Errors are values: unknown seat → `unknown_lab`, match over → `match_over`, finished seat →
 * `seat_finished` (these three change nothing and earn 0); bad shape → `malformed_action` (−0.15);
 * too many actions this round → `action_limit`; otherwise the handler's codes (codes.ts). A failed
 * action leaves the state unchanged except the actor's stats and reputation (and, for a failed trade
 * execution, the offer marked invalid).
 */
export function applyAction(state: MatchState, lab: LabId, raw: unknown): StepOutput {
  const refused = refusal(state, lab);
  if (refused !== null) return refused;
  const action = parse(raw);
  if (typeof action === 'string')
    return penalised(new Draft(state), lab, 'malformed_action', action, MALFORMED_PENALTY);
  return act(new Draft(state), lab, action, true)!;
}

/**
 * Actions a turn applies on a draft of their own, as applyAction does. In a shared draft an entity the
 * turn already wrote is the draft's own object, which the next write changes in place: code that reads
 * such an entity, writes it through the draft, then reads the first object again sees the new values
 * where a fresh draft would show the old ones. The handlers of handlers/ never do that (see
 * handlers/common.ts); finish runs the settlement (settlement.ts, coalition-ops.ts), which does (an idle
 * reservation's event reads its block after releasing it), and it ends the seat's play anyway.
 */
const ownDraft = (a: Action): boolean => a.action_type === 'finish';

/** Whether a seat's turn ends after a step: the match is over or the seat has finished. */
const turnOver = (s: MatchState, lab: LabId): boolean => s.over || s.labs[lab]!.finished;

/**
 * A scripted seat's turn (round-close.ts runScripted): `actions[0..n)` applied in order by `lab`, each
 * exactly as {@link applyAction} would apply it to the state the previous one left, stopping after the
 * step that ends the seat's play (match over, seat finished). Each step's result is pushed to `results`;
 * returns the state after the turn.
 *
 * Why one draft for the whole turn instead of one per action: nobody sees the state between two actions
 * of a turn (the next observation is taken after it), so the seats record, the actor's seat and every
 * record the actions touch are copied once per turn instead of once per action (a turn is 1–4 actions).
 * Records written in place are the draft's own copies, which no observation or cache has seen yet.
 * A failing handler's writes are discarded unless it says `keep` (handlers/common.ts), and a shared
 * draft cannot tell one action's writes from the turn's earlier ones: the turn's first action has the
 * draft to itself, as in applyAction, and a later failure without `keep` after the turn has written
 * starts the turn over, one draft per action (rare: the archetypes' actions do not fail in the bench).
 */
export function applyTurn(
  state: MatchState,
  lab: LabId,
  actions: readonly unknown[],
  n: number,
  results: ActionResult[],
): MatchState {
  const first = results.length;
  let d: Draft | null = null;
  let s = state;
  for (let k = 0; k < n; k++) {
    let step = refusal(s, lab);
    if (step === null) {
      const action = parse(actions[k]);
      if (typeof action === 'string')
        step = penalised((d ??= new Draft(s)), lab, 'malformed_action', action, MALFORMED_PENALTY);
      else if (d === null || ownDraft(action)) {
        // The action's own draft of the state so far, as applyAction's (copy-on-write: that state is
        // never written); the next actions share it unless it was replaced or is finish's.
        const own = new Draft(s);
        step = act(own, lab, action, true)!;
        d = step.state === own.s && !ownDraft(action) ? own : null;
      } else {
        step = act(d, lab, action, false);
        if (step === null) {
          results.length = first;
          return applyOneByOne(state, lab, actions, n, results);
        }
      }
    }
    s = step.state;
    results.push(step.result);
    if (turnOver(s, lab)) break;
  }
  return s;
}

/** {@link applyTurn} by applyAction, one draft per action. */
function applyOneByOne(
  state: MatchState,
  lab: LabId,
  actions: readonly unknown[],
  n: number,
  results: ActionResult[],
): MatchState {
  let s = state;
  for (let k = 0; k < n; k++) {
    const { state: next, result } = applyAction(s, lab, actions[k]);
    s = next;
    results.push(result);
    if (turnOver(s, lab)) break;
  }
  return s;
}
