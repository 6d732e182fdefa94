/**
 * Round-close lines that tell players when and why a pitch win pays (docs/RULES.md §6.5): a won bonus is
 * held on the jobs the pitch argued for and paid only when they settle completed (a share if partial).
 * Pure: reads the match and the round report, returns lines; the round host puts them in its posts.
 *
 * Public lines name only job ids the pitch named publicly or jobs that just settled (settlements are
 * public), and never a partial payment's amount (it would reveal the job's allocated share). Those details
 * go to the seat's private lines.
 */
import type { LabId } from '../engine/types.js';
import type { PitchBonusEvent, RoundReport } from '../engine/views.js';
import { labName } from './common.js';
import type { HostedMatch } from '../match/types.js';

/** Lines for one round close: `public` for the channel, `private` per seat (only that seat's owner). */
export interface PitchPayLines {
  public: string[];
  private: Record<LabId, string[]>;
}

/** The rule in one sentence, shown once when a bonus was held at this close. */
export const PITCH_PAY_RULE =
  'A pitch bonus is paid only when the job it argued for settles completed (a share if partly done); it is lost if the job is missed.';

const amt = (x: number): string => `+${x.toFixed(3)}`;
const list = (ids: readonly string[]): string =>
  ids.length <= 1 ? (ids[0] ?? '') : `${ids.slice(0, -1).join(', ')} and ${ids[ids.length - 1]!}`;

function addPrivate(out: PitchPayLines, lab: LabId, line: string): void {
  (out.private[lab] ??= []).push(line);
}

/** Lines for a judging close's events of one winner (held and forfeited at hold time). */
function wonLines(m: HostedMatch, lab: LabId, evs: readonly PitchBonusEvent[], out: PitchPayLines): void {
  const name = labName(m, lab);
  const held = evs.filter((e) => e.kind === 'held');
  const total = held.reduce((a, e) => a + e.amount, 0);
  const named = evs.some((e) => e.named === true);
  if (held.length > 0) {
    const ids = held.map((e) => e.jobId!);
    out.public.push(
      named
        ? `${name} won the pitch: ${amt(total)} held until ${list(ids)} ${ids.length > 1 ? 'settle' : 'settles'}.`
        : `${name} won the pitch: ${amt(total)} held on ${held.length === 1 ? 'one of its jobs' : `${held.length} of its jobs`} until ${held.length > 1 ? 'they settle' : 'it settles'}.`,
    );
    if (!named)
      addPrivate(
        out,
        lab,
        `Your pitch bonus is held on ${held.map((e) => `${e.jobId} (${amt(e.amount)})`).join(', ')}: paid for each one completed by its deadline.`,
      );
  }
  for (const e of evs) {
    if (e.kind !== 'forfeited') continue;
    if (e.reason === 'covered')
      out.public.push(
        `${name} won the pitch, but ${e.jobId ?? 'the job it named'} was already covered: ${amt(e.amount)} forfeited.`,
      );
    else if (e.reason === 'no_job')
      out.public.push(
        `${name} won the pitch, but it argued for no job still short of capacity: ${amt(e.amount)} forfeited.`,
      );
    else if (e.reason === 'cap') {
      const line = `${e.jobId} already holds the most a job can (0.15): ${amt(e.amount)} of ${name}'s bonus forfeited.`;
      if (named) out.public.push(line);
      else addPrivate(out, lab, line);
    }
  }
}

/** Lines for a settlement's events (paid or forfeited when the held job settled). */
function settledLines(m: HostedMatch, e: PitchBonusEvent, rest: readonly PitchBonusEvent[], out: PitchPayLines): void {
  const name = labName(m, e.lab);
  if (e.kind === 'paid' && e.reason === 'completed')
    out.public.push(`Held pitch bonus for ${e.jobId} paid to ${name}: ${amt(e.amount)} (job completed).`);
  else if (e.kind === 'paid') {
    out.public.push(`Held pitch bonus for ${e.jobId} partly paid to ${name} (partial credit).`);
    const lost = rest.find((x) => x.kind === 'forfeited' && x.jobId === e.jobId && x.lab === e.lab);
    addPrivate(
      out,
      e.lab,
      `Held bonus for ${e.jobId}: ${amt(e.amount)} paid${lost ? `, ${lost.amount.toFixed(3)} forfeited` : ''} (partial credit).`,
    );
  } else if (e.reason === 'missed')
    out.public.push(`Held pitch bonus for ${e.jobId} forfeited by ${name}: ${e.jobId} missed (${amt(e.amount)} lost).`);
}

/**
 * The public and private lines explaining this close's pitch bonuses (empty when none). With
 * `verdictHidden` (a ballot on this round's pitches is open) the public lines about who won are left out. Example public
 * lines: "Lab A won the pitch: +0.100 held until j_0_1 settles.", "Held pitch bonus for j_0_1 paid to
 * Lab A: +0.100 (job completed).", "Held pitch bonus for j_0_1 forfeited by Lab A: j_0_1 missed
 * (+0.100 lost)."
 */
export function pitchPayLines(m: HostedMatch, r: RoundReport, opts: { verdictHidden?: boolean } = {}): PitchPayLines {
  const out: PitchPayLines = { public: [], private: {} };
  const evs = r.pitchBonus ?? [];
  if (evs.length === 0) return out;
  // Events of the judging step come first (held, or forfeited as covered / no_job / cap).
  const atJudge = evs.filter(
    (e) => e.kind === 'held' || e.reason === 'covered' || e.reason === 'no_job' || e.reason === 'cap',
  );
  // While a ballot on this round's pitches is open, naming the winner would reveal the judge's verdict to
  // voters: the public lines of the judging step wait for the ballot's close; the winner's own
  // private lines stay (they say nothing about pairs the winner may vote on).
  const winners = [...new Set(atJudge.map((e) => e.lab))];
  const publicSink: string[] = [];
  for (const lab of winners)
    wonLines(
      m,
      lab,
      atJudge.filter((e) => e.lab === lab),
      { public: publicSink, private: out.private },
    );
  if (!opts.verdictHidden) {
    out.public.push(...publicSink);
    if (atJudge.some((e) => e.kind === 'held')) out.public.push(PITCH_PAY_RULE);
  }
  // A job held in this very close can also settle in it (due this round): under a hidden verdict its
  // settlement line would name the winner too, so it waits as well.
  const heldNow = new Set(atJudge.filter((e) => e.kind === 'held').map((e) => `${e.lab}:${e.jobId}`));
  const atSettle = evs.filter(
    (e) => !atJudge.includes(e) && !(opts.verdictHidden && heldNow.has(`${e.lab}:${e.jobId}`)),
  );
  for (const e of atSettle) settledLines(m, e, atSettle, out);
  return out;
}
