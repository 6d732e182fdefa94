/**
 * Slack settings from environment variables, parsed with zod. A missing or malformed variable is
 * reported by name with where to find its value; no message ever contains a token or secret value.
 *
 * | variable | needed | value |
 * |---|---|---|
 * | SLACK_MODE | optional | `http` (default: Slack POSTs to this server) or `socket` (Socket Mode: the bot dials out, no public URL) |
 * | SLACK_BOT_TOKEN | always | Bot User OAuth Token `xoxb-…` (api.slack.com/apps → your app → OAuth & Permissions) |
 * | SLACK_SIGNING_SECRET | http mode | Basic Information → App Credentials → Signing Secret |
 * | SLACK_APP_TOKEN | socket mode | App-level token `xapp-…` with `connections:write` (Basic Information → App-Level Tokens) |
 * | SLACK_PORT / PORT | optional | HTTP port of the events endpoint `/slack/events` (default 3000) |
 * | SLACK_ADMIN_USER_IDS | optional | Comma-separated Slack user ids (U…) who may run host-only commands in any match |
 * | SLACK_API_URL | optional | Web API base for a local emulator, e.g. `http://127.0.0.1:PORT/api/` |
 */
import { z } from 'zod';
import { CodedError } from '../../errors/coded-error.js';

/** Variables that can be required. */
export type SlackVar = 'SLACK_BOT_TOKEN' | 'SLACK_SIGNING_SECRET' | 'SLACK_APP_TOKEN';

/** `http`: Slack POSTs signed requests to `/slack/events`; `socket`: Socket Mode over a WebSocket. */
export type SlackMode = 'http' | 'socket';

const HINTS: Record<SlackVar, string> = {
  SLACK_BOT_TOKEN:
    'the Bot User OAuth Token (xoxb-…) from https://api.slack.com/apps → your app → OAuth & Permissions (install the app to your workspace first)',
  SLACK_SIGNING_SECRET:
    'the Signing Secret from https://api.slack.com/apps → your app → Basic Information → App Credentials (needed for SLACK_MODE=http)',
  SLACK_APP_TOKEN:
    'an app-level token (xapp-…) with the connections:write scope from https://api.slack.com/apps → your app → Basic Information → App-Level Tokens (needed for SLACK_MODE=socket)',
};

/** A configuration error, the one error the Slack adapter throws: `variable` names the environment variable at fault (never its value). */
export class SlackConfigError extends CodedError<'missing_env' | 'invalid_env'> {
  override readonly name = 'SlackConfigError';

  constructor(
    code: 'missing_env' | 'invalid_env',
    readonly variable: string,
    message: string,
  ) {
    super(code, message);
  }
}

/** Parsed Slack settings. */
export interface SlackConfig {
  mode: SlackMode;
  botToken: string;
  /** Set in http mode. */
  signingSecret: string | null;
  /** Set in socket mode. */
  appToken: string | null;
  /** HTTP port (http mode). */
  port: number;
  /** Slack user ids (without the `slack:` prefix) treated as admins (Caller.isAdmin). */
  adminUserIds: string[];
  /** Web API base URL (WebClient `slackApiUrl`); null = slack.com. */
  apiUrl: string | null;
}

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

// Messages name the expected shape only, never the value that was given.
const EnvSchema = z.object({
  SLACK_MODE: optional(z.enum(['http', 'socket'], { error: 'expected "http" or "socket"' })),
  SLACK_BOT_TOKEN: optional(
    z.string().trim().startsWith('xoxb-', { error: 'expected a bot token starting with xoxb-' }),
  ),
  SLACK_SIGNING_SECRET: optional(z.string().trim().min(8, { error: 'expected the signing secret (a hex string)' })),
  SLACK_APP_TOKEN: optional(
    z.string().trim().startsWith('xapp-', { error: 'expected an app-level token starting with xapp-' }),
  ),
  SLACK_PORT: optional(z.coerce.number().int().min(0).max(65535)),
  PORT: optional(z.coerce.number().int().min(0).max(65535)),
  SLACK_ADMIN_USER_IDS: optional(
    z
      .string()
      .regex(/^\s*[A-Z0-9]+(\s*,\s*[A-Z0-9]+)*\s*$/, { error: 'expected comma-separated Slack user ids like U012ABC' }),
  ),
  SLACK_API_URL: optional(z.url({ error: 'expected a URL' })),
});

/** The message printed for a missing variable. */
export function missingMessage(variable: SlackVar): string {
  return `${variable} is not set. Set it to ${HINTS[variable]}.`;
}

/** Default HTTP port of the events endpoint. */
export const DEFAULT_SLACK_PORT = 3000;

/**
 * Reads the Slack settings. Requires SLACK_BOT_TOKEN, plus SLACK_SIGNING_SECRET (http) or
 * SLACK_APP_TOKEN (socket) depending on SLACK_MODE.
 * @returns the config, or a {@link SlackConfigError} value (`missing_env` / `invalid_env`) naming the variable.
 */
export function readSlackConfig(env: NodeJS.ProcessEnv): SlackConfig | SlackConfigError {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0] ?? 'SLACK_*');
    return new SlackConfigError('invalid_env', variable, `${variable} is invalid: ${issue.message}.`);
  }
  const e = parsed.data;
  const mode: SlackMode = e.SLACK_MODE ?? 'http';
  const need: SlackVar[] = ['SLACK_BOT_TOKEN', mode === 'http' ? 'SLACK_SIGNING_SECRET' : 'SLACK_APP_TOKEN'];
  for (const v of need) if (!e[v]) return new SlackConfigError('missing_env', v, missingMessage(v));
  return {
    mode,
    botToken: e.SLACK_BOT_TOKEN ?? '',
    signingSecret: mode === 'http' ? (e.SLACK_SIGNING_SECRET ?? null) : null,
    appToken: mode === 'socket' ? (e.SLACK_APP_TOKEN ?? null) : null,
    port: e.SLACK_PORT ?? e.PORT ?? DEFAULT_SLACK_PORT,
    adminUserIds: (e.SLACK_ADMIN_USER_IDS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
    apiUrl: e.SLACK_API_URL ?? null,
  };
}
