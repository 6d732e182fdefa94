/** The round host: hosted matches in channels, their event logs, rounds, timers and agent seats. */
export { RoundHost, type RoundHostOptions } from './host';
export type { HostResult, HostErrorCode } from './results';
export { type SeatAgent, type AgentContext, type AgentFactory, MAX_AGENT_ACTIONS, DEFAULT_AGENT_TIMEOUT_MS } from './agents';
export { type Clock, type TimerHandle, systemClock, FakeClock, sleep } from './timers';
export { DEFAULT_JUDGE_TIMEOUT_MS, decideRound } from './judging';
export { replay, applyEvent, ReplayError, drivenSeats, pendingSeats, seatOfUser, type FoldStep } from './replay';
export { DEADLINE_FIELD, labName, seatLabel, type CloseReason } from './render';
export { DEFAULT_SETTINGS, MAX_ROUND_SECONDS, resolveSettings } from './settings';
export * from './types';
