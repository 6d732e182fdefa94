/**
 * Contracts of the round host: the event log of a match and the host's API that the command catalogue
 * calls. Terms: a *match* is one hosted game in one channel; a *round* is the engine's round_index.
 */
import type { Ballot } from '../voting/ballots/types.js';
import type { JudgeDecision, LabId, MatchState, RewardBreakdown } from '../engine/types.js';
import type { Caller, Reply } from '../chat/types.js';
import type { Ledger } from './ledger.js';
import type { DoomedJob } from './doomed.js';
import type { MatchSettings, SeatDriver } from '../events/schema.js';

export type { MatchEventBody, MatchSettings, SeatDriver, StoredEvent } from '../events/schema.js';
export { MatchEventSchema, SeatDriverSchema } from '../events/schema.js';

/** A hosted match folded from its events. */
export interface HostedMatch {
  id: string;
  channelId: string;
  platform: string;
  hostUserId: string;
  /** The channel of a thread match (Discord), whose daily LLM budget it counts against; absent = its own channel. */
  parentChannelId?: string;
  /** A match in its own thread: its card's message in `parentChannelId` (src/present/card.ts). */
  cardMessageId?: string;
  /** The server or workspace it was opened in, when known. */
  spaceId?: string;
  settings: MatchSettings;
  phase: 'lobby' | 'running' | 'over';
  drivers: Record<LabId, SeatDriver>;
  /** Seats that said `done` this round. */
  done: LabId[];
  /** Seats of this round the host marked done because nothing was left to decide (a subset of `done`). */
  autoDone?: LabId[];
  /** People who took their `done` back this round (`done undo:true`): not marked done automatically again until the round closes. */
  undone?: LabId[];
  /** People who turned automatic `done` off for this match (`done auto:off`). */
  autoDoneOff?: LabId[];
  /** Engine state once started (null in the lobby). */
  state: MatchState | null;
  /** When the current round's timer runs out (ms since epoch), or null. Derived from the last round-open event time. */
  roundDeadline: number | null;
  lastSeq: number;
  lastJudge: JudgeDecision | null;
  /**
   * Set from a `round_judging` event until the round's `round_closed`: the round's close is claimed and its
   * pitches are with a model judge (`since`: the event's time, ms since epoch); the round takes no input.
   */
  judging?: { round: number; reason: 'all_done' | 'timer' | 'host'; since: number } | null;
  /** Ballots on closed rounds' pitches, in the order they opened; empty when votes are off. */
  ballots: Ballot[];
  /** When the match ended (ms since epoch, from the ending event's time), or null while it runs. */
  endedAt: number | null;
  /**
   * Standings after each closed round (for charts): round (1-based), each seat's cumulative reward and
   * that round's reward breakdown. Undefined = no round closed yet.
   */
  /** Steps of the current round, in order (people's and agents'; scripted seats act at the close). */
  roundActions?: ActionRecord[];
  /** The last closed round's steps, scripted seats' included: what its round-close post narrates. */
  lastRound?: { round: number; actions: ActionRecord[]; doomed?: DoomedJob[] };
  /** Jobs already announced to their owners as impossible (src/match/doomed.ts). */
  doomed?: string[];
  /** The reward ledger (src/match/ledger.ts): every change to every seat's reward, with its source. Private per seat until the match is over. */
  ledger?: Ledger;
  standings?: { round: number; rows: { lab: LabId; cumulativeReward: number; breakdown?: RewardBreakdown }[] }[];
}

/** One step of a seat (public narration and private direct messages are written from it). */
export interface ActionRecord {
  seq: number;
  round: number;
  lab: LabId;
  /** The action as logged (untrusted shape: read it through the engine's schemas). */
  action: unknown;
  ok: boolean;
  code: string;
  created?: { offerId?: string; coalitionId?: string };
  /** A scripted seat's step at the round close (not during the round). */
  atClose?: true;
}

/** What the host gives the command catalogue. All methods serialise per match and never throw for user errors. */
export interface HostApi {
  /** The match currently in this channel (lobby or running), or null. */
  current(channelId: string): Promise<HostedMatch | null>;
  /** Run one command for a caller in a channel; returns the reply to render. */
  run(channelId: string, caller: Caller, text: string): Promise<Reply>;
}
