/**
 * Preconditions: small composable checks run before a command's handler (Sapphire style). Each returns a
 * {@link CommandError} or null; {@link checkAll} returns the first error.
 *
 * Codes: `no_match` (nothing in this channel), `not_in_lobby` (the match already started),
 * `not_started` (still in the lobby), `match_over`, `not_host`, `no_seat` (caller has no seat here),
 * `seat_finished` (the caller's seat has finished), `already_seated` (the caller holds a seat already),
 * `not_admin` (the caller is not a platform admin), `ambiguous_match` (several matches of this channel's
 * threads could be meant: src/commands/locate.ts).
 */
import { labName } from '../present/common.js';
import type { CommandContext } from './context.js';
import type { CommandError } from './types.js';
import { ambiguousError } from './locate.js';

/** A check on the context; null = passes. */
export type Precondition = (ctx: CommandContext) => CommandError | null;

/** There is a match (lobby, running or just over) in this channel. */
export const matchExists: Precondition = (ctx) => {
  if (ctx.match) return null;
  if (ctx.ambiguous.length > 0) return ambiguousError(ctx.ambiguous);
  return {
    code: 'no_match',
    message: 'There is no match in this channel. Open one with `new`, e.g. `new task:market_round`.',
  };
};

/** The match is in its lobby (seats can still be claimed or assigned). */
export const inLobby: Precondition = (ctx) => {
  if (!ctx.match) return matchExists(ctx);
  if (ctx.match.phase === 'over') return overError();
  return ctx.match.phase === 'lobby'
    ? null
    : {
        code: 'not_in_lobby',
        message: `The match has already started (round ${ctx.match.state?.round ?? 0}); seats can no longer change.`,
      };
};

/** The match is running (started and not over). */
export const running: Precondition = (ctx) => {
  if (!ctx.match) return matchExists(ctx);
  if (ctx.match.phase === 'lobby')
    return { code: 'not_started', message: 'The match has not started yet: the host starts it with `start`.' };
  if (ctx.match.phase === 'over' || ctx.match.state?.over) return overError();
  return null;
};

/** The caller hosts the match, or is a platform admin. */
export const isHost: Precondition = (ctx) => {
  if (!ctx.match) return matchExists(ctx);
  if (ctx.caller.isAdmin || ctx.caller.userId === ctx.match.hostUserId) return null;
  return { code: 'not_host', message: 'Only the match host (or an admin) can do that.' };
};

/**
 * The caller is a platform admin (`Caller.isAdmin`: on Discord Manage Server or the DISCORD_ADMIN_ROLE_ID
 * role, on Slack one of SLACK_ADMIN_USER_IDS) or one of the config's `adminUserIds`. Needs no match: used for operator views such as
 * `stats view:usage`.
 */
export const isPlatformAdmin: Precondition = (ctx) =>
  (ctx.host.isAdmin?.(ctx.caller) ?? ctx.caller.isAdmin)
    ? null
    : {
        code: 'not_admin',
        message:
          "Only an admin (Discord: Manage Server or the admin role; Slack: SLACK_ADMIN_USER_IDS; or the config's adminUserIds) can see this.",
      };

/** The caller holds a seat in the match (and, once running, has not finished). */
export const hasSeat: Precondition = (ctx) => {
  if (!ctx.match) return matchExists(ctx);
  if (!ctx.lab) {
    const hint = ctx.match.phase === 'lobby' ? ' Take one with `join`.' : '';
    return { code: 'no_seat', message: `You have no seat in this match.${hint}` };
  }
  if (ctx.match.state?.labs[ctx.lab]?.finished)
    return { code: 'seat_finished', message: `Your seat ${ctx.lab} has finished and can no longer act.` };
  return null;
};

/** The caller holds no seat yet (`join`); the host says the same under its lock. */
export const noSeat: Precondition = (ctx) =>
  ctx.match && ctx.lab
    ? { code: 'already_seated', message: `You already hold ${labName(ctx.match, ctx.lab)} (${ctx.lab}).` }
    : null;

function overError(): CommandError {
  return { code: 'match_over', message: 'The match is over. Open a new one with `new`.' };
}

/** Run checks in order; the first error wins. */
export function checkAll(ctx: CommandContext, checks: readonly Precondition[]): CommandError | null {
  for (const check of checks) {
    const e = check(ctx);
    if (e) return e;
  }
  return null;
}
