/**
 * Platform-neutral replies. Every command handler returns a {@link Reply}; the console, Discord and Slack
 * adapters only render it (Discord: ephemeral = flags 64; Slack: chat.postEphemeral / response_url).
 */

/** A clickable button. `command` is the catalogue text it runs when clicked, e.g. `accept offer:o_3`. */
export interface Button {
  /** Stable id for platforms (Discord custom_id, Slack action_id): `arena:<command text>`. */
  id: string;
  label: string;
  command: string;
  style: 'primary' | 'secondary' | 'success' | 'danger';
}

/** One post. Text is plain markdown-ish (bold with **, code with backticks) that every platform renders. */
export interface Post {
  /** Title line, shown bold / as a header. */
  title?: string;
  text: string;
  buttons?: Button[];
  /** Structured fields (name → value), rendered as a list / embed fields. */
  fields?: { name: string; value: string }[];
}

/** A private post for one user (Discord ephemeral, Slack ephemeral, console "private" style). */
export interface PrivatePost extends Post {
  /** Platform user id of the recipient. */
  userId: string;
}

/** What a command (or a round close) produces. */
export interface Reply {
  /** Posts to the channel, visible to everyone. */
  public: Post[];
  /** Posts to one person each. */
  private: PrivatePost[];
  /** Ask the platform to open a form (Discord modal / Slack modal) for this command. */
  modal?: { command: 'pitch'; title: string; fields: { id: string; label: string; long: boolean; required: boolean }[] };
  /** Set when the command failed (bad input, wrong seat, …): the reply is then one private post and nothing changed. */
  error?: CommandError;
}

/** A coded, user-facing error: which option, what was expected, the valid values. */
export interface CommandError {
  code: string;
  message: string;
  option?: string;
  expected?: string;
  validValues?: string[];
}

/** Who is calling, in platform-neutral terms. */
export interface Caller {
  /** Platform-qualified user id, e.g. `discord:123`, `slack:U123`, `console:you`. */
  userId: string;
  displayName: string;
  /** True when the platform says this user may administer matches (Manage Server / configured role). */
  isAdmin: boolean;
}

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
