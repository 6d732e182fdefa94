/**
 * Contracts of the command catalogue: option kinds, option and command specs. The reply shapes the
 * handlers return live in src/chat (re-exported here for the adapters).
 */
export type { Button, Caller, CommandError, Post, PrivatePost, Reply } from '../chat/types.js';

/** Kinds of option; id kinds drive Discord autocomplete and the "valid ids" part of error messages. */
export type OptionKind =
  | 'string'
  | 'text'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'lab'
  | 'block'
  | 'blocks'
  | 'offer'
  | 'job'
  | 'jobs'
  | 'coalition';

/** One option of a command, rendered as a typed Discord option and as `name:value` in the text grammar. */
export interface OptionSpec {
  name: string;
  description: string;
  kind: OptionKind;
  required: boolean;
  /** Fixed choices (Discord `choices`). */
  choices?: readonly string[];
}

/** Who may run a command (checked as composable preconditions before the handler). */
export type Access = 'anyone' | 'seat' | 'host';

/**
 * A command defined once (src/commands/catalogue.ts) and rendered for every platform:
 * Discord `/arena <name>` subcommands, Slack `/arena <name> key:value`, console `<name> key:value`.
 */
export interface CommandSpec {
  name: string;
  description: string;
  /** Longer help text with an example in the text grammar. */
  help: string;
  options: readonly OptionSpec[];
  access: Access;
}
