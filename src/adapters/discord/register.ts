/**
 * Registers the `/arena` command with Discord, separately from running the bot (Discord caches
 * commands; re-registering on every start would hit its rate limits). Guild registration (the default)
 * updates at once and suits development; global registration (`--global`) reaches every server the
 * app is installed in.
 */
import { REST, Routes } from 'discord.js';
import type { CommandSpec } from '../../commands/types.js';
import { allCommandsJson } from './commands-json.js';

/** Options of {@link registerCommands}. */
export interface RegisterOptions {
  token: string;
  applicationId: string;
  /** Server to register in; null = global. */
  guildId: string | null;
  commands: readonly CommandSpec[];
  /** REST base (discord.js `rest.api`), e.g. a local emulator; default discord.com. */
  restApi?: string;
}

/** What Discord answered: the registered commands' ids and names. */
export interface RegisterResult {
  scope: 'guild' | 'global';
  commands: { id: string; name: string }[];
}

/** PUTs the whole command list (bulk overwrite, so removed commands disappear). Rejects with discord.js's REST error on failure. */
export async function registerCommands(opts: RegisterOptions): Promise<RegisterResult> {
  const rest = new REST(opts.restApi ? { api: opts.restApi } : {}).setToken(opts.token);
  const route = opts.guildId
    ? Routes.applicationGuildCommands(opts.applicationId, opts.guildId)
    : Routes.applicationCommands(opts.applicationId);
  const out = (await rest.put(route, { body: allCommandsJson(opts.commands) })) as { id: string; name: string }[];
  return { scope: opts.guildId ? 'guild' : 'global', commands: out.map((c) => ({ id: c.id, name: c.name })) };
}
