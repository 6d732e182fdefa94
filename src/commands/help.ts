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

/** The command list (private reply to `help`). */
export function renderHelp(specs: readonly CommandSpec[] = COMMAND_SPECS): Post {
  return {
    title: 'GPU Arena commands',
    text: [
      'Write `command name:value …` (on Slack `/arena command …`); quote values with spaces: msg:"like this". Lists are comma-separated: give:b_0_1,b_0_2.',
      ...specs.map((s) => `• \`${usage(s)}\` — ${s.description}${s.access === 'host' ? ' (host)' : ''}`),
      '`help command:<name>` explains one command.',
    ].join('\n'),
  };
}

/** One command's help: usage, who may use it, options and an example. */
export function renderCommandHelp(name: string): Post {
  const spec = findSpec(name);
  if (!spec) return renderHelp();
  const options = spec.options.map((o) => `• \`${o.name}\` (${o.kind}${o.required ? ', required' : ''}${o.choices ? `: ${o.choices.join(', ')}` : ''}) — ${o.description}`);
  return {
    title: `\`${usage(spec)}\``,
    text: [`${spec.description}. Who: ${ACCESS_TEXT[spec.access]}.`, spec.help, ...(options.length ? ['Options:', ...options] : [])].join('\n'),
  };
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/**
 * The command reference of docs/COMMANDS.md (markdown), between `<!-- commands:start -->` and `<!-- commands:end -->`.
 * A test checks that the section in docs/COMMANDS.md equals this text (regenerate: npx tsx src/cli/readme-commands.ts).
 */
export function renderCommandReference(specs: readonly CommandSpec[] = COMMAND_SPECS): string {
  const rows = specs.map((s) => `| \`${cell(usage(s))}\` | ${ACCESS_TEXT[s.access]} | ${cell(s.description)}. ${cell(s.help)} |`);
  const options = specs.flatMap((s) => s.options.map((o) => `| ${s.name} | \`${o.name}\` | ${o.kind} | ${o.required ? 'yes' : 'no'} | ${cell(o.description)}${o.choices && o.choices.length > 4 ? `: ${o.choices.join(', ')}` : ''} |`));
  return [
    'Every platform renders the same catalogue (`src/commands`): Discord as `/arena <command>` with typed options,',
    'Slack as `/arena <command> name:value …`, the console as `<command> name:value …`. Values with spaces are quoted',
    '(`msg:"swap for your 4-GPU block"`, `\\"` inside), lists are comma-separated (`give:b_0_1,b_0_2`). Bad input gets a',
    'private error naming the option, what was expected and the valid ids, and changes nothing.',
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
