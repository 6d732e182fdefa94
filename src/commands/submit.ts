/**
 * Submitting a seat's action: a dry run through the pure engine first, so that bad input is answered
 * with a private error and never reaches the event log (the engine would otherwise record it with an
 * invalid-action penalty, docs/RULES.md §0). Only an action the engine accepts on the current state is
 * sent to the host, which re-checks it under its lock.
 */
import { applyAction } from '../engine/index.js';
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
  return option ? { code: result.code, message: result.message, option } : { code: result.code, message: result.message };
}

/**
 * Dry-run `action` for the caller's seat; on success submit it through the host and build the reply with
 * `describe` (plus whatever the host posted, e.g. a round close after the last seat finished).
 * Preconditions (`running`, `hasSeat`) must have passed.
 */
export async function submit(
  ctx: CommandContext,
  action: ActionInput,
  options: CodeOptions,
  describe: (result: ActionResult, match: HostedMatch) => Reply,
): Promise<Reply> {
  const state = ctx.match?.state;
  const lab = ctx.lab;
  if (!state || !lab) return errorReply(ctx.caller.userId, { code: 'not_running', message: 'The match is not running.' });
  const dry = applyAction(state, lab, action).result;
  if (!dry.ok) return errorReply(ctx.caller.userId, engineError(dry, options));
  const r = await ctx.host.act(ctx.channelId, ctx.caller, action);
  if (!r.ok) return errorReply(ctx.caller.userId, r.error);
  const { result, match, reply } = r.value;
  // The state moved between the dry run and the host's lock (another seat acted): report the engine's answer.
  if (!result.ok) return errorReply(ctx.caller.userId, engineError(result, options));
  return mergeReplies(describe(result, match), reply);
}
