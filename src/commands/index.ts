/**
 * The command catalogue (src/commands): define once, render on every platform.
 *
 * - `COMMANDS` / `COMMAND_SPECS`: the commands (spec + schema + preconditions + handler)
 * - `runCommand(host, channelId, caller, name, options)` (typed options, Discord)
 * - `runText(host, channelId, caller, text)` (text grammar: Slack, console, buttons)
 * - `parseCommandText(text, specs)`, `completions(...)`, `renderHelp()`, `renderCommandReference()`
 */
export { COMMANDS, findCommand } from './catalogue.js';
export { COMMAND_SPECS, findSpec } from './specs.js';
export { runCommand, runText, setCommandErrorSink, type ErrorSink, type RunOptions } from './run.js';
export {
  parseCommandText,
  formatCommand,
  quoteValue,
  isCommandError,
  type ParsedCommand,
  type GrammarErrorCode,
} from './grammar.js';
export { completions, MAX_COMPLETIONS, type CompletionContext } from './completions.js';
export { renderHelp, renderCommandHelp, renderCommandReference, usage, type HelpPlace } from './help.js';
export { VOTES_NOTICE } from './handlers-lobby.js';
export { type ArenaHost, type CommandContext } from './context.js';
export { type CommandDefinition } from './definition.js';
export { button, errorReply, mergeReplies, emptyReply, privateReply, publicReply } from '../chat/reply.js';
export * from './types.js';
