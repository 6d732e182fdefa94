/**
 * `help [command]`: the commands that work for the caller here and now, or one command explained. "Works"
 * is decided by the commands' own preconditions (match phase, seat, host), so help cannot list what would
 * only answer with an error; the console's setup commands are left out there, and its `quit` added.
 */
import { z } from 'zod';
import type { CommandContext } from './context.js';
import { defineCommand, type CommandDefinition } from './definition.js';
import { renderCommandHelp, renderHelp, type HelpPlace } from './help.js';
import { choiceValue } from './options.js';
import { checkAll } from './preconditions.js';
import { privateReply } from '../chat/reply.js';
import { COMMAND_SPECS } from './specs.js';

const commandNames = COMMAND_SPECS.map((s) => s.name) as [string, ...string[]];

/** Commands the console runs itself when it opens a match (src/adapters/console): never typed there. */
const CONSOLE_SETUP: ReadonlySet<string> = new Set(['new', 'join', 'seat', 'start']);

/** Why `def` would not work for this caller now, or null when it would. */
export function unavailable(ctx: CommandContext, def: CommandDefinition): string | null {
  if (ctx.platform === 'console' && CONSOLE_SETUP.has(def.name)) {
    return 'the console opens, seats and starts its match itself (`npm start -- --task <task> --seed <n> --seat lab_2=llm:<model>`).';
  }
  const failed = checkAll(ctx, def.preconditions);
  if (failed) return failed.message;
  if (def.name === 'vote' && ctx.match && !ctx.match.settings.votes) return 'votes are off in this match.';
  return null;
}

function placeOf(ctx: CommandContext): HelpPlace {
  const phase = !ctx.match ? 'none' : ctx.match.phase === 'running' && ctx.match.state?.over ? 'over' : ctx.match.phase;
  return { platform: ctx.platform, phase };
}

/**
 * The `help` command over the catalogue `all` returns (passed in as a function because the catalogue
 * includes help itself).
 */
export function helpCommand(all: () => readonly CommandDefinition[]): CommandDefinition {
  return defineCommand('help', z.object({ command: choiceValue(commandNames).optional() }), [], async (ctx, o) => {
    if (o.command) {
      const def = all().find((d) => d.name === o.command);
      return privateReply(ctx.caller.userId, renderCommandHelp(o.command, def ? unavailable(ctx, def) : null));
    }
    return privateReply(
      ctx.caller.userId,
      renderHelp(
        all().filter((d) => unavailable(ctx, d) === null),
        placeOf(ctx),
      ),
    );
  });
}
