/**
 * The event log's schema: what a match's log holds, parsed with zod at every boundary (the store parses
 * each row on load, the host each event before it appends). It sits below both the round host (which
 * writes and replays events) and the store (which persists them), so neither imports the other's types.
 * Terms: a *match* is one hosted game in one channel; a *round* is the engine's round_index.
 */
import { z } from 'zod';
import type { PolicyName, Seed, TaskName } from '../engine/types.js';
import { SECRET_SEED } from '../engine/config.js';

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
  /**
   * The world's seed: a random 128-bit match secret (32 hex digits) unless the host chose one; secret until
   * the match is over (docs/RULES.md §0). Logs written before secrets hold integers.
   */
  seed: Seed;
  /** The host chose the seed (`new seed:…`, `--seed`): practice, left out of ratings and research exports by default. */
  hostSeeded?: boolean;
  /** Round timer in seconds; 0 = no timer (rounds close when every human/agent seat is done). */
  roundSeconds: number;
  holdout: boolean;
  /** Ballots on pitches for preference data; undefined = off (logs from before votes). */
  votes?: boolean;
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
    /** The channel a thread match belongs to (Discord): its daily LLM budget is that channel's. Absent = none. */
    parentChannelId: z.string().min(1).optional(),
    /**
     * The match plays in its own thread of `parentChannelId` (Discord: `channelId` is the thread; Slack: the
     * card's thread): the card's message id (Discord message id, Slack `ts`), edited as the match goes on.
     */
    cardMessageId: z.string().min(1).max(100).optional(),
    /** The server (Discord guild) or workspace (Slack team) it was opened in, when the platform said. */
    spaceId: z.string().min(1).max(100).optional(),
    settings: z.object({
      task: z.enum(['single_trade', 'market_round', 'coalition_market']),
      seed: z.union([z.number().int().nonnegative(), z.string().regex(SECRET_SEED)]),
      /** Absent in logs written before match secrets: their seeds were integers (drawn at random unless given). */
      hostSeeded: z.boolean().optional(),
      roundSeconds: z.number().int().nonnegative(),
      holdout: z.boolean(),
      /** Ballots on pitches (preference data); absent in logs written before votes existed = off. */
      votes: z.boolean().optional(),
    }),
  }),
  z.object({ type: z.literal('seat_claimed'), lab: z.string(), userId: z.string(), displayName: z.string() }),
  z.object({
    type: z.literal('seat_assigned'),
    lab: z.string(),
    driver: z.union([
      z.object({ kind: z.literal('scripted'), policy: z.string() }),
      z.object({ kind: z.literal('llm'), model: z.string() }),
    ]),
  }),
  /**
   * `rulesVersion`: the engine rules the match is played under (src/engine RULES_VERSION); absent in logs
   * written under rules v1. Replay refuses a log whose rules differ from the engine's (its rewards would).
   */
  z.object({
    type: z.literal('match_started'),
    drivers: z.record(z.string(), z.unknown()),
    rulesVersion: z.number().int().positive().optional(),
  }),
  /** `promptVersion`: the prompt an LLM seat agent chose this action with (src/agents/prompts.ts); absent for people and scripted seats. */
  z.object({
    type: z.literal('action'),
    lab: z.string(),
    userId: z.string(),
    action: z.unknown(),
    promptVersion: z.string().optional(),
  }),
  /** `auto`: the host marked a person done because nothing was left to decide (src/match/idle.ts). */
  z.object({ type: z.literal('seat_done'), lab: z.string(), auto: z.literal(true).optional() }),
  /** A person took back their `done` (or an automatic one) within the round: the round waits for them again. */
  z.object({ type: z.literal('seat_undone'), lab: z.string() }),
  /** A person's setting for this match: `autoDone` false = never mark their seat done automatically. */
  z.object({ type: z.literal('seat_setting'), lab: z.string(), autoDone: z.boolean() }),
  /**
   * The round's close was claimed and its pitches go to a model judge (docs/LLM.md "Round closes"): from here
   * until its `round_closed` the round takes no more input (actions, `done`), so the judged state is the
   * state that closes. Written only when a model is asked; a close by the rule judge alone goes straight to
   * `round_closed`.
   */
  z.object({
    type: z.literal('round_judging'),
    round: z.number().int().nonnegative(),
    reason: z.enum(['all_done', 'timer', 'host']),
  }),
  /** `judge` is the decision used (null = nobody pitched); stored so replay never calls a model. */
  z.object({
    type: z.literal('round_closed'),
    round: z.number().int().nonnegative(),
    reason: z.enum(['all_done', 'timer', 'host']),
    judge: z.unknown().nullable(),
  }),
  z.object({ type: z.literal('match_ended'), by: z.string(), reason: z.string() }),
  /**
   * A ballot on the pitches of a closed round: pairwise battles, authors hidden. Pitch texts are
   * public already; they are copied here so exports and restarts need no engine replay to show them.
   * `closesAt` (ISO) when the ballot closes on a clock; null = when the next round closes.
   */
  z.object({
    type: z.literal('ballot_opened'),
    ballotId: z.string(),
    round: z.number().int().nonnegative(),
    pitches: z.array(
      z.object({
        id: z.string(),
        lab: z.string(),
        kind: z.enum(['pitch', 'counter_pitch']),
        text: z.string(),
        jobIds: z.array(z.string()),
        replyTo: z.string().nullable(),
      }),
    ),
    /** Canonical pairs [pitchA, pitchB] with pitchA < pitchB; pair n (1-based) is pairs[n - 1]. */
    pairs: z.array(z.tuple([z.string(), z.string()])),
    closesAt: z.string().nullable(),
  }),
  z.object({
    type: z.literal('ballot_closed'),
    ballotId: z.string(),
    reason: z.enum(['next_round', 'timer', 'match_ended', 'host']),
  }),
  /**
   * A ballot that was to close with the next round gets a clock deadline (ISO) because the match ended
   * without that round closing (host `end`, every seat finished). Only ballot events follow a match's end.
   */
  z.object({ type: z.literal('ballot_deadline'), ballotId: z.string(), closesAt: z.string() }),
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
