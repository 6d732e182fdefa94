/**
 * The command catalogue: every command defined once (spec + option schema + preconditions + handler),
 * in the order of {@link COMMAND_SPECS}. Discord, Slack and the console all render from this list.
 */
import type { CommandDefinition } from './definition';
import { coalition } from './handlers-coalition';
import { LOBBY_COMMANDS } from './handlers-lobby';
import { SEAT_COMMANDS } from './handlers-seat';
import { TRADE_COMMANDS } from './handlers-trade';
import { VIEW_COMMANDS } from './handlers-view';
import { RATING_COMMANDS } from './handlers-ratings';
import { VOTE_COMMANDS } from './handlers-votes';
import { COMMAND_SPECS } from './specs';

const byName = new Map<string, CommandDefinition>(
  [...LOBBY_COMMANDS, ...VIEW_COMMANDS, ...TRADE_COMMANDS, ...SEAT_COMMANDS, coalition, ...VOTE_COMMANDS, ...RATING_COMMANDS].map((d) => [d.name, d]),
);

/** Every command, in spec order. Throws at import if a spec has no definition (a programming error). */
export const COMMANDS: readonly CommandDefinition[] = COMMAND_SPECS.map((spec) => {
  const def = byName.get(spec.name);
  if (!def) throw new Error(`command catalogue: no definition for "${spec.name}"`);
  return def;
});

/** The command named `name`, or undefined. */
export function findCommand(name: string): CommandDefinition | undefined {
  return byName.get(name);
}
