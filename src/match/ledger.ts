/**
 * The reward ledger: every change to a seat's reward as an entry with its round, column,
 * score points and source, folded from the engine's step results and round reports. A seat's entries
 * sum to its cumulative reward (4 dp): each step's or close's entries are reconciled with the
 * normalized_reward the engine paid, the difference made explicit as a `cap` entry when a clamp cut it
 * (±1 per step or close, ±10 cumulative, docs/RULES.md §4) and folded into the largest entry when it is
 * only 4-dp rounding. Pure: the same events give the same ledger.
 */
import { REWARD_WEIGHTS } from '../engine/reward.js';
import type { RewardColumn } from '../engine/reward.js';
import type { ActionResult, LabId, RewardBreakdown, RewardEntry, RewardSource } from '../engine/types.js';
import type { RoundReport } from '../engine/views.js';

/** Why an entry exists: an engine source, or one the ledger adds (penalties, caps, unexplained rest). */
export type LedgerSource =
  | RewardSource
  /** invalid_action_penalty of a refused action (its result code and message). */
  | { kind: 'refused'; action: string; code: string; message: string }
  /** spam_penalty: the action repeated the seat's last ones (or its last text). */
  | { kind: 'spam'; action: string }
  /** A clamp cut the reward: `step` = one step or close counts at most ±1; `cumulative` = the total stays in [−10, 10]. */
  | { kind: 'cap'; limit: 'step' | 'cumulative' }
  /** Reward no source explains (never expected; a test asserts it does not happen). */
  | { kind: 'unexplained' };

/** A ledger column: one of the 10 reward columns, or `cap` for a clamp adjustment. */
export type LedgerColumn = RewardColumn | 'cap';

/** One change to one seat's reward. */
export interface LedgerEntry {
  /** Event sequence number of the step or round close that paid it. */
  seq: number;
  /** 0-based round it counted in. */
  round: number;
  lab: LabId;
  column: LedgerColumn;
  /** Raw column units (before the §4 weight); 0 for `cap`. */
  raw: number;
  /** Score points: weight × raw, 4 dp (plus rounding); a seat's amounts sum to its cumulative reward. */
  amount: number;
  source: LedgerSource;
  /** `step`: the seat's own action (its action type in `action`); `close`: a round close paid it. */
  paid: 'step' | 'close';
  action?: string;
  /** For reward another seat's step earned this seat (paid at the next close, or at its finish). */
  earned?: { seq: number; round: number; by: LabId };
}

/** The fold state: entries so far and, per seat, earned entries not yet paid. */
export interface Ledger {
  entries: LedgerEntry[];
  pending: Record<LabId, LedgerEntry[]>;
  /** Σ amounts per seat so far (its cumulative reward). */
  totals: Record<LabId, number>;
}

export const emptyLedger = (): Ledger => ({ entries: [], pending: {}, totals: {} });

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

/**
 * Reconcile `entries` (one paid breakdown) with what the engine paid (`paid` = its normalized_reward).
 * `before` is the seat's total before it. Returns the entries with amounts, plus a cap entry when a clamp
 * cut the weighted sum.
 */
function reconcile(
  entries: LedgerEntry[],
  paid: number,
  before: number,
  base: Omit<LedgerEntry, 'column' | 'raw' | 'amount' | 'source'>,
): LedgerEntry[] {
  let weighted = 0;
  for (const e of entries) {
    e.amount = round4(e.column === 'cap' ? 0 : REWARD_WEIGHTS[e.column] * e.raw);
    weighted += e.column === 'cap' ? 0 : REWARD_WEIGHTS[e.column] * e.raw;
  }
  const out = entries.filter((e) => e.amount !== 0 || e.raw !== 0);
  const stepClamped = round4(Math.max(-1, Math.min(1, weighted)));
  const cuts: LedgerEntry[] = [];
  if (Math.abs(stepClamped - round4(weighted)) >= 1e-4)
    cuts.push({
      ...base,
      column: 'cap',
      raw: 0,
      amount: round4(stepClamped - round4(weighted)),
      source: { kind: 'cap', limit: 'step' },
    });
  const reached = before + stepClamped;
  if (Math.abs(reached) > 10)
    cuts.push({
      ...base,
      column: 'cap',
      raw: 0,
      amount: round4(Math.sign(reached) * 10 - reached),
      source: { kind: 'cap', limit: 'cumulative' },
    });
  const all = [...out, ...cuts];
  const sum = all.reduce((a, e) => a + e.amount, 0);
  const rest = round4(paid - sum);
  if (rest !== 0) {
    // More than the 4-dp rounding of the columns can explain: say so rather than hide it.
    if (all.length === 0 || Math.abs(rest) > 1e-4 * (all.length + 2))
      return [...all, { ...base, column: 'cap', raw: 0, amount: rest, source: { kind: 'unexplained' } }];
    // 4-dp rounding of several columns: give it to the largest entry.
    const big = all.reduce((a, e) => (Math.abs(e.amount) > Math.abs(a.amount) ? e : a));
    big.amount = round4(big.amount + rest);
  }
  return all;
}

const fromEngine = (e: RewardEntry, base: Omit<LedgerEntry, 'column' | 'raw' | 'amount' | 'source'>): LedgerEntry => ({
  ...base,
  column: e.column,
  raw: e.value,
  amount: 0,
  source: e.source,
});

/**
 * Fold one step of `lab` (action type `action`, event `seq`, round `round`) into the ledger: its own
 * entries and penalties are paid now, other seats' entries wait in `pending`; a `finish` pays the seat's
 * pending entries in this step (as the engine does).
 */
export function ledgerStep(
  l: Ledger,
  seq: number,
  round: number,
  lab: LabId,
  action: string,
  result: ActionResult & { reward?: RewardBreakdown },
): Ledger {
  const base = { seq, round, lab, paid: 'step' as const, action };
  const mine: LedgerEntry[] = [];
  let pending = l.pending;
  for (const e of result.entries ?? []) {
    if (e.lab === lab) {
      mine.push(fromEngine(e, base));
      continue;
    }
    pending = {
      ...pending,
      [e.lab]: [
        ...(pending[e.lab] ?? []),
        { ...fromEngine(e, { seq, round, lab: e.lab, paid: 'close' }), earned: { seq, round, by: lab } },
      ],
    };
  }
  if (result.ok && result.code === 'finished' && (pending[lab]?.length ?? 0) > 0) {
    for (const p of pending[lab]!) mine.push({ ...p, seq, round, paid: 'step', action });
    pending = { ...pending, [lab]: [] };
  }
  const b = result.reward;
  if (b.invalid_action_penalty !== 0)
    mine.push({
      ...base,
      column: 'invalid_action_penalty',
      raw: b.invalid_action_penalty,
      amount: 0,
      source: { kind: 'refused', action, code: result.code, message: result.message },
    });
  if (b.spam_penalty !== 0)
    mine.push({ ...base, column: 'spam_penalty', raw: b.spam_penalty, amount: 0, source: { kind: 'spam', action } });
  if (mine.length === 0 && b.normalized_reward === 0) return pending === l.pending ? l : { ...l, pending };
  const before = l.totals[lab] ?? 0;
  return {
    entries: [...l.entries, ...reconcile(mine, b.normalized_reward, before, base)],
    pending,
    totals: { ...l.totals, [lab]: round4(before + b.normalized_reward) },
  };
}

/**
 * Fold a round close (event `seq`): the scripted seats' steps in order, then each seat's round-close
 * breakdown = the close's own entries + its pending entries.
 */
export function ledgerClose(l0: Ledger, seq: number, report: RoundReport): Ledger {
  let l = l0;
  for (const a of report.scriptedActions) {
    if (a.reward === undefined) continue;
    l = ledgerStep(l, seq, report.round, a.lab, a.action_type, {
      ok: a.ok,
      code: a.code,
      message: a.message,
      reward: a.reward,
      ...(a.entries ? { entries: a.entries } : {}),
    });
  }
  const added: LedgerEntry[] = [];
  const pending = { ...l.pending };
  const totals = { ...l.totals };
  for (const lab of Object.keys(report.rewards)) {
    const b = report.rewards[lab]!;
    const base = { seq, round: report.round, lab, paid: 'close' as const };
    const mine = (report.entries ?? []).filter((e) => e.lab === lab).map((e) => fromEngine(e, base));
    for (const p of pending[lab] ?? []) mine.push({ ...p, seq, round: report.round, paid: 'close' });
    delete pending[lab];
    if (mine.length === 0 && b.normalized_reward === 0) continue;
    const before = totals[lab] ?? 0;
    added.push(...reconcile(mine, b.normalized_reward, before, base));
    totals[lab] = round4(before + b.normalized_reward);
  }
  return { entries: added.length > 0 ? [...l.entries, ...added] : l.entries, pending, totals };
}

/** A seat's entries, optionally of one round. */
export const seatEntries = (l: Ledger | undefined, lab: LabId, round?: number): LedgerEntry[] =>
  (l?.entries ?? []).filter((e) => e.lab === lab && (round === undefined || e.round === round));

/** Σ amounts of `entries`, 4 dp. */
export const ledgerSum = (entries: readonly LedgerEntry[]): number => round4(entries.reduce((a, e) => a + e.amount, 0));
