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
import { addBreakdowns, addToColumn, CUMULATIVE_MAX, CUMULATIVE_MIN, emptyBreakdown, INVALID_PENALTY, isZeroBreakdown, MALFORMED_PENALTY, normalize, SPAM_PENALTY } from './reward.js';
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
const isTextAction = (type: Action['action_type']): boolean => type === 'send_message' || type === 'make_pitch' || type === 'counter_pitch';

function dispatch(ctx: Ctx, a: Action): Outcome {
  switch (a.action_type) {
    case 'send_offer': return sendOffer(ctx, a);
    case 'accept_offer': return acceptOffer(ctx, a);
    case 'reject_offer': return rejectOffer(ctx, a);
    case 'counter_offer': return counterOffer(ctx, a);
    case 'make_pitch': return makePitch(ctx, a);
    case 'counter_pitch': return counterPitch(ctx, a);
    case 'reserve_capacity': return reserveCapacity(ctx, a);
    case 'release_capacity': return releaseCapacity(ctx, a);
    case 'form_coalition': return formCoalition(ctx, a);
    case 'commit_to_coalition': return commitToCoalition(ctx, a);
    case 'allocate_to_job': return allocateToJob(ctx, a);
    case 'send_message': return sendMessage(ctx, a);
    case 'wait': return wait();
    case 'finish': return finish(ctx);
    case 'bid': return bid(ctx, a);
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
function settleStep(d: Draft, lab: LabId, raw: RewardBreakdown, valid: boolean, fingerprint: string | null): RewardBreakdown {
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
    seat.recentFingerprints = n >= 2 ? [prev[n - 2]!, prev[n - 1]!, fingerprint] : n === 1 ? [prev[0]!, fingerprint] : [fingerprint];
  }
  if (b.invalid_action_penalty < 0) {
    const l = d.lab(lab);
    l.reputation = round4(clamp(l.reputation + INVALID_REPUTATION, 0, 1));
  }
  return b;
}

function penalised(state: MatchState, lab: LabId, code: ErrorCode, message: string, penalty: number): StepOutput {
  const d = new Draft(state);
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

/**
 * Apply one seat's action. `raw` is an action object or its JSON text (docs/RULES.md §3).
 * Errors are values: unknown seat → `unknown_lab`, match over → `match_over`, finished seat →
 * `seat_finished` (these three change nothing and earn 0); bad shape → `malformed_action` (−0.15);
 * too many actions this round → `action_limit`; otherwise the handler's codes (codes.ts). A failed
 * action leaves the state unchanged except the actor's stats and reputation (and, for a failed trade
 * execution, the offer marked invalid).
 */
export function applyAction(state: MatchState, lab: LabId, raw: unknown): StepOutput {
  if (typeof lab !== 'string' || !Object.hasOwn(state.labs, lab)) return refuse(state, 'unknown_lab', `no seat ${String(lab)}`);
  if (state.over) return refuse(state, 'match_over', 'the match is over');
  if (state.labs[lab]!.finished) return refuse(state, 'seat_finished', 'your seat has finished');
  const action = parse(raw);
  if (typeof action === 'string') return penalised(state, lab, 'malformed_action', action, MALFORMED_PENALTY);
  const seat = state.seats[lab]!;
  if (seat.actionsThisRound >= state.config.maxActionsPerRound)
    return penalised(state, lab, 'action_limit', `at most ${state.config.maxActionsPerRound} actions per round`, INVALID_PENALTY);
  const type = action.action_type;
  const text = isTextAction(type);
  const prevText = text ? previousText(state, lab) : null;

  let d = new Draft(state);
  let reward = emptyBreakdown();
  const ctx = new StepCtx(d, lab, reward);
  const out = dispatch(ctx, action);
  if (!out.ok) {
    // A failing handler changes nothing unless it says `keep` (handlers/common.ts); a fresh draft is
    // needed only if it wrote anyway.
    if (!out.keep && !d.pristine()) d = new Draft(state);
    reward = emptyBreakdown();
    if (!out.noPenalty) reward.invalid_action_penalty = INVALID_PENALTY;
  }

  let fingerprint: string | null = null;
  if (text) {
    if (out.ok && 'message' in action && action.message === prevText) reward.spam_penalty = SPAM_PENALTY;
  } else if (type !== 'wait') {
    fingerprint = fingerprintOf(action);
    const recent = seat.recentFingerprints;
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
