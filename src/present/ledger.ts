/**
 * The reward ledger in words: one line per entry naming the concrete facts, a seat's round
 * as its non-zero entries and new total, and a seat's total as categories ("jobs +0.62, deals +0.18").
 * Entries are private to their seat while the match runs; the final post shows every seat's summary.
 */
import { z } from 'zod';
import { REWARD_WEIGHTS } from '../engine/reward.js';
import type { LabId, MatchState, Offer } from '../engine/types.js';
import type { LedgerColumn, LedgerEntry } from '../match/ledger.js';
import { ledgerSum, seatEntries } from '../match/ledger.js';
import type { HostedMatch } from '../match/types.js';
import { labName } from './common.js';

/** Plain-words category of each column, in the order totals are listed. */
export const LEDGER_CATEGORIES: readonly { column: LedgerColumn; label: string }[] = [
  { column: 'job_utility', label: 'jobs' },
  { column: 'deal_quality', label: 'deals' },
  { column: 'negotiation_efficiency', label: 'traded capacity used' },
  { column: 'coalition_reliability', label: 'coalitions' },
  { column: 'judge_argument', label: 'pitch bonus' },
  { column: 'budget_efficiency', label: 'credits kept' },
  { column: 'market_adaptation', label: 'shock adaptation' },
  { column: 'invalid_action_penalty', label: 'refused actions' },
  { column: 'spam_penalty', label: 'spam' },
  { column: 'breach_penalty', label: 'breaches' },
  { column: 'cap', label: 'caps' },
];

const LABEL = new Map(LEDGER_CATEGORIES.map((c) => [c.column, c.label]));

/** The plain-words label of a ledger column ("jobs", "deals", …). */
export const categoryOf = (c: LedgerColumn): string => LABEL.get(c) ?? c;

/** "+0.0700": ledger amounts keep their 4 dp so that lines add up exactly. */
export const fmtAmount = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(4)}`;

/** How the columns become the score (docs/RULES.md §4), for `me` and the help. */
export const SCORE_FORMULA =
  'Each step and each round close pays 0.35×job_utility + 0.20×deal_quality + 0.15×coalition_reliability + judge_argument ' +
  '+ 0.10×(budget_efficiency + negotiation_efficiency + market_adaptation) + penalties, capped at ±1; your total stays within ±10.';

function blockText(s: MatchState, ids: readonly string[]): string {
  if (ids.length === 0) return 'nothing';
  return ids
    .map((id) => {
      const b = s.blocks[id];
      return b ? `${id} (${b.gpuHours} GPU-h @${b.reliability.toFixed(2)})` : id;
    })
    .join(', ');
}

/** What `lab` gave and got in offer `o` (its own side first): blocks, plus the credits paid (`pay`) or asked (`ask`). */
function tradeTerms(m: HostedMatch, s: MatchState, o: Offer, lab: LabId): string {
  const mine = o.from === lab;
  const gave = mine ? o.offeredBlockIds : o.requestedBlockIds;
  const got = mine ? o.requestedBlockIds : o.offeredBlockIds;
  // The sender pays `payment`; the receiver pays `ask` (rules v3: selling for credits).
  const credits = (x: number) => (x > 0 ? ` + ${x.toFixed(2)} credits` : '');
  const [outCr, inCr] = mine ? [o.payment, o.ask ?? 0] : [o.ask ?? 0, o.payment];
  const side = (ids: readonly string[], cr: number) =>
    ids.length === 0 && cr > 0 ? `${cr.toFixed(2)} credits` : `${blockText(s, ids)}${credits(cr)}`;
  return `offer ${o.id} with ${labName(m, mine ? o.to : o.from)}: you gave ${side(gave, outCr)} for ${side(got, inCr)}`;
}

const weightNote = (e: LedgerEntry): string => {
  if (e.column === 'cap') return '';
  const w = REWARD_WEIGHTS[e.column];
  return w === 1 ? '' : ` (${w.toFixed(2)} × ${e.column} ${e.raw >= 0 ? '+' : '−'}${Math.abs(e.raw).toFixed(3)})`;
};

/** The concrete facts behind one entry, from `lab`'s point of view (its own entry). */
export function entryReason(m: HostedMatch, e: LedgerEntry): string {
  const s = m.state;
  const src = e.source;
  const job = (id: string) => (s?.jobs[id] ? `${id} (${s.jobs[id]!.gpuHoursRequired} GPU-h)` : id);
  switch (src.kind) {
    case 'trade': {
      const o = s?.offers[src.offerId];
      const terms = o && s ? tradeTerms(m, s, o, e.lab) : `offer ${src.offerId}`;
      const dir = src.gain >= 0 ? 'more' : 'less';
      return `${terms}; your blocks, jobs and credits are worth ${Math.abs(src.gain).toFixed(2)} credits ${dir} to you`;
    }
    case 'job_settled': {
      const how =
        src.outcome === 'completed'
          ? 'completed'
          : src.outcome === 'partial'
            ? `partly done (${Math.round(src.credit * 100)} %)`
            : 'missed';
      return `${job(src.jobId)} ${how}: ${src.value.toFixed(2)} credits realised (÷150 for job_utility, at most 1)`;
    }
    case 'trade_unrealised':
      return `${src.jobId}: trades had credited ${src.credits.toFixed(2)} credits of its value, which it did not realise`;
    case 'shock_adapted':
      return `${src.jobId} completed although a shock hit it`;
    case 'traded_job':
      return src.owner === e.lab
        ? `${src.jobId} completed with capacity you traded for`
        : `${labName(m, src.owner)}'s job ${src.jobId} completed with capacity you traded them`;
    case 'pitch_bonus':
      return `held pitch bonus paid: ${src.jobId} settled${src.credit < 1 ? ` (× ${src.credit.toFixed(2)} for partial work)` : ''}`;
    case 'idle_reservation':
      return `${src.blockId} was still reserved${src.jobId ? ` for ${src.jobId}` : ''} and unused when it settled`;
    case 'budget':
      return `${src.completed}/${src.total} jobs completed × ${src.budget.toFixed(2)}/${src.initialBudget.toFixed(2)} credits kept`;
    case 'coalition_served':
      return `coalition ${src.coalitionId} closed honoured: committed capacity completed a job`;
    case 'coalition_breach':
      return `you withdrew a block committed to coalition ${src.coalitionId}`;
    case 'fabricated_pitch':
      return `fabricated claims in your pitch: −0.05 each, ${src.claims} charged (at most 2 a pitch; see the judge's verdict)`;
    case 'refused':
      return `${src.action} refused (${src.code}): ${clip(src.message, 120)}`;
    case 'spam':
      return `${src.action} repeated (spam)`;
    case 'cap':
      return src.limit === 'step'
        ? 'capped: one step or round close counts at most ±1'
        : 'capped: a total stays within ±10';
    case 'unexplained':
      return 'not explained by any source (please report this)';
  }
}

const clip = (t: string, n: number): string => (t.length <= n ? t : `${t.slice(0, n - 1)}…`);

/** One line: "+0.0700 deals: offer o_3 with Lab B: … (0.20 × deal_quality +0.350)"; earned-by noted. */
export function entryLine(m: HostedMatch, e: LedgerEntry): string {
  const by = e.earned && e.earned.by !== e.lab ? ` [from ${labName(m, e.earned.by)}'s action]` : '';
  return `${fmtAmount(e.amount)} ${categoryOf(e.column)}: ${entryReason(m, e)}${weightNote(e)}${by}`;
}

/** A seat's round in lines: its non-zero entries of `round`, then the round total and the new total. */
export function roundLedgerLines(m: HostedMatch, lab: LabId, round: number): string[] {
  const mine = seatEntries(m.ledger, lab, round).filter((e) => e.amount !== 0);
  const total = ledgerSum(seatEntries(m.ledger, lab).filter((e) => e.round <= round));
  const lines = mine.map((e) => entryLine(m, e));
  lines.push(
    mine.length === 0
      ? `Round ${round + 1}: no change to your reward; total ${fmtAmount(total)}.`
      : `Round ${round + 1}: ${fmtAmount(ledgerSum(mine))} → total ${fmtAmount(total)}.`,
  );
  return lines;
}

/** Σ amounts per category of a seat's entries, non-zero ones, in {@link LEDGER_CATEGORIES} order. */
export function categoryTotals(
  entries: readonly LedgerEntry[],
): { column: LedgerColumn; label: string; amount: number }[] {
  const sums = new Map<LedgerColumn, number>();
  for (const e of entries) sums.set(e.column, (sums.get(e.column) ?? 0) + e.amount);
  return LEDGER_CATEGORIES.map((c) => ({ ...c, amount: Math.round((sums.get(c.column) ?? 0) * 1e4) / 1e4 })).filter(
    (c) => c.amount !== 0,
  );
}

/** "Lab D: +1.0960 = jobs +0.6200, deals +0.1800, pitch bonus +0.1500". */
export function seatSummary(m: HostedMatch, lab: LabId): string {
  const mine = seatEntries(m.ledger, lab);
  const parts = categoryTotals(mine).map((c) => `${c.label} ${fmtAmount(c.amount)}`);
  return `${labName(m, lab)}: ${fmtAmount(ledgerSum(mine))}${parts.length ? ` = ${parts.join(', ')}` : ' (no reward)'}`;
}

/** One line of `npm run export -- --format ledger` (JSON lines; validated before it is written). */
export const LedgerRowSchema = z
  .object({
    matchId: z.string(),
    seq: z.number().int().positive(),
    /** 1-based round the entry counted in. */
    round: z.number().int().positive(),
    seat: z.string(),
    seatName: z.string(),
    column: z.string(),
    category: z.string(),
    /** Raw column units, before the weight (0 for caps). */
    raw: z.number().finite(),
    /** Score points; a seat's amounts sum to its total. */
    amount: z.number().finite(),
    reason: z.string().min(1),
    paid: z.enum(['step', 'close']),
    action: z.string().optional(),
    earnedBy: z.string().optional(),
    source: z.object({ kind: z.string() }).passthrough(),
  })
  .strict();
export type LedgerRow = z.infer<typeof LedgerRowSchema>;

/** Every ledger entry of a match as export rows, in the order they were paid. */
export function ledgerRows(m: HostedMatch): LedgerRow[] {
  return (m.ledger?.entries ?? []).map((e) =>
    LedgerRowSchema.parse({
      matchId: m.id,
      seq: e.seq,
      round: e.round + 1,
      seat: e.lab,
      seatName: labName(m, e.lab),
      column: e.column,
      category: categoryOf(e.column),
      raw: e.raw,
      amount: e.amount,
      reason: entryReason(m, e),
      paid: e.paid,
      ...(e.action ? { action: e.action } : {}),
      ...(e.earned ? { earnedBy: e.earned.by } : {}),
      source: e.source,
    }),
  );
}
