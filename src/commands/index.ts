/**
 * The command catalogue (src/commands): define once, render on every platform.
 *
 * - `COMMANDS` / `COMMAND_SPECS`: the commands (spec + schema + preconditions + handler)
 * - `runCommand(host, channelId, caller, name, options)` (typed options, Discord)
 * - `runText(host, channelId, caller, text)` (text grammar: Slack, console, buttons)
 * - `parseCommandText(text, specs)`, `completions(...)`, `renderHelp()`, `renderCommandReference()`
 */
export { COMMANDS, findCommand } from './catalogue';
export { COMMAND_SPECS, findSpec } from './specs';
export { runCommand, runText, setCommandErrorSink, type ErrorSink } from './run';
export { parseCommandText, formatCommand, quoteValue, isCommandError, type ParsedCommand, type GrammarErrorCode } from './grammar';
export { completions, MAX_COMPLETIONS, type CompletionContext } from './completions';
export { renderHelp, renderCommandHelp, renderCommandReference, usage } from './help';
export { type ArenaHost, type CommandContext } from './context';
export { type CommandDefinition } from './definition';
export { button, errorReply, mergeReplies, emptyReply, privateReply, publicReply } from '../chat/reply';
export * from './types';
