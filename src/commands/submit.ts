/**
 * Submitting a seat's action: the host has the engine check it under the match's lock, against the state it
 * would change, so that bad input is answered with a private error and never reaches the event log (the
 * engine would otherwise record it with an invalid-action penalty, docs/RULES.md §0) — also when another
 * command changed the state a moment before.
 */
import type { ActionInput } from '../engine/actions.js';
import type { ActionResult } from '../engine/types.js';
import type { HostedMatch } from '../match/types.js';
import type { CommandContext } from './context.js';
import { errorReply, mergeReplies } from '../chat/reply.js';
import type { CommandError, Reply } from './types.js';

/** Which command option an engine error code is about (for the error's `option`). */
export type CodeOptions = Partial<Record<string, string>>;

/** The engine's error as a command error, naming the option the code points at. */
export function engineError(result: Pick<ActionResult, 'code' | 'message'>, options: CodeOptions): CommandError {
  const option = options[result.code];
  return option
    ? { code: result.code, message: result.message, option }
    : { code: result.code, message: result.message };
}

/**
 * Submit `action` for the caller's seat through the host (valid actions only) and build the reply with
 * `describe` (plus whatever the host posted, e.g. a round close after the last seat finished).
 * Preconditions (`running`, `hasSeat`) must have passed.
 */
export async function submit(
  ctx: CommandContext,
  action: ActionInput,
  options: CodeOptions,
  describe: (result: ActionResult, match: HostedMatch) => Reply,
): Promise<Reply> {
  if (!ctx.match?.state || !ctx.lab)
    return errorReply(ctx.caller.userId, { code: 'not_running', message: 'The match is not running.' });
  // The round and match the command was written for: if the round timer closes that round (or the match
  // ends and another opens) meanwhile, the host refuses the action instead of recording it elsewhere.
  const r = await ctx.host.act(ctx.channelId, ctx.caller, action, {
    onlyValid: true,
    round: ctx.match.state.round,
    matchId: ctx.match.id,
  });
  if (!r.ok) return errorReply(ctx.caller.userId, r.error.option ? r.error : engineError(r.error, options));
  const { result, match, reply } = r.value;
  return mergeReplies(describe(result, match), reply);
}
