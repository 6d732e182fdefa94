/** The round host: hosted matches in channels, their event logs, rounds, timers and agent seats. */
export { RoundHost, type RoundHostOptions } from './host.js';
export type { HostResult, HostErrorCode } from '../match/results.js';
export {
  type SeatAgent,
  type AgentContext,
  type AgentFactory,
  MAX_AGENT_ACTIONS,
  DEFAULT_AGENT_TIMEOUT_MS,
} from '../agents/seat.js';
export { type Clock, type TimerHandle, systemClock, FakeClock, sleep } from '../match/timers.js';
export { DEFAULT_JUDGE_TIMEOUT_MS, decideRound } from '../match/judging.js';
export {
  replay,
  applyEvent,
  ReplayError,
  drivenSeats,
  pendingSeats,
  seatOfUser,
  type FoldStep,
} from '../match/replay.js';
export { DEADLINE_FIELD, labName, seatLabel, type CloseReason } from '../present/render.js';
export { DEFAULT_SETTINGS, MAX_ROUND_SECONDS, resolveSettings } from '../match/settings.js';
export * from '../match/types.js';
