/**
 * Result values of the round host: every user error is a {@link CommandError} with a machine-readable
 * code, never an exception.
 */
import type { CommandError } from '../chat/types.js';

/** `{ ok: true, value }` or `{ ok: false, error }` (error.code is one of {@link HostErrorCode}). */
export type HostResult<T> = { ok: true; value: T } | { ok: false; error: CommandError };

/**
 * Codes the host produces:
 * - `no_match`: no lobby/running match in the channel;
 * - `match_exists`: the channel already has one (one match per channel);
 * - `not_in_lobby`: seats can only be claimed/assigned and a match started in the lobby;
 * - `not_running`: the match has not started;
 * - `match_over`: the match ended while the command was waiting;
 * - `seat_taken`: the seat (or every seat) is held by someone/something else;
 * - `already_seated`: a person holds at most one seat per match;
 * - `unknown_seat`: no such lab in this match;
 * - `not_your_seat`: the caller holds no seat in this match;
 * - `not_host`: only the match's host or an admin may do this;
 * - `invalid_settings`: `new` settings fail validation (option, expected, validValues set);
 * - `invalid_driver`: an unknown scripted policy, a human driver, or an LLM model without an agent;
 * - `busy`: the store kept reporting concurrent writes (retry);
 * - `round_closed`: a command written for a round arrived after that round closed (nothing recorded);
 * - `match_changed`: a command written for a match found another match in its channel (nothing recorded);
 * - `model_not_allowed` / `budget_exhausted`: an LLM seat on a model outside `llm.allowedModels`, or a daily token budget spent;
 * - ballots: `no_ballot` (none open in the channel), `unknown_ballot`, `ballot_closed`,
 *   `unknown_pair`, `own_pitch` (the pair holds the voter's own seat's pitch), `duplicate_vote` (one vote per
 *   person per pair), `rate_limited` (too many votes a minute).
 */
export type HostErrorCode =
  | 'no_match'
  | 'match_exists'
  | 'not_in_lobby'
  | 'not_running'
  | 'match_over'
  | 'seat_taken'
  | 'already_seated'
  | 'unknown_seat'
  | 'not_your_seat'
  | 'not_host'
  | 'invalid_settings'
  | 'invalid_driver'
  | 'busy'
  | 'round_closed'
  | 'match_changed'
  | 'model_not_allowed'
  | 'budget_exhausted'
  | 'no_ballot'
  | 'unknown_ballot'
  | 'ballot_closed'
  | 'unknown_pair'
  | 'own_pitch'
  | 'duplicate_vote'
  | 'rate_limited';

/** A successful {@link HostResult}. */
export const ok = <T>(value: T): HostResult<T> => ({ ok: true, value });

/** A failed {@link HostResult}: `code`, a sentence for the caller, and optional option/expected/validValues. */
export const fail = <T = never>(
  code: HostErrorCode,
  message: string,
  extra: Omit<CommandError, 'code' | 'message'> = {},
): HostResult<T> => ({ ok: false, error: { code, message, ...extra } });
