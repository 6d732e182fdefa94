/**
 * `npm run discord:register [-- --global]`: registers `/arena` for DISCORD_GUILD_ID (default) or
 * globally. Needs DISCORD_TOKEN and DISCORD_APPLICATION_ID (and DISCORD_GUILD_ID unless --global);
 * a missing one is named in the error. Exit codes: 0 ok, 1 registration failed, 2 configuration.
 */
import { Command } from 'commander';
import { pino } from 'pino';
import { COMMANDS } from '../commands/index.js';
import { readDiscordConfig, type DiscordVar } from '../adapters/discord/config.js';
import { registerCommands } from '../adapters/discord/register.js';

const program = new Command('discord:register')
  .description('Register the /arena slash command with Discord')
  .option('--global', 'register globally instead of for DISCORD_GUILD_ID (may take up to an hour to appear)', false)
  .parse();

const { global } = program.opts<{ global: boolean }>();
const logger = pino({ name: 'discord-register' });
const need: DiscordVar[] = global
  ? ['DISCORD_TOKEN', 'DISCORD_APPLICATION_ID']
  : ['DISCORD_TOKEN', 'DISCORD_APPLICATION_ID', 'DISCORD_GUILD_ID'];
const config = readDiscordConfig(process.env, need);
if (config instanceof Error) {
  console.error(config.message);
  process.exit(2);
}

try {
  const result = await registerCommands({
    token: config.token,
    applicationId: config.applicationId!,
    guildId: global ? null : config.guildId,
    commands: COMMANDS,
    ...(config.apiUrl ? { restApi: config.apiUrl } : {}),
  });
  logger.info({ scope: result.scope, commands: result.commands.map((c) => c.name) }, 'registered');
} catch (err) {
  logger.error({ err: (err as Error).message }, 'registration failed');
  process.exit(1);
}
