/**
 * Help texts and the command reference of docs/COMMANDS.md, rendered from the specs (specs.ts) so they cannot drift
 * from what the commands accept.
 */
import { findSpec, COMMAND_SPECS } from './specs.js';
import type { CommandSpec, OptionSpec, Post } from './types.js';

const ACCESS_TEXT: Record<CommandSpec['access'], string> = {
  anyone: 'anyone',
  seat: 'seat holder',
  host: 'match host / admin',
};

/** `name:<kind>` for one option; optional ones in brackets. */
export function optionUsage(o: OptionSpec): string {
  const value = o.choices && o.choices.length <= 4 ? o.choices.join('|') : `<${o.kind}>`;
  return o.required ? `${o.name}:${value}` : `[${o.name}:${value}]`;
}

/** `offer to:<lab> [give:<blocks>] …` */
export function usage(spec: CommandSpec): string {
  return [spec.name, ...spec.options.map(optionUsage)].join(' ');
}

/** Where `help` is asked (see {@link renderHelp}). */
export interface HelpPlace {
  /** The caller's platform: `console`, `discord`, `slack`, … (its user id's prefix). */
  platform: string;
  /** The channel's match: none (or over), in its lobby, or running. */
  phase: 'none' | 'lobby' | 'running' | 'over';
}

/** How commands are typed, per platform; others get the generic line. */
const HOW_TO_TYPE: Record<string, string> = {
  console: 'Type `command name:value …`',
  slack: 'Write `/arena command name:value …`',
  discord: 'Use `/arena command`, which asks for each option, or the buttons under posts',
};
const GENERIC_HOW = 'Write `command name:value …` (on Slack `/arena command …`)';
const QUOTING =
  'quote values with spaces: msg:"like this" or msg:\'like this\'. Lists are comma-separated: give:b_0_1,b_0_2.';

const PHASE_TEXT: Record<HelpPlace['phase'], string> = {
  none: 'no match in this channel',
  lobby: 'the match is in its lobby',
  running: 'the match is running',
  over: 'the match is over',
};

/** The console's own command (src/adapters/console), not in the catalogue: `help` lists it there. */
export const CONSOLE_QUIT_LINE =
  '• `quit` — Leave the console (Ctrl-C does the same); it says where the match is kept and how to resume it';

/**
 * The command list (private reply to `help`). With a `place`, `specs` are the commands that work there
 * (the caller filters them) and the text says how to type them on that platform; the console adds `quit`.
 * Host-only commands say "(host)" in their description already (specs.ts), so nothing is appended.
 */
export function renderHelp(specs: readonly CommandSpec[] = COMMAND_SPECS, place?: HelpPlace): Post {
  const how = place ? (HOW_TO_TYPE[place.platform] ?? GENERIC_HOW) : GENERIC_HOW;
  return {
    title: place ? `GPU Arena commands you can use now (${PHASE_TEXT[place.phase]})` : 'GPU Arena commands',
    text: [
      `${how}; ${QUOTING}`,
      ...specs.map((s) => `• \`${usage(s)}\` — ${s.description}`),
      ...(place?.platform === 'console' ? [CONSOLE_QUIT_LINE] : []),
      '`help command:<name>` explains one command.',
    ].join('\n'),
  };
}

/** One command's help: usage, who may use it, options and an example; `unavailable` says why it does not work here now. */
export function renderCommandHelp(name: string, unavailable?: string | null): Post {
  const spec = findSpec(name);
  if (!spec) return renderHelp();
  const options = spec.options.map(
    (o) =>
      `• \`${o.name}\` (${o.kind}${o.required ? ', required' : ''}${o.choices ? `: ${o.choices.join(', ')}` : ''}) — ${o.description}`,
  );
  return {
    title: `\`${usage(spec)}\``,
    text: [
      `${spec.description}. Who: ${ACCESS_TEXT[spec.access]}.`,
      spec.help,
      ...(options.length ? ['Options:', ...options] : []),
      ...(unavailable ? [`Not available here now: ${unavailable}`] : []),
    ].join('\n'),
  };
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/**
 * The command reference of docs/COMMANDS.md (markdown), between `<!-- commands:start -->` and `<!-- commands:end -->`.
 * A test checks that the section in docs/COMMANDS.md equals this text (regenerate: npx tsx src/cli/readme-commands.ts).
 */
export function renderCommandReference(specs: readonly CommandSpec[] = COMMAND_SPECS): string {
  const rows = specs.map(
    (s) => `| \`${cell(usage(s))}\` | ${ACCESS_TEXT[s.access]} | ${cell(s.description)}. ${cell(s.help)} |`,
  );
  const options = specs.flatMap((s) =>
    s.options.map(
      (o) =>
        `| ${s.name} | \`${o.name}\` | ${o.kind} | ${o.required ? 'yes' : 'no'} | ${cell(o.description)}${o.choices && o.choices.length > 4 ? `: ${o.choices.join(', ')}` : ''} |`,
    ),
  );
  return [
    'Every platform renders the same catalogue (`src/commands`): Discord as `/arena <command>` with typed options,',
    'Slack as `/arena <command> name:value …`, the console as `<command> name:value …`. Values with spaces are quoted',
    '(`msg:"swap for your 4-GPU block"`, `\\"` inside) or single-quoted (`msg:\'no cash, sorry\'`; an apostrophe inside a word,',
    "as in `don't`, stays text), lists are comma-separated (`give:b_0_1,b_0_2`). Bad input gets a private error naming",
    'the option, what was wrong and the valid ids, and changes nothing; a mistyped command or option name gets a suggestion.',
    '',
    '| Command | Who | What |',
    '|---|---|---|',
    ...rows,
    '',
    '| Command | Option | Kind | Required | Meaning |',
    '|---|---|---|---|---|',
    ...options,
  ].join('\n');
}
