/**
 * Running commands: {@link runCommand} with typed options (Discord) and {@link runText} with the text
 * grammar (Slack, the console, buttons). Both check preconditions, parse options with the command's zod
 * schema and call its handler; every failure is a private error reply and changes nothing.
 */
import { COMMANDS, findCommand } from './catalogue.js';
import { validIds } from './completions.js';
import { loadContext, type ArenaHost, type CommandContext } from './context.js';
import type { CommandDefinition } from './definition.js';
import { isCommandError, parseCommandText, unknownCommand, unknownOption } from './grammar.js';
import { optionsError } from './options.js';
import { checkAll } from './preconditions.js';
import { boundButtonError } from './bound.js';
import { errorReply, mergeReplies } from '../chat/reply.js';
import { CONSENT_TRIGGERS, consentPrompt } from './handlers-privacy.js';
import type { Caller, CommandError, OptionKind, Reply } from './types.js';
import type { ThreadSurface } from '../chat/types.js';

/** Called when a handler throws (a bug, or the store is unreachable); the user gets `internal_error`. */
export type ErrorSink = (err: unknown, where: { name: string; channelId: string; userId: string }) => void;

let sink: ErrorSink = () => {};

/** Where unexpected handler errors are reported (e.g. a pino logger). */
export function setCommandErrorSink(fn: ErrorSink): void {
  sink = fn;
}

/** How a command arrived: typed (no options), or from a button made for match `match` (src/commands/bound.ts). */
export interface RunOptions {
  match?: string;
  /** What the platform can do to open a match in its own thread (`new`); absent: flat posting. */
  surface?: ThreadSurface;
}

/** Option kinds whose values are ids the caller can be shown (see completions.ts `validIds`). */
const ID_KINDS: ReadonlySet<OptionKind> = new Set(['lab', 'block', 'blocks', 'offer', 'job', 'jobs', 'coalition']);

/**
 * Add the ids the caller could use to a missing/invalid id option's error (from its own observation).
 * Only id options: for a number or a text there is no list of valid values, and an empty one would read as
 * "you have no valid value for `pay` right now".
 */
function withValidIds(ctx: CommandContext, def: CommandDefinition, e: CommandError): CommandError {
  const o = def.options.find((x) => x.name === e.option);
  if (!o || !ID_KINDS.has(o.kind) || e.validValues || !ctx.match) return e;
  const ids = validIds(ctx.match, ctx.lab, o.kind, { command: def.name, option: o.name });
  // An empty list is shown too when the caller is seated ("you have no valid value for `offer` right now").
  return ids.length || (ctx.lab && ctx.match.state) ? { ...e, validValues: ids } : e;
}

/**
 * Run command `name` with raw option values (strings or typed values; null/undefined = not given).
 * With `opts.match` (a pressed button's match) the command runs only in that match (bound.ts). A match found
 * from its thread's parent channel (locate.ts) gets its posts back with `reply.channelId` = its thread.
 * Errors (private replies, `reply.error.code`): `unknown_command`, `unknown_option`, `button_other_channel`,
 * `button_match_over`, the preconditions' codes, `missing_option` / `invalid_option`, id check and engine
 * codes, host codes, `internal_error`.
 */
export async function runCommand(
  host: ArenaHost,
  channelId: string,
  caller: Caller,
  name: string,
  rawOptions: Record<string, unknown>,
  opts: RunOptions = {},
): Promise<Reply> {
  const def = findCommand(name.trim().toLowerCase());
  if (!def)
    return errorReply(
      caller.userId,
      unknownCommand(
        name,
        COMMANDS.map((c) => c.name),
      ),
    );
  const raw: Record<string, unknown> = {};
  const valid = def.options.map((o) => o.name);
  for (const [k, v] of Object.entries(rawOptions)) {
    if (v === undefined || v === null) continue;
    if (!valid.includes(k)) return errorReply(caller.userId, unknownOption(def.name, k, valid));
    raw[k] = v;
  }
  try {
    const ctx = await loadContext(host, channelId, caller, opts.match ?? null, opts.surface ?? null);
    const elsewhere = opts.match === undefined ? null : await boundButtonError(ctx, def.name, opts.match);
    if (elsewhere) return errorReply(caller.userId, elsewhere);
    const failed = checkAll(ctx, def.preconditions);
    if (failed) return errorReply(caller.userId, failed);
    const parsed = def.schema.safeParse(raw);
    if (!parsed.success) return errorReply(caller.userId, withValidIds(ctx, def, optionsError(def, raw, parsed.error)));
    const executed = await def.execute(ctx, parsed.data);
    // Found from the parent channel: the match's posts still belong to its thread (src/commands/locate.ts).
    const reply =
      ctx.channelId !== channelId && executed.channelId === undefined
        ? { ...executed, channelId: ctx.channelId }
        : executed;
    // A person's first pitch, message or vote: the data notice follows, once (handlers-privacy.ts).
    if (reply.error || !CONSENT_TRIGGERS.has(def.name) || (def.name === 'vote' && parsed.data['choice'] === undefined))
      return reply;
    return mergeReplies(reply, await consentPrompt(ctx));
  } catch (err) {
    sink(err, { name: def.name, channelId, userId: caller.userId });
    return errorReply(caller.userId, {
      code: 'internal_error',
      message: 'Something went wrong on our side. Check `status` or `me` before trying again.',
    });
  }
}

/** Run one line of the text grammar, e.g. `offer to:lab_1 give:b_0_1 pay:5` (a leading `/arena` is optional); `opts` as {@link runCommand}. */
export async function runText(
  host: ArenaHost,
  channelId: string,
  caller: Caller,
  text: string,
  opts: RunOptions = {},
): Promise<Reply> {
  const parsed = parseCommandText(text, COMMANDS);
  if (isCommandError(parsed)) return errorReply(caller.userId, parsed);
  return runCommand(host, channelId, caller, parsed.name, parsed.options, opts);
}
