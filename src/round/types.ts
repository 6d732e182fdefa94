/**
 * Contracts of the round host: the event log of a match and the host's API that the command catalogue
 * calls. Terms: a *match* is one hosted game in one channel; a *round* is the engine's round_index.
 */
import { z } from 'zod';
import type { JudgeDecision, LabId, MatchState, PolicyName, TaskName } from '../env/types';
import type { Caller, Reply } from '../commands/types';

/** Who drives a seat. */
export type SeatDriver =
  | { kind: 'human'; userId: string; displayName: string }
  | { kind: 'scripted'; policy: PolicyName }
  | { kind: 'llm'; model: string };

/** Parses a stored {@link SeatDriver} (e.g. the values of `match_started.drivers`). Policy names are checked by the engine. */
export const SeatDriverSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('human'), userId: z.string(), displayName: z.string() }),
  z.object({ kind: z.literal('scripted'), policy: z.string() }),
  z.object({ kind: z.literal('llm'), model: z.string() }),
]);

/** Lobby settings chosen with `new`. */
export interface MatchSettings {
  task: TaskName;
  seed: number;
  /** Round timer in seconds; 0 = no timer (rounds close when every human/agent seat is done). */
  roundSeconds: number;
  holdout: boolean;
}

/**
 * Events of a match's log, in order. The match state is a pure replay of them through the engine.
 * `at` is an ISO timestamp (informational; replay never reads the clock).
 */
export const MatchEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('match_created'),
    channelId: z.string(),
    platform: z.string(),
    hostUserId: z.string(),
    settings: z.object({ task: z.enum(['single_trade', 'market_round', 'coalition_market']), seed: z.number().int().nonnegative(), roundSeconds: z.number().int().nonnegative(), holdout: z.boolean() }),
  }),
  z.object({ type: z.literal('seat_claimed'), lab: z.string(), userId: z.string(), displayName: z.string() }),
  z.object({ type: z.literal('seat_assigned'), lab: z.string(), driver: z.union([z.object({ kind: z.literal('scripted'), policy: z.string() }), z.object({ kind: z.literal('llm'), model: z.string() })]) }),
  z.object({ type: z.literal('match_started'), drivers: z.record(z.string(), z.unknown()) }),
  z.object({ type: z.literal('action'), lab: z.string(), userId: z.string(), action: z.unknown() }),
  z.object({ type: z.literal('seat_done'), lab: z.string() }),
  /** `judge` is the decision used (null = nobody pitched); stored so replay never calls a model. */
  z.object({ type: z.literal('round_closed'), round: z.number().int().nonnegative(), reason: z.enum(['all_done', 'timer', 'host']), judge: z.unknown().nullable() }),
  z.object({ type: z.literal('match_ended'), by: z.string(), reason: z.string() }),
]);
/** One parsed event of a match's log (without seq and timestamp; see {@link StoredEvent}). */
export type MatchEventBody = z.infer<typeof MatchEventSchema>;

/** An event as stored: body plus its position in the match's log. */
export interface StoredEvent {
  matchId: string;
  /** 1, 2, 3, … without gaps; (matchId, seq) is unique. */
  seq: number;
  at: string;
  body: MatchEventBody;
}

/** A hosted match folded from its events. */
export interface HostedMatch {
  id: string;
  channelId: string;
  platform: string;
  hostUserId: string;
  settings: MatchSettings;
  phase: 'lobby' | 'running' | 'over';
  drivers: Record<LabId, SeatDriver>;
  /** Seats that said `done` this round. */
  done: LabId[];
  /** Engine state once started (null in the lobby). */
  state: MatchState | null;
  /** When the current round's timer runs out (ms since epoch), or null. Derived from the last round-open event time. */
  roundDeadline: number | null;
  lastSeq: number;
  lastJudge: JudgeDecision | null;
}

/** What the host gives the command catalogue. All methods serialise per match and never throw for user errors. */
export interface HostApi {
  /** The match currently in this channel (lobby or running), or null. */
  current(channelId: string): Promise<HostedMatch | null>;
  /** Run one command for a caller in a channel; returns the reply to render. */
  run(channelId: string, caller: Caller, text: string): Promise<Reply>;
}
