/**
 * The command catalogue: every command defined once (spec + option schema + preconditions + handler),
 * in the order of {@link COMMAND_SPECS}. Discord, Slack and the console all render from this list.
 */
import type { CommandDefinition } from './definition.js';
import { coalition } from './handlers-coalition.js';
import { helpCommand } from './handlers-help.js';
import { LOBBY_COMMANDS } from './handlers-lobby.js';
import { SEAT_COMMANDS } from './handlers-seat.js';
import { TRADE_COMMANDS } from './handlers-trade.js';
import { VIEW_COMMANDS } from './handlers-view.js';
import { RATING_COMMANDS } from './handlers-ratings.js';
import { VOTE_COMMANDS } from './handlers-votes.js';
import { PRIVACY_COMMANDS } from './handlers-privacy.js';
import { COMMAND_SPECS } from './specs.js';

// help lists the catalogue, so it is given the list (read when help runs, after COMMANDS is built).
const help = helpCommand(() => COMMANDS);

const byName = new Map<string, CommandDefinition>(
  [
    help,
    ...LOBBY_COMMANDS,
    ...VIEW_COMMANDS,
    ...TRADE_COMMANDS,
    ...SEAT_COMMANDS,
    coalition,
    ...VOTE_COMMANDS,
    ...RATING_COMMANDS,
    ...PRIVACY_COMMANDS,
  ].map((d) => [d.name, d]),
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
