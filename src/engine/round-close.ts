/**
 * closeRound (docs/RULES.md §2 steps 1–8): scripted seats act, the judge decides, the round advances,
 * offers expire, shocks happen, jobs settle at their deadlines, coalitions close or lapse, the last
 * round's final settlement runs, and every seat gets its round-close reward.
 */
import type {
  ActionResult,
  JudgeDecision,
  LabId,
  MatchState,
  RewardBreakdown,
  RewardEntry,
  RewardSource,
} from './types.js';
import type { PitchBonusEvent, RoundReport, SettlementEvent, TradeEvent } from './views.js';
import { chargeFabrication, holdBonus } from './pitch-bonus.js';
import { Draft } from './mut.js';
import { closeDeadOffers } from './dead-offers.js';
import { lapseGrudges } from './grudges.js';
import type { RewardSink } from './mut.js';
import { applyTurn } from './step.js';
import { observe } from './observe.js';
import { rng } from './rng.js';
import { applyShock } from './shocks.js';
import { arrive } from './arrivals.js';
import { announcedAuction } from './auction.js';
import { finalSettlement, settleJob } from './settlement.js';
import { closeCoalition, lapseCoalition } from './coalition-ops.js';
import {
  addBreakdowns,
  addToColumn,
  CUMULATIVE_MAX,
  CUMULATIVE_MIN,
  emptyBreakdown,
  normalize,
  roundColumnsInPlace,
  ZERO_BREAKDOWN,
} from './reward.js';
import type { RewardColumn } from './reward.js';
import { clamp, round4 } from './util.js';
import { getPolicy } from './policies/index.js';
import { MAX_SCRIPTED_ACTIONS } from './policies/types.js';
import { ruleJudge } from './judge/rule-judge.js';
import { JUDGE_BONUS_MAX } from './judge/types.js';

export interface CloseOptions {
  /** undefined: run the rule judge; null: nobody's pitch is judged; a decision: used as given. */
  judge?: JudgeDecision | null;
}

type Scripted = RoundReport['scriptedActions'][number];

const NO_ACTIONS: readonly unknown[] = [];

/** `policy:<lab>`, the rng purpose of a scripted seat's turn, built once per lab id (a bounded memo of strings). */
const purposes = new Map<LabId, string>();
function policyPurpose(lab: LabId): string {
  let p = purposes.get(lab);
  if (p === undefined) {
    if (purposes.size >= 64) purposes.clear();
    purposes.set(lab, (p = `policy:${lab}`));
  }
  return p;
}

function leaderboard(s: MatchState): RoundReport['leaderboard'] {
  const out: RoundReport['leaderboard'] = [];
  const { labIds, labs, seats } = s;
  // Indexed: labIds may be frozen (slow for…of) and the loop creates no closure.
  for (let i = 0; i < labIds.length; i++) {
    const lab = labIds[i]!;
    out.push({ lab, publicName: labs[lab]!.publicName, cumulativeReward: seats[lab]!.cumulativeReward });
  }
  return out;
}

function report(s: MatchState, round: number, parts: Partial<RoundReport>): RoundReport {
  const rewards: Record<LabId, RewardBreakdown> = {};
  for (const lab of s.labIds) rewards[lab] = ZERO_BREAKDOWN;
  return {
    round,
    scriptedActions: [],
    trades: [],
    judge: null,
    shocks: [],
    settlements: [],
    coalitions: [],
    rewards,
    leaderboard: leaderboard(s),
    final: s.over,
    ...parts,
  };
}

const actionTypeOf = (a: unknown): string =>
  typeof a === 'object' && a !== null && typeof (a as { action_type?: unknown }).action_type === 'string'
    ? (a as { action_type: string }).action_type
    : 'unknown';

/**
 * Step 1 of a round close (docs/RULES.md §2): every unfinished scripted seat, in seat order, acts on its
 * own observation. Returns the state after that turn (what the judge sees); `scripted` and `trades`
 * collect what happened. Exported for the round host, which asks an async judge about this state.
 */
export function runScripted(state: MatchState, scripted: Scripted[] = [], trades: TradeEvent[] = []): MatchState {
  let s = state;
  const { seed, holdout, scripted: policies } = s.config;
  const labIds = s.labIds;
  const results: ActionResult[] = [];
  for (let i = 0; i < labIds.length; i++) {
    const lab = labIds[i]!;
    const name = policies[lab];
    if (name === undefined || s.over || s.labs[lab]!.finished) continue;
    let actions: readonly unknown[] = NO_ACTIONS;
    let n = 0;
    try {
      const out: unknown = getPolicy(name)(observe(s, lab), { rng: rng(seed, s.round, policyPurpose(lab)), holdout });
      // Indexed up to the cap instead of slice + for…of: no copy, and policies may return frozen arrays.
      if (Array.isArray(out)) {
        actions = out;
        n = Math.min(out.length, MAX_SCRIPTED_ACTIONS);
      }
    } catch (e) {
      scripted.push({
        lab,
        action_type: 'none',
        ok: false,
        code: 'policy_error',
        message: e instanceof Error ? e.message : String(e),
      });
    }
    if (n === 0) continue;
    // The turn's actions in order, stopping after one that ends the seat's play (step.ts applyTurn).
    results.length = 0;
    s = applyTurn(s, lab, actions, n, results);
    for (let k = 0; k < results.length; k++) {
      const a = actions[k];
      const result = results[k]!;
      const rec: Scripted = {
        lab,
        action_type: actionTypeOf(a),
        ok: result.ok,
        code: result.code,
        message: result.message,
        reward: result.reward,
      };
      if (result.entries !== undefined) rec.entries = result.entries;
      if (result.ok) rec.action = a;
      if (result.created !== undefined) rec.created = result.created;
      scripted.push(rec);
      // Read after the turn: an accepted offer is never written again (only active offers change).
      if (result.code === 'offer_accepted') {
        const o = s.offers[String((a as { offer_id: string }).offer_id).trim()]!;
        trades.push({
          offerId: o.id,
          from: o.from,
          to: o.to,
          offeredBlockIds: o.offeredBlockIds,
          requestedBlockIds: o.requestedBlockIds,
          payment: o.payment,
          ask: o.ask ?? 0,
        });
      }
    }
  }
  return s;
}

/** The winner and bonus a decision grants (held on its argued jobs, §6.5): an unfinished seat, bonus clamped to [0, 0.15]. */
function judged(s: MatchState, decision: JudgeDecision | null): { winner: LabId | null; bonus: number } {
  if (!decision || typeof decision.winner !== 'string' || !Object.hasOwn(s.labs, decision.winner))
    return { winner: null, bonus: 0 };
  if (s.labs[decision.winner]!.finished) return { winner: null, bonus: 0 };
  const bonus = Number.isFinite(decision.bonus) ? clamp(decision.bonus, 0, JUDGE_BONUS_MAX) : 0;
  return { winner: decision.winner, bonus };
}

/**
 * Collects each seat's round-close columns; a seat's breakdown is created on its first reward. A Map, not
 * a record: adding a lab key to a fresh {} at every close is a slow transitioning keyed store in V8.
 */
class CloseSink implements RewardSink {
  readonly close = new Map<LabId, RewardBreakdown>();
  readonly entries: RewardEntry[] = [];
  add(lab: LabId, col: RewardColumn, v: number, source: RewardSource): void {
    let b = this.close.get(lab);
    if (b === undefined) this.close.set(lab, (b = emptyBreakdown()));
    addToColumn(b, col, v);
    this.entries.push({ lab, column: col, value: v, source });
  }
}

/** Step 8: pay every seat its round-close breakdown (close columns + pending) and reset its round stats. */
function payRound(d: Draft, labIds: readonly LabId[], sink: CloseSink): Record<LabId, RewardBreakdown> {
  const rewards: Record<LabId, RewardBreakdown> = {};
  for (let i = 0; i < labIds.length; i++) {
    const lab = labIds[i]!;
    const seat0 = d.s.seats[lab]!;
    const c = sink.close.get(lab);
    const pending = seat0.pendingReward;
    if (c === undefined && pending === ZERO_BREAKDOWN) {
      rewards[lab] = ZERO_BREAKDOWN;
      // Nothing to pay: skip the copy when the seat's round stats are already clean.
      if (
        seat0.lastBreakdown === ZERO_BREAKDOWN &&
        seat0.roundReward === ZERO_BREAKDOWN &&
        seat0.actionsThisRound === 0
      )
        continue;
      const seat = d.seat(lab);
      seat.lastBreakdown = ZERO_BREAKDOWN;
      seat.roundReward = ZERO_BREAKDOWN;
      seat.actionsThisRound = 0;
      continue;
    }
    const b = normalize(
      c === undefined ? pending : pending === ZERO_BREAKDOWN ? roundColumnsInPlace(c) : addBreakdowns(c, pending),
    );
    const cumulative = round4(clamp(seat0.cumulativeReward + b.normalized_reward, CUMULATIVE_MIN, CUMULATIVE_MAX));
    b.normalized_reward = round4(cumulative - seat0.cumulativeReward);
    const seat = d.seat(lab);
    seat.cumulativeReward = cumulative;
    seat.lastBreakdown = b;
    seat.roundReward = ZERO_BREAKDOWN;
    seat.pendingReward = ZERO_BREAKDOWN;
    seat.actionsThisRound = 0;
    rewards[lab] = b;
  }
  return rewards;
}

/** Close the current round. Pure; never mutates `state`. On a match that is over it changes nothing. */
export function closeRound(state: MatchState, opts: CloseOptions = {}): { state: MatchState; report: RoundReport } {
  const closing = state.round;
  if (state.over) return { state, report: report(state, closing, { final: true }) };
  const scriptedActions: Scripted[] = [];
  const trades: TradeEvent[] = [];
  const s = runScripted(state, scriptedActions, trades);
  if (s.over) return { state: s, report: report(s, closing, { scriptedActions, trades, final: true }) };

  const decision = opts.judge === undefined ? ruleJudge.judge(s) : opts.judge;
  const { winner, bonus } = judged(s, decision);
  const d = new Draft(s);
  const sink = new CloseSink();
  if (decision) d.s.judgeHistory = [...s.judgeHistory, decision];
  // The bonus is held on the jobs the winning pitch argued for, paid when they settle (§6.5).
  const pitchBonus: PitchBonusEvent[] = [];
  if (winner !== null && bonus > 0) holdBonus(d, winner, bonus, pitchBonus);
  chargeFabrication(decision, sink); // a fabricated claim costs its seat (§6.6)
  const round = closing + 1;
  d.s.round = round;
  lapseGrudges(d); // rules v4: grudges hold two rounds (§7.1)
  if (s.pitches.length > 0) d.s.pitches = [];
  if (s.pitchFacts !== undefined && s.pitches.length > 0) d.s.pitchFacts = {};

  for (const id in s.offers) {
    const o = s.offers[id]!;
    if (o.status === 'active' && o.expiresRound < round) d.offer(id).status = 'expired';
  }
  const shocks = [];
  // Indexed loops throughout: state arrays may be frozen (slow for…of).
  const schedule = s.shockSchedule;
  for (let i = 0; i < schedule.length; i++) {
    const x = schedule[i]!;
    if (x.round === closing) shocks.push(applyShock(d, x.kind, closing, winner));
  }
  if (shocks.length > 0) d.s.shockHistory = [...s.shockHistory, ...shocks];
  // Late jobs and supply for the round that opens (§1.1, rules v3).
  const arrivals = round < s.params.maxRounds ? arrive(d, round) : null;
  // An emergency auction of the round that opens is announced now, so every seat can bid in it (§5.1).
  if (d.s.auction != null && d.s.auction.round < round) d.s.auction = null;
  if (round < s.params.maxRounds) {
    const next = announcedAuction(d.s, round);
    if (next !== null) d.s.auction = next;
  }

  const settlements: SettlementEvent[] = [];
  // Read through the record the loop enumerates (for-in's fast keyed loads), even after settleJob has
  // replaced d.s.jobs with a copy: settling a job changes no other job, so every entry read is current.
  const jobs = d.s.jobs;
  for (const id in jobs) {
    const j = jobs[id]!;
    if (j.outcome === 'pending' && j.deadlineRound < round && !d.s.labs[j.owner]!.finished)
      settlements.push(settleJob(d, id, sink, pitchBonus, closing));
  }
  const coalitions: RoundReport['coalitions'] = [];
  for (const id in d.s.coalitions) {
    const c = d.s.coalitions[id]!;
    if (c.expiresRound >= round) continue;
    if (c.status === 'active') closeCoalition(d, id, sink);
    else if (c.status === 'proposed') lapseCoalition(d, id);
    else continue;
    coalitions.push({ id, status: d.s.coalitions[id]!.status });
  }
  if (round >= s.params.maxRounds) {
    for (let i = 0; i < s.labIds.length; i++) {
      const lab = s.labIds[i]!;
      if (!d.s.labs[lab]!.finished) settlements.push(...finalSettlement(d, lab, sink, pitchBonus, closing));
    }
    d.s.over = true;
  }
  // Step 4b (rules v3): offers whose blocks are gone close now, with the reason in the report.
  const deadOffers = closeDeadOffers(d);
  const rewards = payRound(d, s.labIds, sink);
  const out = d.s;
  const board = leaderboard(out);
  const entries = sink.entries;
  // The optional keys in place (arrivals before entries, deadOffers last), as four literals: spreading
  // `...(x ? { x } : {})` into a literal costs a generic copy per part and gives the report more shapes.
  let r: RoundReport;
  if (arrivals === null) {
    if (deadOffers.length === 0)
      r = {
        round: closing,
        scriptedActions,
        trades,
        judge: decision,
        shocks,
        settlements,
        coalitions,
        rewards,
        leaderboard: board,
        final: out.over,
        pitchBonus,
        entries,
      };
    else
      r = {
        round: closing,
        scriptedActions,
        trades,
        judge: decision,
        shocks,
        settlements,
        coalitions,
        rewards,
        leaderboard: board,
        final: out.over,
        pitchBonus,
        entries,
        deadOffers,
      };
  } else if (deadOffers.length === 0) {
    r = {
      round: closing,
      scriptedActions,
      trades,
      judge: decision,
      shocks,
      settlements,
      coalitions,
      rewards,
      leaderboard: board,
      final: out.over,
      pitchBonus,
      arrivals,
      entries,
    };
  } else {
    r = {
      round: closing,
      scriptedActions,
      trades,
      judge: decision,
      shocks,
      settlements,
      coalitions,
      rewards,
      leaderboard: board,
      final: out.over,
      pitchBonus,
      arrivals,
      entries,
      deadOffers,
    };
  }
  return { state: out, report: r };
}
