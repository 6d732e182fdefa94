/**
 * The `/arena` slash command, generated from the command catalogue: one subcommand per {@link CommandSpec},
 * one typed option per {@link OptionSpec}. Nothing here is written by hand per command, so the Discord
 * reference stays the catalogue's reference.
 *
 * Kind → Discord option type: integer → INTEGER (4), number → NUMBER (10), boolean → BOOLEAN (5), every
 * other kind → STRING (3). Id kinds (lab, block(s), offer, job(s), coalition) get `autocomplete: true`;
 * fixed `choices` become Discord choices (a Discord option cannot have both). List kinds (`blocks`,
 * `jobs`) are one comma-separated string, as in the text grammar.
 */
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ApplicationIntegrationType,
  InteractionContextType,
  type APIApplicationCommandBasicOption,
  type APIApplicationCommandSubcommandOption,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { CommandSpec, OptionKind, OptionSpec } from '../../commands/types.js';
import { CommandJsonError } from './errors.js';

/** Name of the one top-level command. */
export const ROOT_COMMAND = 'arena';

/** Discord limits (https://discord.com/developers/docs/interactions/application-commands). */
export const DISCORD_LIMITS = { subcommands: 25, options: 25, choices: 25, description: 100, name: 32 } as const;

/** Option kinds whose values are ids the bot can autocomplete for the caller. */
export const AUTOCOMPLETE_KINDS: ReadonlySet<OptionKind> = new Set([
  'lab',
  'block',
  'blocks',
  'offer',
  'job',
  'jobs',
  'coalition',
]);

/** Max length of free text options (pitch: src/engine/actions.ts PITCH_MAX = 1200; Discord allows 6000). */
const TEXT_MAX = 1200;

/**
 * Options that Discord shows as optional although the catalogue requires them: leaving them out opens
 * a form (modal) instead, which suits long text. command → option name.
 */
export const FORM_OPTIONS: Readonly<Record<string, string>> = { pitch: 'text' };

const NAME_RE = /^[-_\p{Ll}\p{N}]{1,32}$/u;

function checkName(name: string, where: string): string {
  if (!NAME_RE.test(name))
    throw new CommandJsonError('invalid_name', `${where}: "${name}" is not a valid Discord command/option name`);
  return name;
}

/** Discord descriptions are 1–100 characters. */
export function clip(text: string, max: number = DISCORD_LIMITS.description): string {
  const t = text.trim().replace(/\s+/g, ' ') || '—';
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}

/** The Discord option type for a kind. */
export function discordOptionType(
  kind: OptionKind,
):
  | ApplicationCommandOptionType.String
  | ApplicationCommandOptionType.Integer
  | ApplicationCommandOptionType.Number
  | ApplicationCommandOptionType.Boolean {
  switch (kind) {
    case 'integer':
      return ApplicationCommandOptionType.Integer;
    case 'number':
      return ApplicationCommandOptionType.Number;
    case 'boolean':
      return ApplicationCommandOptionType.Boolean;
    default:
      return ApplicationCommandOptionType.String;
  }
}

/** One catalogue option as a Discord option. */
export function optionJson(command: string, o: OptionSpec): APIApplicationCommandBasicOption {
  const name = checkName(o.name, `/${ROOT_COMMAND} ${command}`);
  const viaForm = FORM_OPTIONS[command] === o.name;
  const base = {
    name,
    description: clip(viaForm ? `${o.description} (leave out to open a form)` : o.description),
    required: o.required && !viaForm,
  };
  const type = discordOptionType(o.kind);
  if (type === ApplicationCommandOptionType.Boolean) return { ...base, type };
  if (o.choices && o.choices.length > 0) {
    if (o.choices.length > DISCORD_LIMITS.choices)
      throw new CommandJsonError(
        'too_many_choices',
        `/${ROOT_COMMAND} ${command} ${o.name}: ${o.choices.length} choices > 25`,
      );
    if (type === ApplicationCommandOptionType.String)
      return { ...base, type, choices: o.choices.map((c) => ({ name: clip(c), value: c })) };
    const choices = o.choices.map((c) => ({ name: clip(c), value: Number(c) }));
    return type === ApplicationCommandOptionType.Integer ? { ...base, type, choices } : { ...base, type, choices };
  }
  if (type === ApplicationCommandOptionType.Integer) return { ...base, type };
  if (type === ApplicationCommandOptionType.Number) return { ...base, type };
  if (AUTOCOMPLETE_KINDS.has(o.kind)) return { ...base, type, autocomplete: true };
  return o.kind === 'text' ? { ...base, type, max_length: TEXT_MAX } : { ...base, type };
}

/** One catalogue command as a subcommand. Required options come first (a Discord rule); order is otherwise kept. */
export function subcommandJson(c: CommandSpec): APIApplicationCommandSubcommandOption {
  const name = checkName(c.name, `/${ROOT_COMMAND}`);
  if (c.options.length > DISCORD_LIMITS.options)
    throw new CommandJsonError('too_many_options', `/${ROOT_COMMAND} ${c.name}: ${c.options.length} options > 25`);
  const options = c.options.map((o) => optionJson(c.name, o));
  return {
    type: ApplicationCommandOptionType.Subcommand,
    name,
    description: clip(c.access === 'host' ? `${c.description} (match host or admins)` : c.description),
    options: [...options.filter((o) => o.required), ...options.filter((o) => !o.required)],
  };
}

/**
 * The `/arena` command JSON for `PUT /applications/:app/(guilds/:guild/)commands`.
 *
 * `default_member_permissions` stays unset (everyone may see `/arena`): permissions apply to a whole
 * command, not a subcommand, and players need the same command as hosts. Host-only subcommands are
 * gated at run time instead (match host, Manage Server, or DISCORD_ADMIN_ROLE_ID). Guild-only
 * (`contexts: [Guild]`), since a match lives in a server channel.
 */
export function arenaCommandJson(commands: readonly CommandSpec[]): RESTPostAPIChatInputApplicationCommandsJSONBody {
  if (commands.length > DISCORD_LIMITS.subcommands) {
    throw new CommandJsonError(
      'too_many_subcommands',
      `${commands.length} commands > ${DISCORD_LIMITS.subcommands} Discord subcommands`,
    );
  }
  return {
    type: ApplicationCommandType.ChatInput,
    name: ROOT_COMMAND,
    description: 'GPU Arena: judged negotiation matches over scarce GPU capacity',
    contexts: [InteractionContextType.Guild],
    integration_types: [ApplicationIntegrationType.GuildInstall],
    options: commands.map(subcommandJson),
  };
}

/** The full list of application commands this bot registers. */
export function allCommandsJson(commands: readonly CommandSpec[]): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  return [arenaCommandJson(commands)];
}
