/** The options a RoundHost is built with (src/host/host.ts). */
import type { Logger } from 'pino';
import type { Reply } from '../chat/types.js';
import type { AsyncJudge } from '../engine/judge/types.js';
import type { AgentFactory } from '../agents/seat.js';
import type { Clock } from '../match/timers.js';
import type { ReminderOptions } from './reminders.js';
import type { HostedMatch, MatchSettings } from '../match/types.js';
import type { DataPolicy } from '../match/data-policy.js';
import type { EventStore } from '../store/types.js';

/** Options of RoundHost. Times are in ms of `clock` time. */
export interface RoundHostOptions {
  store: EventStore;
  /** Posts made outside a command (timer closes, agent turns, restore); must deliver private posts too. */
  publish: (channelId: string, reply: Reply) => Promise<void>;
  /**
   * The platform this process serves (`discord`, `slack`, …; a match's platform is its creator's): `restore`
   * then resumes only that platform's matches and ballots, so a process never closes a round (or a ballot)
   * whose posts it could not deliver, e.g. a Slack bot and a Discord bot on one PostgreSQL. Unset = every
   * unfinished match (one platform per database).
   */
  platform?: string;
  /** LLM judge; without one the rule judge decides every round. */
  judge?: AsyncJudge;
  /** Default 20 000; then the rule judge decides and the decision's meta.fallback says why. */
  judgeTimeoutMs?: number;
  /** Builds the agent of an `llm` seat (null: that seat waits every round). */
  agentFor?: AgentFactory;
  /** Model of an `llm` seat assigned without one (config `llm.agentModel` / ARENA_AGENT_MODEL). */
  defaultAgentModel?: string | null;
  /** Models an LLM seat may use (config `llm.allowedModels`); any other is refused with `model_not_allowed` listing these. Unset = no list. */
  allowedModels?: readonly string[];
  /**
   * Asked before a host seats a model (`seat … agent:llm`) with the match's budget channel (a thread's
   * parent) and host: a sentence why no LLM seat may start now (a daily token budget is spent: the
   * deployment's, the host's or the channel's; src/app/llm.ts), refused with `budget_exhausted`, or null.
   */
  llmSeatRefusal?: (where: { channelId: string; personId: string }) => Promise<string | null>;
  /** Default 60 000 per agent turn. */
  agentTimeoutMs?: number;
  /** Users who may start/end/reconfigure any match (besides its host and callers with isAdmin). */
  adminUserIds?: string[];
  clock?: Clock;
  logger?: Logger;
  /** Settings used when `new` leaves them out (then DEFAULT_SETTINGS). */
  defaults?: Partial<MatchSettings>;
  /** How long a process that lost a round-close claim waits before closing it itself. Default judge timeout + 10 s. */
  claimGraceMs?: number;
  /**
   * Ballots (config `votes`): seconds a ballot stays open after its match ended (default
   * DEFAULT_BALLOT_SECONDS) and votes per person per minute (default DEFAULT_VOTES_PER_MINUTE; counted by the
   * store: across processes on PostgreSQL, per process on SQLite).
   * Whether a match has ballots is its `votes` setting (`new votes:on|off`, default `defaults.votes`, else off).
   */
  votes?: { ballotSeconds?: number; perMinute?: number };
  /**
   * Called once when a match is over by its last round closing or every seat finishing (not when the host
   * ends it), after its status is `over` in the store; the reply is appended to the final post (e.g. each
   * player's rating change, src/analytics/ratings/match-over.ts). Errors are logged and the final post goes out without it.
   */
  onMatchOver?: (m: HostedMatch) => Promise<Reply | null>;
  /**
   * The research-data policy (config `data.*`, src/match/data-policy.ts): whether host-seeded matches count in
   * ratings and research data, and the data notice. Default `DEFAULT_DATA_POLICY`.
   */
  data?: DataPolicy;
  /**
   * Mark a person done (and tell them) when their seat has nothing left to decide this round
   * (src/match/idle.ts); a round whose seats are all done closes at once. Default true.
   */
  autoDone?: boolean;
  /** Reminder pings for people a round waits for (src/host/reminders.ts); default off (the apps pass config `chat.*`). */
  reminders?: ReminderOptions;
  /**
   * Extra turns an LLM seat gets per round when a person addresses it (an offer, a counter, a direct
   * message) after its turn, so a person can negotiate with a model within a round. Default 2; 0 = none.
   */
  agentExtraTurns?: number;
}
