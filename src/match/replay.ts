/**
 * The match state as a pure fold of its event log through the engine (no clock, no judge, no I/O):
 * the same events always give the same {@link HostedMatch}, byte for byte. The host uses
 * {@link applyEvent} for the events it appends (to get the action result or round report) and
 * {@link replay} to load a log.
 */
import { PLAYABLE_RULES, applyAction, closeRound, createMatch } from '../engine/index.js';
import { CodedError } from '../errors/coded-error.js';
import { JudgeDecisionSchema, publicDecision } from '../engine/judge/decision.js';
import type { ActionResult, JudgeDecision, LabId, MatchState, PolicyName, RulesVersion } from '../engine/types.js';
import type { RoundReport } from '../engine/views.js';
import type { Ballot } from '../voting/ballots/types.js';
import { blindPitch, identitiesOf } from '../voting/ballots/blind.js';
import { emptyLedger, ledgerClose, ledgerStep } from './ledger.js';
import { doomedJobs, type DoomedJob } from './doomed.js';
import {
  MatchEventSchema,
  SeatDriverSchema,
  type ActionRecord,
  type HostedMatch,
  type MatchEventBody,
  type SeatDriver,
  type StoredEvent,
} from './types.js';

/** What the match layer throws: `corrupt_log`, an event does not fit the log; `old_rules`, the match was played under other engine rules. */
export type ReplayErrorCode = 'corrupt_log' | 'old_rules';

/** A log that cannot be folded (wrong first event, event for an unknown lab, engine rejected the config…). */
export class ReplayError extends CodedError<ReplayErrorCode> {
  override readonly name = 'ReplayError';

  constructor(
    readonly matchId: string,
    readonly seq: number,
    message: string,
    code: ReplayErrorCode = 'corrupt_log',
  ) {
    super(code, `match ${matchId} event ${seq}: ${message}`);
  }
}

/** One fold step: the new match, plus the engine's output for action and round_closed events. */
export interface FoldStep {
  match: HostedMatch;
  result?: ActionResult;
  report?: RoundReport;
}

/** When the round opened at `at` closes by timer (ms since epoch), or null when `roundSeconds` is 0. */
export const deadlineAfter = (at: string, roundSeconds: number): number | null =>
  roundSeconds > 0 ? Date.parse(at) + roundSeconds * 1000 : null;

/**
 * Fold one event onto `m` (null before the first event). Copy-on-write: `m` is not mutated.
 * Throws {@link ReplayError} when the event does not fit the log.
 */
export function applyEvent(m: HostedMatch | null, ev: StoredEvent): FoldStep {
  const bad = (msg: string) => new ReplayError(ev.matchId, ev.seq, msg);
  const parsed = MatchEventSchema.safeParse(ev.body);
  if (!parsed.success) throw bad(`invalid event: ${parsed.error.message}`);
  const body = parsed.data;
  if (m === null) {
    if (body.type !== 'match_created') throw bad('the first event must be match_created');
    return {
      match: {
        id: ev.matchId,
        channelId: body.channelId,
        platform: body.platform,
        hostUserId: body.hostUserId,
        ...(body.parentChannelId !== undefined ? { parentChannelId: body.parentChannelId } : {}),
        ...(body.cardMessageId !== undefined ? { cardMessageId: body.cardMessageId } : {}),
        ...(body.spaceId !== undefined ? { spaceId: body.spaceId } : {}),
        settings: body.settings,
        phase: 'lobby',
        drivers: {},
        done: [],
        state: null,
        roundDeadline: null,
        lastSeq: ev.seq,
        lastJudge: null,
        ballots: [],
        endedAt: null,
      },
    };
  }
  if (ev.seq !== m.lastSeq + 1) throw bad(`expected seq ${m.lastSeq + 1}`);
  const base = { ...m, lastSeq: ev.seq };
  if (body.type === 'ballot_opened' || body.type === 'ballot_closed' || body.type === 'ballot_deadline')
    return { match: foldBallot(m, base, body, ev.at, bad) };
  // Only ballot events follow a match's end (a ballot stays open for votes after it).
  if (m.phase === 'over') throw bad('event after the match ended');
  switch (body.type) {
    case 'match_created':
      throw bad('match_created twice');
    case 'seat_claimed':
    case 'seat_assigned': {
      if (m.phase !== 'lobby') throw bad(`${body.type} outside the lobby`);
      const driver: SeatDriver =
        body.type === 'seat_claimed'
          ? { kind: 'human', userId: body.userId, displayName: body.displayName }
          : body.driver.kind === 'llm'
            ? { kind: 'llm', model: body.driver.model }
            : { kind: 'scripted', policy: body.driver.policy as PolicyName };
      return { match: { ...base, drivers: { ...m.drivers, [body.lab]: driver } } };
    }
    case 'match_started': {
      if (m.phase !== 'lobby') throw bad('match_started twice');
      const rules = body.rulesVersion ?? 1;
      if (!(PLAYABLE_RULES as readonly number[]).includes(rules)) {
        const why = `played under engine rules v${rules}; this engine plays v${PLAYABLE_RULES.join(' and v')} (docs/RULES.md §0), so its rewards would not replay`;
        throw new ReplayError(ev.matchId, ev.seq, why, 'old_rules');
      }
      const drivers: Record<LabId, SeatDriver> = {};
      for (const [lab, raw] of Object.entries(body.drivers)) {
        const d = SeatDriverSchema.safeParse(raw);
        if (!d.success) throw bad(`invalid driver for ${lab}`);
        drivers[lab] = d.data.kind === 'scripted' ? { kind: 'scripted', policy: d.data.policy as PolicyName } : d.data;
      }
      const scripted: Record<LabId, PolicyName> = {};
      for (const [lab, d] of Object.entries(drivers)) if (d.kind === 'scripted') scripted[lab] = d.policy;
      const { task, seed, holdout } = m.settings;
      let state;
      try {
        state = createMatch({ task, seed, holdout, scripted, rules: rules as RulesVersion });
      } catch (e) {
        throw bad(`engine rejected the config: ${e instanceof Error ? e.message : String(e)}`);
      }
      const missing = state.labIds.filter((lab) => !drivers[lab]);
      if (missing.length > 0) throw bad(`no driver for ${missing.join(', ')}`);
      return {
        match: {
          ...base,
          phase: 'running',
          drivers,
          done: [],
          state,
          roundDeadline: deadlineAfter(ev.at, m.settings.roundSeconds),
        },
      };
    }
    case 'action': {
      const state = running(m, bad);
      if (!state.labs[body.lab]) throw bad(`unknown lab ${body.lab}`);
      const out = applyAction(state, body.lab, body.action);
      const ledger = ledgerStep(
        m.ledger ?? emptyLedger(),
        ev.seq,
        state.round,
        body.lab,
        actionTypeOf(body.action),
        out.result,
      );
      const rec = actionRecord(ev.seq, state.round, body.lab, body.action, out.result);
      return {
        match: {
          ...base,
          state: out.state,
          ledger,
          roundActions: [...(m.roundActions ?? []), rec],
          ...(out.state.over ? { phase: 'over' as const, roundDeadline: null, endedAt: Date.parse(ev.at) } : {}),
        },
        result: out.result,
      };
    }
    case 'seat_done': {
      const state = running(m, bad);
      if (!state.labs[body.lab]) throw bad(`unknown lab ${body.lab}`);
      if (m.done.includes(body.lab)) return { match: base };
      return {
        match: {
          ...base,
          done: [...m.done, body.lab],
          ...(body.auto ? { autoDone: [...(m.autoDone ?? []), body.lab] } : {}),
        },
      };
    }
    case 'seat_undone': {
      const state = running(m, bad);
      if (!state.labs[body.lab]) throw bad(`unknown lab ${body.lab}`);
      const undone = (m.undone ?? []).includes(body.lab) ? (m.undone ?? []) : [...(m.undone ?? []), body.lab];
      return {
        match: {
          ...base,
          done: m.done.filter((l) => l !== body.lab),
          autoDone: (m.autoDone ?? []).filter((l) => l !== body.lab),
          undone,
        },
      };
    }
    case 'seat_setting': {
      const state = running(m, bad);
      if (!state.labs[body.lab]) throw bad(`unknown lab ${body.lab}`);
      const off = (m.autoDoneOff ?? []).filter((l) => l !== body.lab);
      return { match: { ...base, autoDoneOff: body.autoDone ? off : [...off, body.lab] } };
    }
    case 'round_judging': {
      const state = running(m, bad);
      if (body.round !== state.round)
        throw bad(`round_judging for round ${body.round} while round ${state.round} is open`);
      return { match: { ...base, judging: { round: body.round, reason: body.reason, since: Date.parse(ev.at) } } };
    }
    case 'round_closed': {
      const state = running(m, bad);
      if (body.round !== state.round)
        throw bad(`round_closed for round ${body.round} while round ${state.round} is open`);
      let judge: JudgeDecision | null = null;
      if (body.judge != null) {
        const parsed = JudgeDecisionSchema.safeParse(body.judge);
        if (!parsed.success) throw bad(`invalid judge decision for round ${body.round}`);
        // The state (and so every observation) keeps the public part; the full decision stays in the log.
        judge = publicDecision(parsed.data);
      }
      const out = closeRound(state, { judge });
      const over = out.state.over;
      return {
        match: {
          ...base,
          state: out.state,
          done: [],
          judging: null,
          lastJudge: judge,
          autoDone: [],
          undone: [],
          phase: over ? 'over' : 'running',
          roundDeadline: over ? null : deadlineAfter(ev.at, m.settings.roundSeconds),
          endedAt: over ? Date.parse(ev.at) : null,
          doomed: [...(m.doomed ?? []), ...newlyDoomed(m.doomed ?? [], out.state).map(doomKey)],
          ledger: ledgerClose(m.ledger ?? emptyLedger(), ev.seq, out.report),
          roundActions: [],
          lastRound: {
            round: body.round,
            doomed: newlyDoomed(m.doomed ?? [], out.state),
            actions: [
              ...(m.roundActions ?? []),
              ...out.report.scriptedActions.map((a) => ({
                ...actionRecord(ev.seq, body.round, a.lab, a.action ?? { action_type: a.action_type }, a),
                atClose: true as const,
              })),
            ],
          },
          standings: [
            ...(m.standings ?? []),
            {
              round: body.round + 1,
              rows: out.report.leaderboard.map((x) => ({
                lab: x.lab,
                cumulativeReward: x.cumulativeReward,
                breakdown: out.report.rewards[x.lab],
              })),
            },
          ],
        },
        report: out.report,
      };
    }
    case 'match_ended':
      return { match: { ...base, phase: 'over', roundDeadline: null, endedAt: Date.parse(ev.at) } };
  }
}

type BallotEvent = Extract<MatchEventBody, { type: 'ballot_opened' | 'ballot_closed' | 'ballot_deadline' }>;

/** Fold a ballot event (allowed while running and after the match ended). */
function foldBallot(
  m: HostedMatch,
  base: HostedMatch,
  body: BallotEvent,
  at: string,
  bad: (msg: string) => ReplayError,
): HostedMatch {
  const ballots = m.ballots;
  if (body.type === 'ballot_opened') {
    if (m.phase === 'lobby' || !m.state) throw bad('ballot_opened before the match started');
    if (ballots.some((b) => b.id === body.ballotId || b.round === body.round))
      throw bad(`ballot ${body.ballotId} opened twice`);
    const ids = new Set(body.pitches.map((p) => p.id));
    if (body.pairs.some(([a, b]) => !ids.has(a) || !ids.has(b) || !(a < b)))
      throw bad(`ballot ${body.ballotId} has a pair of unknown or unordered pitches`);
    const closesAt = body.closesAt === null ? null : Date.parse(body.closesAt);
    const judge = m.lastJudge?.round === body.round ? m.lastJudge : null;
    // What voters see: each pitch redacted by the seats' names as they are when the ballot opens.
    const seats = identitiesOf(m.state, m.drivers);
    const ballot: Ballot = {
      id: body.ballotId,
      round: body.round,
      pitches: body.pitches.map((p) => ({ ...p, jobIds: [...p.jobIds] })),
      pairs: body.pairs.map(([a, b]) => [a, b] as [string, string]),
      openedAt: Date.parse(at),
      closesAt,
      closed: null,
      judge,
      blind: Object.fromEntries(body.pitches.map((p) => [p.id, blindPitch(p.text, p.lab, seats)])),
    };
    return { ...base, ballots: [...ballots, ballot] };
  }
  const i = ballots.findIndex((b) => b.id === body.ballotId);
  const cur = ballots[i];
  if (!cur) throw bad(`${body.type} for unknown ballot ${body.ballotId}`);
  if (cur.closed) throw bad(`${body.type} for closed ballot ${body.ballotId}`);
  const next: Ballot =
    body.type === 'ballot_closed'
      ? { ...cur, closed: { reason: body.reason, at: Date.parse(at) } }
      : { ...cur, closesAt: Date.parse(body.closesAt) };
  return { ...base, ballots: ballots.map((b, j) => (j === i ? next : b)) };
}

/** Jobs that became impossible at this close (not announced before). */
/**
 * Jobs to announce at this close: newly incomplete ones, and a partial-credit job once more when it can
 * no longer earn anything (announced keys: the job id, then `<id>:lost`).
 */
function newlyDoomed(announced: readonly string[], s: MatchState): DoomedJob[] {
  return s.over ? [] : doomedJobs(s).filter((x) => !announced.includes(doomKey(x)));
}

/** The key under which a job's announcement is remembered (see {@link newlyDoomed}). */
const doomKey = (x: DoomedJob): string => (x.lost ? `${x.jobId}:lost` : x.jobId);

/** A step as the round's narration needs it (src/present/narrate.ts). */
function actionRecord(
  seq: number,
  round: number,
  lab: LabId,
  action: unknown,
  r: { ok: boolean; code: string; created?: { offerId?: string; coalitionId?: string } },
): ActionRecord {
  return { seq, round, lab, action, ok: r.ok, code: r.code, ...(r.created ? { created: r.created } : {}) };
}

/** The action type named by a raw logged action ('malformed' when it names none). */
export function actionTypeOf(action: unknown): string {
  const t =
    typeof action === 'object' && action !== null ? (action as { action_type?: unknown }).action_type : undefined;
  return typeof t === 'string' ? t : 'malformed';
}

function running(m: HostedMatch, bad: (msg: string) => ReplayError) {
  if (m.phase !== 'running' || !m.state) throw bad('the match is not running');
  return m.state;
}

/** Fold `events` (ordered by seq) onto `from` (null = from the start). Returns null for an empty log. */
export function replay(events: readonly StoredEvent[], from: HostedMatch | null = null): HostedMatch | null {
  let m = from;
  for (const ev of events) m = applyEvent(m, ev).match;
  return m;
}

/** Seats driven by a person or an agent (the ones a round waits for), in seat order. */
export function drivenSeats(m: HostedMatch): LabId[] {
  const order = m.state?.labIds ?? Object.keys(m.drivers);
  return order.filter((lab) => {
    const d = m.drivers[lab];
    return d !== undefined && d.kind !== 'scripted';
  });
}

/** Driven seats that have not said `done` this round and have not finished. */
export function pendingSeats(m: HostedMatch): LabId[] {
  return drivenSeats(m).filter((lab) => !m.done.includes(lab) && !m.state?.labs[lab]?.finished);
}

/** The seat a person holds in `m`, or null. */
export function seatOfUser(m: HostedMatch, userId: string): LabId | null {
  for (const [lab, d] of Object.entries(m.drivers)) if (d.kind === 'human' && d.userId === userId) return lab;
  return null;
}
