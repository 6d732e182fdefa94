/**
 * Discord settings from environment variables, parsed with zod. A missing variable is reported by name
 * with where to find its value, never with any other variable's value (tokens stay out of messages).
 *
 * | variable | needed by | value |
 * |---|---|---|
 * | DISCORD_TOKEN | start, register | the bot token (Developer Portal → Bot → Reset Token) |
 * | DISCORD_APPLICATION_ID | register | Developer Portal → General Information → Application ID |
 * | DISCORD_GUILD_ID | register (guild mode) | the server id (Developer Mode → right-click the server → Copy Server ID) |
 * | DISCORD_ADMIN_ROLE_ID | optional | members with this role may run host-only commands in any match |
 * | DISCORD_API_URL | optional | REST base for a local emulator, e.g. `http://127.0.0.1:PORT/api` |
 * | DISCORD_SHARDS | optional | shards for `npm start -- --platform discord` when `--shards` is not given (shard-spec.ts): `auto`, `4`, `0,1/4` |
 */
import { z } from 'zod';
import { DiscordConfigError } from './errors.js';

/** Environment variables a Discord entry point may require (the others in the file comment are optional). */
export type DiscordVar = 'DISCORD_TOKEN' | 'DISCORD_APPLICATION_ID' | 'DISCORD_GUILD_ID';

const HINTS: Record<DiscordVar, string> = {
  DISCORD_TOKEN: 'the bot token from https://discord.com/developers/applications → your app → Bot → Reset Token',
  DISCORD_APPLICATION_ID:
    'the Application ID from https://discord.com/developers/applications → your app → General Information',
  DISCORD_GUILD_ID:
    'the server id (Discord settings → Advanced → Developer Mode, then right-click the server → Copy Server ID); or register with --global',
};

/** Discord settings read by {@link readDiscordConfig}; null = not set. */
export interface DiscordConfig {
  token: string;
  applicationId: string | null;
  guildId: string | null;
  adminRoleId: string | null;
  /** REST base URL (discord.js `rest.api`); null = discord.com. */
  apiUrl: string | null;
}

const snowflake = z
  .string()
  .trim()
  .regex(/^\d{5,25}$/, 'a numeric Discord id');
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

const EnvSchema = z.object({
  DISCORD_TOKEN: z.preprocess(blankToUndefined, z.string().trim().min(1).optional()),
  DISCORD_APPLICATION_ID: z.preprocess(blankToUndefined, snowflake.optional()),
  DISCORD_GUILD_ID: z.preprocess(blankToUndefined, snowflake.optional()),
  DISCORD_ADMIN_ROLE_ID: z.preprocess(blankToUndefined, snowflake.optional()),
  DISCORD_API_URL: z.preprocess(blankToUndefined, z.url().optional()),
});

/** The message printed for a missing variable. */
export function missingMessage(variable: DiscordVar): string {
  return `${variable} is not set. Set it to ${HINTS[variable]}.`;
}

/**
 * Reads the Discord settings, requiring the variables in `need`.
 * @returns the config, or a {@link DiscordConfigError} value (`missing_env` / `invalid_env`) naming the variable.
 */
export function readDiscordConfig(
  env: NodeJS.ProcessEnv,
  need: readonly DiscordVar[],
): DiscordConfig | DiscordConfigError {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0] ?? 'DISCORD_*');
    return new DiscordConfigError('invalid_env', variable, `${variable} is invalid: ${issue.message}.`);
  }
  const e = parsed.data;
  for (const v of need) if (!e[v]) return new DiscordConfigError('missing_env', v, missingMessage(v));
  return {
    token: e.DISCORD_TOKEN ?? '',
    applicationId: e.DISCORD_APPLICATION_ID ?? null,
    guildId: e.DISCORD_GUILD_ID ?? null,
    adminRoleId: e.DISCORD_ADMIN_ROLE_ID ?? null,
    apiUrl: e.DISCORD_API_URL ?? null,
  };
}
