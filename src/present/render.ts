/**
 * What the channel and each person see from the round host. Public posts carry only public facts
 * (trades, judge scores and parts, shocks by kind, which jobs were met or missed, leaderboards); every
 * private value (budgets, job values and deadlines, reward breakdowns) goes only to its own seat's
 * person as a private post.
 */
import type { Button, Post, PrivatePost, Reply } from '../chat/types.js';
import type { JudgeDecision, LabId } from '../engine/types.js';
import type { RoundReport } from '../engine/views.js';
import {
  currentStandings,
  deadlineFields,
  fmtReward,
  labName,
  leaderboardText,
  roundLabel,
  seatLabel,
} from './common.js';
import { drivenSeats } from '../match/replay.js';
import { pitchPayLines } from './pitch-pay.js';
import { roundLedgerLines, seatSummary } from './ledger.js';
import { dealSide, directMessagePosts, narrate, narrationFields } from './narrate.js';
import { breakdownChart, standingsChart } from './charts.js';
import type { ActionRecord, HostedMatch } from '../match/types.js';
import type { DoomedJob } from '../match/doomed.js';
import { shockSentence } from './shocks.js';
import { emptyReply, mergeReplies } from '../chat/reply.js';

export { DEADLINE_FIELD, labName, seatLabel } from './common.js';

/** Why a round closed (the `round_closed` event's reason). */
export type CloseReason = 'all_done' | 'timer' | 'host';

const REASON_TEXT: Record<CloseReason, string> = {
  all_done: 'every seat is done',
  timer: 'the round timer ran out',
  host: 'the host closed it',
};

export { emptyReply, mergeReplies };

/** "Round 2/5 is open", its deadline field (if timed) and whom it waits for. */
export function renderRoundOpen(m: HostedMatch): Post {
  const s = m.state;
  if (!s) return { text: 'The match has not started.' };
  const waiting = drivenSeats(m).filter((lab) => !s.labs[lab]?.finished);
  const lines = [
    m.roundDeadline === null
      ? 'No round timer: the round closes when every seat is done (`done`).'
      : 'The round closes at the deadline or when every seat is done (`done`).',
  ];
  if (waiting.length > 0) lines.push(`Waiting for: ${waiting.map((lab) => seatLabel(m, lab)).join(', ')}.`);
  const auction = s.auction && s.auction.round === s.round ? s.auction : null;
  if (auction) {
    const lot = auction.lot;
    lines.push(
      `Emergency auction this round: ${lot.id} (${lot.gpuHours} GPU-hours, reliability ${lot.reliability}). Sealed bids with \`offer bid:<credits>\` (at least ${auction.reserve.toFixed(2)}); the highest wins at the close.`,
    );
  }
  return {
    title: `Round ${roundLabel(s.round, s.params.maxRounds)} is open`,
    text: lines.join('\n'),
    fields: deadlineFields(m),
  };
}

/**
 * The round's close is claimed and its pitches are with a model judge (`m.judging`, src/host/rounds.ts):
 * what the channel sees until the results, which follow within `judgeTimeoutMs` (then the rule judge decides).
 */
export function renderJudging(m: HostedMatch, reason: CloseReason, judgeTimeoutMs: number): Post {
  const s = m.state;
  if (!s) return { text: 'The match has not started.' };
  const last = s.round + 1 >= s.params.maxRounds;
  const why = REASON_TEXT[reason];
  return {
    title: `Round ${roundLabel(s.round, s.params.maxRounds)} closed: the judge is deciding`,
    text:
      `${why.charAt(0).toUpperCase()}${why.slice(1)}. The judge is reading this round's pitches; the results and ${last ? 'the final standings' : `round ${s.round + 2}`} ` +
      `follow as soon as it has decided; if it has not within ${Math.ceil(judgeTimeoutMs / 1000)} s, the rule judge decides. Nothing more can be done in round ${s.round + 1}.`,
  };
}

/** The start of a match: seats, the first round, and each person's private briefing. */
export function renderStart(m: HostedMatch): Reply {
  const s = m.state;
  if (!s) return emptyReply();
  const seats = s.labIds.map((lab) => `• ${seatLabel(m, lab)}`).join('\n');
  const intro: Post = {
    // No seed here: it determines every private value, so it is revealed only when the match is over.
    title: `Match started: ${m.settings.task} (${s.params.maxRounds} rounds)`,
    text: `Seats:\n${seats}${m.settings.hostSeeded ? `\n${HOST_SEEDED}` : ''}`,
  };
  return { public: [intro, renderRoundOpen(m)], private: briefings(m) };
}

/** Each person's own position (private): budget, jobs with hours and deadlines, blocks. */
/**
 * How a pitch pays (docs/RULES.md §6.5), told in every briefing and in `help pitch`: the order of a pitch
 * and an allocation matters, so a new player is told it rather than left to discover it.
 */
export const PITCH_PAYS =
  "How a pitch pays: the round's best pitch wins a bonus that is held on the jobs it argues for that still need GPU-hours when you pitch, and paid when those jobs settle (a share if partly done, nothing if missed). So pitch for a job before you fill it: a pitch about a job already fully allocated has nothing to hold the bonus on. Claims are checked against your facts when you pitch.";

function briefings(m: HostedMatch): PrivatePost[] {
  const s = m.state;
  if (!s) return [];
  const out: PrivatePost[] = [];
  for (const lab of s.labIds) {
    const d = m.drivers[lab];
    if (d?.kind !== 'human') continue;
    const me = s.labs[lab];
    const jobs = Object.values(s.jobs).filter((j) => j.owner === lab);
    const blocks = Object.values(s.blocks).filter((b) => b.owner === lab);
    out.push({
      userId: d.userId,
      title: `You play ${labName(m, lab)} (${lab})`,
      text: [
        `Budget ${me?.budget.toFixed(2)} credits, reputation ${me?.reputation.toFixed(2)}.`,
        `Jobs: ${jobs.map((j) => `${j.id} needs ${j.gpuHoursRequired} GPU-h by the end of round ${j.deadlineRound + 1} (min reliability ${j.minReliability.toFixed(2)})`).join('; ')}.`,
        `Blocks: ${blocks.map((b) => `${b.id} ${b.gpuHours} GPU-h @${b.reliability.toFixed(2)}`).join(', ')}.`,
        PITCH_PAYS,
      ].join('\n'),
    });
  }
  return out;
}

/** Why the LLM judge asked no model about a round (`meta.llmNotAsked`, src/agents/llm-judge.ts), in words. */
const NOT_ASKED: Record<string, string> = {
  one_eligible: 'fewer than two pitches could win',
  clear_lead: 'the best pitch led every other that could win by more than the LLM may move',
  addressed_judge: 'a pitch addressed the judge',
};

/** The judge's per-pitch scores, winner and bonus as post lines (null when nothing was judged). */
export function judgeText(m: HostedMatch, d: JudgeDecision | null): string | null {
  if (!d || d.scores.length === 0) return null;
  const lines = [...d.scores]
    .sort((a, b) => b.score - a.score)
    .map(
      (x) =>
        `${x.lab === d.winner ? '🏆 ' : ''}${labName(m, x.lab)}: ${x.score.toFixed(2)} ` +
        `(need ${x.parts.need.toFixed(2)} · verified ${x.parts.verifiedClaims.toFixed(2)} · ` +
        `fabricated ${x.parts.fabricatedClaims.toFixed(2)} · specificity ${x.parts.specificity.toFixed(2)})`,
    );
  if (d.winner)
    lines.push(
      `Winner: ${labName(m, d.winner)} (bonus +${d.bonus.toFixed(3)}, held until the jobs its pitch argued for settle; paid only for work done).`,
    );
  const fallback = d.meta?.['fallback'];
  const notAsked = NOT_ASKED[String(d.meta?.['llmNotAsked'])];
  lines.push(
    typeof fallback === 'string'
      ? `Judged by the rule judge: the configured judge was unavailable (${fallback}).`
      : notAsked
        ? `Judge: ${d.judgeId}; the LLM judge was not asked, since ${notAsked}.`
        : `Judge: ${d.judgeId}.`,
  );
  return lines.join('\n');
}

/** Public results of a round close (trades, pitches, shocks, deadlines, leaderboard). */
function closeSummary(
  m: HostedMatch,
  r: RoundReport,
  reason: CloseReason,
  maxRounds: number,
  ballot?: BallotView,
): Post {
  // What each seat did, with the content the channel may see (src/present/narrate.ts).
  const fields: { name: string; value: string }[] =
    m.lastRound?.round === r.round ? narrationFields(m, m.lastRound.actions) : [];
  if (r.trades.length > 0)
    fields.push({
      name: 'Trades',
      value: r.trades
        .map((t) => {
          const gave = dealSide(m.state, t.offeredBlockIds, t.payment);
          const got = dealSide(m.state, t.requestedBlockIds, t.ask ?? 0);
          return `${t.offerId}: ${labName(m, t.from)} gave ${gave} to ${labName(m, t.to)} for ${got}`;
        })
        .join('\n'),
    });
  const judged = judgeText(m, r.judge);
  // With a ballot open on this round's pitches the judge's scores stay hidden (src/voting/render.ts).
  fields.push(ballot?.pitchesField ?? { name: 'Pitches', value: judged ?? 'No pitches were judged this round.' });
  const pay = pitchPayLines(m, r, { verdictHidden: ballot !== undefined }).public;
  if (pay.length > 0) fields.push({ name: 'Pitch bonuses', value: pay.join('\n') });
  if (r.shocks.length > 0)
    fields.push({
      name: 'Shocks',
      value: r.shocks.map((x) => shockSentence(m, x)).join('\n'),
    });
  if (r.settlements.length > 0)
    fields.push({
      name: 'Deadlines',
      value: r.settlements
        .map(
          (x) =>
            `${labName(m, x.lab)} ${x.jobId}: ${x.outcome === 'completed' ? 'met' : x.outcome === 'partial' ? 'partly met' : 'missed'}`,
        )
        .join('\n'),
    });
  if (r.arrivals && (r.arrivals.blocks.length || r.arrivals.jobs.length)) {
    const a = r.arrivals;
    const lines: string[] = [];
    if (a.blocks.length)
      lines.push(
        `New capacity: ${a.blocks.map((b) => `${b.blockId} (${b.gpuHours} GPU-h) to ${labName(m, b.owner)}`).join(', ')}.`,
      );
    // A job's hours, deadline and value are private: the channel learns only who got new work.
    if (a.jobs.length)
      lines.push(
        `New jobs for ${[...new Set(a.jobs.map((j) => labName(m, j.lab)))].join(', ')} (details to their owners).`,
      );
    fields.push({ name: 'Arrivals', value: lines.join('\n') });
  }
  const closedOffers = (r.deadOffers ?? []).map(
    (x) =>
      `${x.offerId} (${labName(m, x.from)} → ${labName(m, x.to)}) can no longer happen: ${x.blockId} ${DEAD_WHY[x.why]}`,
  );
  // Offers that reached their last round unanswered lapse at this close; the report does not list them.
  for (const o of Object.values(m.state?.offers ?? {}))
    if (o.status === 'expired' && o.expiresRound === r.round)
      closedOffers.push(`${o.id} (${labName(m, o.from)} → ${labName(m, o.to)}) expired unanswered`);
  if (closedOffers.length > 0) fields.push({ name: 'Offers closed', value: closedOffers.join('\n') });
  if (r.coalitions.length > 0)
    fields.push({ name: 'Coalitions', value: r.coalitions.map((c) => `${c.id}: ${c.status}`).join('\n') });
  fields.push({ name: 'Leaderboard', value: leaderboardText(m, r.leaderboard) });
  const post: Post = {
    title: `Round ${roundLabel(r.round, maxRounds)} closed: ${REASON_TEXT[reason]}`,
    text: '',
    fields,
  };
  return ballot?.buttons.length ? { ...post, buttons: ballot.buttons } : post;
}

const DEAD_WHY = { used: 'was used for a job', failed: 'failed', moved: 'changed hands' } as const;

/** Private notices to the owners of jobs that arrived at this close (their hours, deadline and value). */
function arrivalNotices(m: HostedMatch, r: RoundReport): PrivatePost[] {
  const out: PrivatePost[] = [];
  for (const x of r.arrivals?.jobs ?? []) {
    const d = m.drivers[x.lab];
    const j = m.state?.jobs[x.jobId];
    if (d?.kind !== 'human' || !j) continue;
    out.push({
      userId: d.userId,
      title: `New job ${j.id}`,
      text: `${j.id} needs ${j.gpuHoursRequired} GPU-h at reliability ≥ ${j.minReliability.toFixed(2)} by the end of round ${j.deadlineRound + 1}, worth ≈${(j.baseValue * j.urgencyMultiplier).toFixed(1)} credits${j.partialCreditAllowed ? ' (partial credit allowed)' : ''}. \`me\` shows it with your blocks.`,
    });
  }
  return out;
}

/**
 * The words for a job the market can no longer complete, true of its credit rule: lost (no partial credit,
 * or nothing left to add) or still earning (partial credit with capacity left).
 */
export function doomedNotice(x: DoomedJob): { title: string; text: string } {
  const rel = x.minReliability.toFixed(2);
  const idle = 'Blocks you reserved for it cost −0.05 each if still idle at its deadline.';
  if (!x.partial || (x.lost && x.allocated === 0)) {
    const why = x.partial ? 'Nothing is allocated to it yet and nothing more can be' : 'It has no partial credit';
    return {
      title: `${x.jobId} can no longer be completed`,
      text: `It still needs ${x.missing} GPU-h at reliability ≥ ${rel}, and only ${x.left} GPU-h of such capacity is left in the whole market. ${why}, so it will settle as missed at its deadline and earns nothing. ${idle}`,
    };
  }
  if (x.lost) {
    return {
      title: `${x.jobId} can get no more GPU-hours`,
      text: `No capacity at reliability ≥ ${rel} is left in the market. It keeps its partial credit: ${x.allocated} of ${x.required} GPU-h, so it realises ${(x.secured - x.energy).toFixed(2)} credits at its deadline (${x.secured.toFixed(2)} of its value less ${x.energy.toFixed(2)} energy). ${idle}`,
    };
  }
  return {
    title: `${x.jobId} can no longer be completed in full`,
    text: `It still needs ${x.missing} GPU-h at reliability ≥ ${rel}, and ${x.left} GPU-h of such capacity is left in the whole market. It has partial credit, so every hour still counts: allocating all ${x.left} (buying what you do not hold) brings it to ${x.allocated + x.left} of ${x.required} GPU-h, up to ${x.reachable.toFixed(2)} credits of its value at its deadline (${x.secured.toFixed(2)} as allocated now), less the energy cost of the blocks it runs on.`,
  };
}

/** Private notices to the owners of jobs that became impossible at this close (src/match/doomed.ts). */
function doomedNotices(m: HostedMatch): PrivatePost[] {
  const out: PrivatePost[] = [];
  for (const x of m.lastRound?.doomed ?? []) {
    const d = m.drivers[x.owner];
    if (d?.kind !== 'human') continue;
    out.push({ userId: d.userId, ...doomedNotice(x) });
  }
  return out;
}

/** A ballot opened on the closing round's pitches: replaces the judge's scores in the round-close post. */
export interface BallotView {
  pitchesField: { name: string; value: string };
  buttons: Button[];
}

/**
 * Each person's private round post: every change to their reward this round (their steps and the close),
 * each with its reason, and the new total (the reward ledger, src/present/ledger.ts); then held or
 * forfeited pitch bonuses and the budget.
 */
function roundLedgers(m: HostedMatch, round: number, r?: RoundReport): PrivatePost[] {
  const s = m.state;
  const out: PrivatePost[] = [];
  const pay = r ? pitchPayLines(m, r).private : {};
  for (const [lab, d] of Object.entries(m.drivers)) {
    if (d.kind !== 'human' || !s?.labs[lab]) continue;
    // A finished seat hears only of rounds that still changed its reward (its finish step, pending pay).
    if (s.labs[lab]!.finished && !m.ledger?.entries.some((e) => e.lab === lab && e.round === round)) continue;
    out.push({
      userId: d.userId,
      title: `${labName(m, lab)}: your round ${round + 1} reward`,
      text: [
        ...roundLedgerLines(m, lab, round),
        ...(pay[lab] ?? []),
        `Budget ${s.labs[lab]!.budget.toFixed(2)} credits. \`me\` shows your whole ledger.`,
      ].join('\n'),
    });
  }
  return out;
}

/**
 * Round close as posted: the public results, then the final leaderboard (last round) or the next
 * round's open post; privately each person's breakdown. `m` is the match after the close; `ballot` set
 * when a ballot opened on the round's pitches (the judge's scores are then not shown).
 */
export function renderRoundClose(m: HostedMatch, r: RoundReport, reason: CloseReason, ballot?: BallotView): Reply {
  const maxRounds = m.state?.params.maxRounds ?? r.round + 1;
  const pub: Post[] = [closeSummary(m, r, reason, maxRounds, ballot)];
  pub.push(r.final ? renderFinalPost(m, r.leaderboard) : renderRoundOpen(m));
  // Direct messages sent during the round were delivered then; those of the close's scripted turns go now.
  const atClose = m.lastRound?.round === r.round ? m.lastRound.actions.filter((x) => x.atClose) : [];
  return {
    public: pub,
    private: [
      ...agentMessages(m, atClose),
      ...arrivalNotices(m, r),
      ...roundLedgers(m, r.round, r),
      ...doomedNotices(m),
    ],
  };
}

/** Agents' direct messages to people (people's own are delivered when sent, by the `message` command). */
export function agentMessages(m: HostedMatch, records: readonly ActionRecord[]): PrivatePost[] {
  return directMessagePosts(
    m,
    records.filter((x) => m.drivers[x.lab]?.kind !== 'human'),
  );
}

/** Said of a match whose seed its host chose, wherever the match is shown (docs/RULES.md §0). */
export const HOST_SEEDED =
  'Seeded by the host: the host may know every private value, so this match is practice, left out of ratings and research exports (unless the operator counts practice matches: config data.includeSeeded).';

/**
 * The seed, published when the match is over so anyone can replay it and check the world
 * (`npm start -- --task <task> --seed <seed>` plays the same world; the export has the whole log).
 */
export function seedLine(m: HostedMatch): string {
  const who = m.settings.hostSeeded ? 'chosen by the host' : 'the match secret, revealed now';
  return `Seed ${m.settings.seed} (${m.settings.task}; ${who}): \`npm start -- --task ${m.settings.task} --seed ${m.settings.seed}\` plays the same world.`;
}

/** The final leaderboard post. */
export function renderFinalPost(m: HostedMatch, rows: readonly { lab: LabId; cumulativeReward: number }[]): Post {
  const best = [...rows].sort((a, b) => b.cumulativeReward - a.cumulativeReward)[0];
  return {
    title: 'Match over: final leaderboard',
    text: `${best ? `Winner: ${seatLabel(m, best.lab)} with ${fmtReward(best.cumulativeReward)}.` : 'No seats.'} ${seedLine(m)}`,
    fields: [
      { name: 'Leaderboard', value: leaderboardText(m, rows) },
      // Public now: the match is over, so each seat's ledger no longer helps anyone play.
      ...(m.ledger
        ? [
            {
              name: 'How each seat scored',
              value: [...rows]
                .sort((a, b) => b.cumulativeReward - a.cumulativeReward)
                .map((x) => seatSummary(m, x.lab))
                .join('\n'),
            },
          ]
        : []),
    ],
    // The breakdown per seat is public only now: the match is over and its seed (which determines every private value) is revealed.
    charts: [standingsChart(m), breakdownChart(m)],
  };
}

/** A match ended by every seat finishing (not by a round close). */
export function renderOverByFinish(m: HostedMatch): Reply {
  return { public: [renderFinalPost(m, currentStandings(m))], private: m.state ? roundLedgers(m, m.state.round) : [] };
}

/** A match ended by its host (lobby: cancelled; running: standings so far, nothing more settles). */
export function renderEnded(m: HostedMatch, byName: string, wasRunning: boolean): Reply {
  if (!wasRunning)
    return { public: [{ title: 'Match cancelled', text: `${byName} cancelled the match in the lobby.` }], private: [] };
  return {
    public: [
      {
        title: 'Match ended by the host',
        text: `${byName} ended the match after ${m.state?.round ?? 0} closed round(s); nothing further settles.`,
        fields: [{ name: 'Standings', value: leaderboardText(m, currentStandings(m)) }],
      },
    ],
    private: [],
  };
}

/** What an agent seat did this round, in public words (src/present/narrate.ts), or why it waits. */
export function renderAgentActivity(
  m: HostedMatch,
  lab: LabId,
  outcome: { ok: true; records: readonly ActionRecord[] } | { ok: false; reason: string },
): Post {
  if (!outcome.ok)
    return { text: `${seatLabel(m, lab)} could not act (${outcome.reason}); the seat waits this round.` };
  const lines = narrate(m, outcome.records).flatMap((x) => x.lines);
  return {
    text: `${seatLabel(m, lab)} ${lines.length ? `acted:\n${lines.map((l) => `• ${l}`).join('\n')}\nIt is done for the round.` : 'took no action; it is done for the round.'}`,
  };
}
