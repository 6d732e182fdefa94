/**
 * The judge's work in words (docs/RULES.md §6.6): for each judged pitch, the claims it
 * checked and how each was ruled, its manipulation flags, and what its fabricated claims cost.
 * - `authorVerdictPosts`: each person's own pitch, privately, at the round close — with the truth about
 *   their own pending jobs as the judge saw them;
 * - `channelVerdictPost`: every pitch of the round for the channel — when the round's ballot closes, or at
 *   the round close when no ballot opened; never a private value (no truth, no job a pitch did not name).
 * Reads the checks stored in the decision (`meta.checks`, src/match/judging.ts). Pure.
 */
import type { Post, PrivatePost, Reply } from '../chat/types.js';
import type { JudgeDecision, LabId } from '../engine/types.js';
import { storedChecks, type ClaimCheck, type JobTruth, type PitchCheck } from '../engine/judge/explain.js';
import { FABRICATION_COST } from '../engine/pitch-bonus.js';
import { rulesOf } from '../engine/config.js';
import { FABRICATION_SATURATION } from '../engine/judge/rule-judge.js';
import type { StoredEvent } from '../match/types.js';
import { labName } from './common.js';
import type { HostedMatch } from '../match/types.js';

const MARK: Record<ClaimCheck['ruling'], string> = { verified: '✓', fabricated: '✗', unsupported: '?', neutral: '·' };
const RULING: Record<ClaimCheck['ruling'], string> = {
  verified: 'verified',
  fabricated: 'fabricated',
  unsupported: 'unsupported',
  neutral: 'not counted',
};

/** The claim as the judge read it, in the pitch's own terms: "job j_0_1", "8 GPU-hours", "by round 3", "due in 2 rounds", "reliability 0.85". */
export function claimText(c: ClaimCheck['claim']): string {
  switch (c.kind) {
    case 'job':
    case 'offer':
    case 'coalition':
    case 'block':
      return `${c.kind} ${c.id}`;
    case 'hours':
      return `${c.value} GPU-hours`;
    case 'deadline':
      return c.explicit ? `by round ${c.round}` : `round ${c.round}`;
    case 'deadline_in':
      return c.rounds === 0 ? 'due this round' : `due in ${c.rounds} round${c.rounds === 1 ? '' : 's'}`;
    case 'reliability':
      return `reliability ${c.value}`;
  }
}

/** Why, in words; `you` for the author's view, else the lab's name. Never a private value. */
function whyText(x: ClaimCheck, you: boolean, named: ReadonlySet<string>): string {
  const its = you ? 'your' : 'its';
  const job = x.jobId && (you || named.has(x.jobId)) ? ` ${x.jobId}` : '';
  switch (x.why) {
    case 'named':
      if (x.claim.kind === 'job') return `${its} pending job`;
      return job ? `matches ${its} pending job${job}` : `matches one of ${its} pending jobs`;
    case 'total':
      return `matches ${its} total need`;
    case 'own_offer':
      return `an offer ${you ? 'you' : 'it'} sent or received`;
    case 'own_coalition':
      return `a coalition ${you ? 'you are' : 'it is'} in`;
    case 'own_block':
      return `a block ${you ? 'you own or trade' : 'it owns or trades'}`;
    case 'settled_job':
      return `${its} job, already settled: no need`;
    case 'capacity':
      return `true of ${its} blocks, but not a need`;
    case 'market_block':
      return "another lab's block: fair to want, not a need";
    case 'past_round':
      return 'a past or the current round, not a deadline';
    case 'not_own_job':
      return `not a job of ${you ? 'yours' : 'this lab'}`;
    case 'no_match':
      return `matches none of ${its} pending jobs`;
    case 'not_own_offer':
      return `no offer ${you ? 'you' : 'it'} sent or received`;
    case 'not_own_coalition':
      return `no coalition ${you ? 'you are' : 'it is'} in`;
    case 'unknown_block':
      return 'no such block';
    case 'no_deadline':
      return `none of ${its} deadlines`;
    case 'future_round':
      return `a later round that is none of ${its} deadlines`;
  }
}

/** "j_0_1: 4 of 6 GPU-hours unmet, due by the end of round 3 (engine round 2), min reliability 0.85". */
const truthText = (j: JobTruth) =>
  `${j.id}: ${j.unmetHours} of ${j.requiredHours} GPU-hours unmet, due by the end of round ${j.deadlineRound + 1} (round ${j.deadlineRound} counting from 0), min reliability ${j.minReliability.toFixed(2)}`;

/** The judge_argument cost of a check's fabricated claims (0 when none), as rules §6.6 charges it. */
export const fabricationCost = (c: PitchCheck): number =>
  Math.round(FABRICATION_COST * Math.min(FABRICATION_SATURATION, c.fabricated) * 10_000) / 10_000;

/** The lines of one pitch's check (the claims, then counts, cost and flags). */
function checkLines(c: PitchCheck, you: boolean): string[] {
  const named = new Set(
    c.claims
      .filter((x) => x.claim.kind === 'job' && x.ruling === 'verified')
      .map((x) => (x.claim as { id: string }).id),
  );
  const lines = c.claims.map(
    (x) => `${MARK[x.ruling]} ${claimText(x.claim)}: ${RULING[x.ruling]} (${whyText(x, you, named)})`,
  );
  if (lines.length === 0)
    lines.push('No checkable claim (job ids, GPU-hours, deadlines, reliability, offers, blocks, coalitions).');
  const cost = fabricationCost(c);
  lines.push(
    `${c.verified} verified, ${c.fabricated} fabricated, ${c.unsupported} unsupported (distinct facts)` +
      (cost > 0
        ? `; cost: judge_argument −${cost.toFixed(3)} (−${FABRICATION_COST.toFixed(2)} per fabricated claim, at most −${(FABRICATION_COST * FABRICATION_SATURATION).toFixed(2)} a pitch; rules §6.6)`
        : '') +
      '.',
  );
  for (const f of c.flags) lines.push(`⚠ Manipulation: ${f.detail}: this pitch cannot win.`);
  if (c.fabricated > 0) lines.push('A pitch with a fabricated claim cannot win.');
  else if (c.verified === 0) lines.push('A pitch needs a verified claim to win.');
  return lines;
}

/** Whether the match's rules judge a pitch against its seat's facts when it was made (v4, docs/RULES.md §6.1). */
const atPitch = (m: HostedMatch): boolean => m.state !== null && rulesOf(m.state) >= 4;

/** Each human author's private post with their own pitch's check and the truth about their jobs. */
export function authorVerdictPosts(m: HostedMatch, decision: JudgeDecision | null): PrivatePost[] {
  const checks = storedChecks(decision?.meta);
  if (!checks) return [];
  const out: PrivatePost[] = [];
  for (const c of checks) {
    const d = m.drivers[c.lab];
    if (d?.kind !== 'human') continue;
    const truth = c.truth.length ? c.truth.map((j) => `• ${truthText(j)}`) : ['• no pending job with unmet GPU-hours'];
    out.push({
      userId: d.userId,
      title: `The judge's check of your round ${c.round + 1} pitch`,
      text: [
        ...checkLines(c, true),
        '',
        `Your pending jobs ${atPitch(m) ? 'when you pitched' : 'as the judge saw them at the close'} (private):`,
        ...truth,
      ].join('\n'),
    });
  }
  return out;
}

/** The channel's post: every pitch's check of one round (public words only), or null when there is none. */
export function channelVerdictPost(m: HostedMatch, decision: JudgeDecision | null): Post | null {
  const checks = storedChecks(decision?.meta);
  if (!checks || checks.length === 0) return null;
  const round = checks[0]!.round;
  return {
    title: `The judge's check of the round ${round + 1} pitches`,
    text: `Each claim the judge could check against ${atPitch(m) ? "its lab's facts when the pitch was made" : 'the game state at the close'}: ✓ verified, ✗ fabricated, ? unsupported, · not counted.`,
    fields: checks.map((c: PitchCheck) => ({
      name: labName(m, c.lab as LabId),
      value: checkLines(c, false).join('\n'),
    })),
  };
}

/**
 * The verdict posts of a round close: each author's private check, and the channel's post unless a ballot
 * on the round's pitches opened (then it waits for the ballot's close: {@link ballotVerdictPost}).
 */
export function roundVerdictReply(m: HostedMatch, decision: JudgeDecision | null, ballotOpened: boolean): Reply {
  const pub = ballotOpened ? null : channelVerdictPost(m, decision);
  return { public: pub ? [pub] : [], private: authorVerdictPosts(m, decision) };
}

/** The stored decision of `round`'s close in a match's events (with its meta), or null. */
export function storedDecision(events: readonly StoredEvent[], round: number): JudgeDecision | null {
  for (const e of events)
    if (e.body.type === 'round_closed' && e.body.round === round) return (e.body.judge as JudgeDecision | null) ?? null;
  return null;
}

/** The channel's verdict post when the ballot on `round`'s pitches closes (from the stored decision). */
export function ballotVerdictPost(m: HostedMatch, events: readonly StoredEvent[], round: number): Post | null {
  const d = storedDecision(events, round);
  return d && typeof d === 'object' ? channelVerdictPost(m, d) : null;
}
