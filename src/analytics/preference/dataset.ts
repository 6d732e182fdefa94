/**
 * A match folded for preference data: per round, the public state the round opened with, the pitches
 * (from the round's ballot, else from the engine), the judge's decision as stored in `round_closed`
 * (public subset only), the rule judge's decision recomputed on the same state (for LLM-vs-rule
 * agreement and the claim check), every seat's turn (observation + actions, for demonstrations), and the
 * match's votes. Each pitch carries the text voters were shown (redacted, src/voting/ballots/blind.ts) and
 * each vote whether its pair was anonymous: the stored flag, or for a vote cast before the flag existed,
 * the checker's reading of the raw texts its voter saw. Pure: a fold of a stored event log and vote list,
 * no store, no clock.
 */
import { observe } from '../../engine/index.js';
import type { JudgeDecision, LabId, MatchState } from '../../engine/types.js';
import type { Observation } from '../../engine/views.js';
import type { SeatDriver, StoredEvent } from '../../events/schema.js';
import { JudgeDecisionSchema, publicDecision } from '../../engine/judge/decision.js';
import { ruleJudge } from '../../engine/judge/rule-judge.js';
import { applyEvent } from '../../match/replay.js';
import type { HostedMatch } from '../../match/types.js';
import type { VoteRecord } from '../../store/types.js';
import {
  blindPitch,
  identifyingLeft,
  identitiesOf,
  type BlindText,
  type SeatIdentity,
} from '../../voting/ballots/blind.js';
import { scriptedTurns, type SeatTurn } from './scripted-turn.js';

/** Who wrote a pitch or played a seat: `person`, `llm:<model>` or `scripted:<policy>`. */
export type AuthorKind = 'person' | `llm:${string}` | `scripted:${string}`;

/** A pitch of a round, with its stable id `p<round>_<lab>`. */
export interface PitchEntry {
  id: string;
  round: number;
  lab: LabId;
  kind: 'pitch' | 'counter_pitch';
  text: string;
  jobIds: string[];
  replyTo: LabId | null;
  /** The pitch as a ballot shows it: redacted text and what still identifies its author. */
  shown: BlindText;
}

/** A vote with its `anonymous` flag resolved (stored, or read from the raw texts for votes cast before the flag). */
export type FoldedVote = Omit<VoteRecord, 'anonymous'> & { anonymous: boolean };

/** A canonical pair of one round's pitches (`a.id` < `b.id`); `ballotId`/`pair` when a ballot held it. */
export interface PairEntry {
  round: number;
  ballotId: string | null;
  /** 1-based index in the ballot, or null when the match had no ballot for the round. */
  pair: number | null;
  a: PitchEntry;
  b: PitchEntry;
}

/** Everything exports and stats need about one closed round. */
export interface RoundData {
  round: number;
  /** The state when the round opened (public context of its pitches; seats' observations for demonstrations). */
  openState: MatchState;
  pitches: PitchEntry[];
  pairs: PairEntry[];
  /** The decision the round used (`round_closed.judge`), public subset (no model rationales); null = nobody pitched. */
  judge: JudgeDecision | null;
  /** The rule judge's decision on the same state (= `judge` when the rule judge decided). */
  rule: JudgeDecision | null;
  /** Each driven and scripted seat's turn this round, in the order they acted. */
  turns: SeatTurn[];
}

/** A match folded for exports and stats. */
export interface MatchData {
  matchId: string;
  channelId: string;
  platform: string;
  task: string;
  /** The host chose the seed (practice): left out of research data unless config `data.includeSeeded` (selection.ts). */
  hostSeeded: boolean;
  /** Seat drivers as stored (holds platform user ids: never write these to an export). */
  drivers: Record<LabId, SeatDriver>;
  rounds: RoundData[];
  votes: FoldedVote[];
}

/** The author kind of a seat driver. */
export function authorKind(d: SeatDriver | undefined): AuthorKind {
  if (!d || d.kind === 'human') return 'person';
  return d.kind === 'llm' ? `llm:${d.model}` : `scripted:${d.policy}`;
}

/** The stable id of a lab's pitch in a round (the ballot's pitch id). */
export const pitchId = (round: number, lab: LabId): string => `p${round}_${lab}`;

/** Every canonical pair (`a.id` < `b.id`) of `pitches`, in the ballot's order (sorted by a, then b). */
export function canonicalPairs(round: number, pitches: readonly PitchEntry[]): PairEntry[] {
  const sorted = [...pitches].sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  const out: PairEntry[] = [];
  for (let i = 0; i < sorted.length; i++)
    for (let j = i + 1; j < sorted.length; j++)
      out.push({ round, ballotId: null, pair: null, a: sorted[i]!, b: sorted[j]! });
  return out;
}

interface Ballot {
  ballotId: string;
  round: number;
  pitches: PitchEntry[];
  pairs: [string, string][];
}

/** The pitch entry of a pitch record, with its blind text under the seats `ids`. */
const entry = (p: Omit<PitchEntry, 'shown'>, ids: readonly SeatIdentity[]): PitchEntry => ({
  ...p,
  jobIds: [...p.jobIds],
  shown: blindPitch(p.text, p.lab, ids),
});

/**
 * Fold a match's stored events (seq order) and its votes. Ballot events are read here and otherwise
 * skipped by the fold (they never change the engine state). Throws the replay's `ReplayError` on a
 * corrupt log.
 */
export function foldMatch(events: readonly StoredEvent[], votes: readonly VoteRecord[] = []): MatchData | null {
  let m: HostedMatch | null = null;
  let openState: MatchState | null = null;
  let turns = new Map<LabId, SeatTurn>();
  const closed: Omit<RoundData, 'pitches' | 'pairs'>[] = [];
  const derived = new Map<number, PitchEntry[]>();
  const ballots = new Map<number, Ballot>();
  const seats = new Map<number, SeatIdentity[]>();
  for (const ev of events) {
    const body = ev.body;
    const cur: HostedMatch | null = m;
    if (body.type === 'ballot_opened' || body.type === 'ballot_closed') {
      if (body.type === 'ballot_opened' && cur?.state) {
        const ids = identitiesOf(cur.state, cur.drivers);
        seats.set(body.round, ids);
        ballots.set(body.round, {
          ballotId: body.ballotId,
          round: body.round,
          pitches: body.pitches.map((p) => entry({ ...p, round: body.round }, ids)),
          pairs: body.pairs,
        });
      }
      m = cur && skipped(cur, ev.seq);
      continue;
    }
    const before: HostedMatch | null = cur;
    if (before?.state && body.type === 'action' && !before.state.labs[body.lab]?.finished) {
      // A seat's demonstration starts from what it saw before its first action of the round.
      let turn = turns.get(body.lab);
      if (!turn)
        turns.set(body.lab, (turn = { lab: body.lab, observation: observe(before.state, body.lab), actions: [] }));
      const step = applyEvent(before, ev);
      turn.actions.push({ action: body.action, ok: step.result?.ok ?? false });
      m = step.match;
      continue;
    }
    if (before?.state && body.type === 'round_closed') {
      const state = before.state;
      const scripted = scriptedTurns(state);
      const rule = ruleJudge.judge(scripted.after);
      const parsed = body.judge == null ? null : JudgeDecisionSchema.safeParse(body.judge);
      closed.push({
        round: body.round,
        openState: openState ?? state,
        judge: parsed?.success ? publicDecision(parsed.data) : null,
        rule,
        turns: [...turns.values(), ...scripted.turns],
      });
      const ids = identitiesOf(state, before.drivers);
      if (!seats.has(body.round)) seats.set(body.round, ids);
      derived.set(
        body.round,
        scripted.after.pitches
          .filter((p) => p.round === body.round)
          .map((p) =>
            entry(
              {
                id: pitchId(p.round, p.lab),
                round: p.round,
                lab: p.lab,
                kind: p.replyTo ? 'counter_pitch' : 'pitch',
                text: p.text,
                jobIds: p.jobIds,
                replyTo: p.replyTo,
              },
              ids,
            ),
          ),
      );
      turns = new Map();
    }
    m = applyEvent(before, ev).match;
    if (body.type === 'match_started' || body.type === 'round_closed') openState = m.state;
  }
  if (!m) return null;
  const rounds: RoundData[] = closed.map((r) => {
    const ballot = ballots.get(r.round);
    const pitches = ballot ? ballot.pitches : (derived.get(r.round) ?? []);
    return { ...r, pitches, pairs: ballot ? ballotPairs(ballot) : canonicalPairs(r.round, pitches) };
  });
  const texts = new Map(rounds.flatMap((r) => r.pitches.map((p) => [p.id, p.text] as const)));
  // A vote cast before the flag existed: its voter saw the raw texts, so the checker reads those.
  const rawAnonymous = (v: VoteRecord) =>
    [v.pitchA, v.pitchB].every((id) => identifyingLeft(texts.get(id) ?? '', seats.get(v.round) ?? []).length === 0);
  const folded = votes.map((v) => ({ ...v, anonymous: v.anonymous ?? rawAnonymous(v) }));
  return {
    matchId: m.id,
    channelId: m.channelId,
    platform: m.platform,
    task: m.settings.task,
    hostSeeded: m.settings.hostSeeded === true,
    drivers: m.drivers,
    rounds,
    votes: folded,
  };
}

/** The match after an event the fold skips (a ballot event): only its position in the log moves. */
const skipped = (m: HostedMatch, seq: number): HostedMatch => ({ ...m, lastSeq: seq });

function ballotPairs(b: Ballot): PairEntry[] {
  const byId = new Map(b.pitches.map((p) => [p.id, p]));
  const out: PairEntry[] = [];
  b.pairs.forEach(([x, y], i) => {
    const a = byId.get(x);
    const bb = byId.get(y);
    if (a && bb) out.push({ round: b.round, ballotId: b.ballotId, pair: i + 1, a, b: bb });
  });
  return out;
}

/** The seat's observation type, re-exported for export code. */
export type { Observation };
