/**
 * Load the configuration: the JSON file (if any), then environment variables over it, validated with zod
 * (schema.ts documents every key and its variable). Errors are values with a machine-readable code:
 * `config_not_found` (an explicitly named file is missing), `invalid_json`, `invalid_config` (with the
 * offending key paths).
 */
import { existsSync, readFileSync } from 'node:fs';
import { loadLlmConfig } from '../../llm/config.js';
import { ArenaConfigSchema, type ArenaConfig } from './schema.js';

/** Where the file is looked for when neither `--config` nor `ARENA_CONFIG` names one. */
export const DEFAULT_CONFIG_PATH = 'config/arena.json';

export interface ConfigError {
  code: 'config_not_found' | 'invalid_json' | 'invalid_config';
  message: string;
  issues?: { path: string; message: string }[];
}

type Env = Record<string, string | undefined>;

const set = (v: string | undefined) => (v !== undefined && v.trim() !== '' ? v.trim() : undefined);
/** Numbers stay strings if they do not parse, so zod reports the variable instead of NaN slipping through. */
const num = (v: string | undefined) => {
  const s = set(v);
  return s === undefined ? undefined : Number.isFinite(Number(s)) ? Number(s) : s;
};
const bool = (v: string | undefined) => {
  const s = set(v)?.toLowerCase();
  return s === undefined ? undefined : s === 'true' || s === '1' ? true : s === 'false' || s === '0' ? false : s;
};

/** Key path → the environment variable that sets it (named in error messages). */
const ENV_OF: Record<string, string> = {
  'database.url': 'DATABASE_URL',
  'database.sqlitePath': 'ARENA_DB',
  'match.task': 'ARENA_TASK',
  'match.roundSeconds': 'ARENA_ROUND_SECONDS',
  'match.holdout': 'ARENA_HOLDOUT',
  'console.roundSeconds': 'ARENA_CONSOLE_ROUND_SECONDS',
  'log.level': 'LOG_LEVEL',
  'votes.enabled': 'ARENA_VOTES',
  'votes.ballotSeconds': 'ARENA_BALLOT_SECONDS',
  'votes.perMinute': 'ARENA_VOTES_PER_MINUTE',
  'votes.pseudonymSecret': 'ARENA_PSEUDONYM_SECRET',
  'data.includeSeeded': 'ARENA_INCLUDE_SEEDED',
  'data.noticeText': 'ARENA_DATA_NOTICE',
  'data.licence': 'ARENA_DATA_LICENCE',
  'server.host': 'ARENA_SERVER_HOST',
  'server.port': 'ARENA_SERVER_PORT',
  'server.maxSessions': 'ARENA_SERVER_MAX_SESSIONS',
  'server.idleTtlSeconds': 'ARENA_SERVER_IDLE_TTL_SECONDS',
  'server.bodyLimitBytes': 'ARENA_SERVER_BODY_LIMIT_BYTES',
  'server.debugState': 'ARENA_SERVER_DEBUG_STATE',
  'shutdown.drainSeconds': 'ARENA_SHUTDOWN_DRAIN_SECONDS',
  'chat.threads': 'ARENA_CHAT_THREADS',
  'chat.reminders': 'ARENA_CHAT_REMINDERS',
  'chat.lastCallSeconds': 'ARENA_CHAT_LAST_CALL_SECONDS',
  'server.maxSessionsPerClient': 'ARENA_SERVER_MAX_SESSIONS_PER_CLIENT',
  'server.compat': 'ARENA_SERVER_COMPAT',
  'web.host': 'ARENA_WEB_HOST',
  'web.port': 'ARENA_WEB_PORT',
  'web.publicUrl': 'ARENA_WEB_PUBLIC_URL',
  'web.linkSecret': 'ARENA_WEB_LINK_SECRET',
  'web.linkTtlSeconds': 'ARENA_WEB_LINK_TTL_SECONDS',
  'web.adminToken': 'ARENA_WEB_ADMIN_TOKEN',
  'web.people': 'ARENA_WEB_PEOPLE',
  'web.minMatches': 'ARENA_WEB_MIN_MATCHES',
  'web.maxStreams': 'ARENA_WEB_MAX_STREAMS',
  'web.maxStreamsPerAddress': 'ARENA_WEB_MAX_STREAMS_PER_ADDRESS',
  'web.requestsPerMinute': 'ARENA_WEB_REQUESTS_PER_MINUTE',
  'web.renderRequestsPerMinute': 'ARENA_WEB_RENDER_REQUESTS_PER_MINUTE',
  'web.streamSeconds': 'ARENA_WEB_STREAM_SECONDS',
  'web.pollMs': 'ARENA_WEB_POLL_MS',
};

function section(raw: Record<string, unknown>, key: string): Record<string, unknown> {
  const v = raw[key];
  return v && typeof v === 'object' && !Array.isArray(v) ? { ...(v as Record<string, unknown>) } : {};
}

function defined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/** The file's content with environment variables applied over it (still unvalidated). */
export function applyEnv(raw: Record<string, unknown>, env: Env): Record<string, unknown> {
  const out: Record<string, unknown> = { ...raw };
  out.database = {
    ...section(raw, 'database'),
    ...defined({ url: set(env.DATABASE_URL), sqlitePath: set(env.ARENA_DB) }),
  };
  out.match = {
    ...section(raw, 'match'),
    ...defined({
      task: set(env.ARENA_TASK),
      roundSeconds: num(env.ARENA_ROUND_SECONDS),
      holdout: bool(env.ARENA_HOLDOUT),
    }),
  };
  out.console = { ...section(raw, 'console'), ...defined({ roundSeconds: num(env.ARENA_CONSOLE_ROUND_SECONDS) }) };
  const admins = set(env.ARENA_ADMIN_USER_IDS);
  if (admins)
    out.adminUserIds = admins
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  out.log = { ...section(raw, 'log'), ...defined({ level: set(env.LOG_LEVEL) }) };
  out.votes = {
    ...section(raw, 'votes'),
    ...defined({
      enabled: bool(env.ARENA_VOTES),
      ballotSeconds: num(env.ARENA_BALLOT_SECONDS),
      perMinute: num(env.ARENA_VOTES_PER_MINUTE),
      pseudonymSecret: set(env.ARENA_PSEUDONYM_SECRET),
    }),
  };
  out.data = {
    ...section(raw, 'data'),
    ...defined({
      includeSeeded: bool(env.ARENA_INCLUDE_SEEDED),
      noticeText: set(env.ARENA_DATA_NOTICE),
      licence: set(env.ARENA_DATA_LICENCE),
    }),
  };
  out.server = {
    ...section(raw, 'server'),
    ...defined({
      host: set(env.ARENA_SERVER_HOST),
      port: num(env.ARENA_SERVER_PORT),
      maxSessions: num(env.ARENA_SERVER_MAX_SESSIONS),
      idleTtlSeconds: num(env.ARENA_SERVER_IDLE_TTL_SECONDS),
      bodyLimitBytes: num(env.ARENA_SERVER_BODY_LIMIT_BYTES),
      debugState: bool(env.ARENA_SERVER_DEBUG_STATE ?? env.GPU_ARENA_DEBUG_STATE),
      maxSessionsPerClient: num(env.ARENA_SERVER_MAX_SESSIONS_PER_CLIENT),
      compat: set(env.ARENA_SERVER_COMPAT),
    }),
  };
  out.web = {
    ...section(raw, 'web'),
    ...defined({
      host: set(env.ARENA_WEB_HOST),
      port: num(env.ARENA_WEB_PORT),
      publicUrl: set(env.ARENA_WEB_PUBLIC_URL),
      linkSecret: set(env.ARENA_WEB_LINK_SECRET),
      linkTtlSeconds: num(env.ARENA_WEB_LINK_TTL_SECONDS),
      adminToken: set(env.ARENA_WEB_ADMIN_TOKEN),
      people: set(env.ARENA_WEB_PEOPLE),
      minMatches: num(env.ARENA_WEB_MIN_MATCHES),
      maxStreams: num(env.ARENA_WEB_MAX_STREAMS),
      maxStreamsPerAddress: num(env.ARENA_WEB_MAX_STREAMS_PER_ADDRESS),
      requestsPerMinute: num(env.ARENA_WEB_REQUESTS_PER_MINUTE),
      renderRequestsPerMinute: num(env.ARENA_WEB_RENDER_REQUESTS_PER_MINUTE),
      streamSeconds: num(env.ARENA_WEB_STREAM_SECONDS),
      pollMs: num(env.ARENA_WEB_POLL_MS),
    }),
  };
  out.shutdown = { ...section(raw, 'shutdown'), ...defined({ drainSeconds: num(env.ARENA_SHUTDOWN_DRAIN_SECONDS) }) };
  out.chat = {
    ...section(raw, 'chat'),
    ...defined({
      threads: bool(env.ARENA_CHAT_THREADS),
      reminders: bool(env.ARENA_CHAT_REMINDERS),
      lastCallSeconds: num(env.ARENA_CHAT_LAST_CALL_SECONDS),
    }),
  };
  return out;
}

/**
 * Read and validate the configuration.
 * @param path the file (`--config`); default `ARENA_CONFIG`, else config/arena.json when it exists
 * @param env usually `process.env`
 */
export function loadConfig(
  path: string | undefined,
  env: Env = process.env,
): { ok: true; config: ArenaConfig; path: string | null } | { ok: false; error: ConfigError } {
  const explicit = path ?? set(env.ARENA_CONFIG);
  const file = explicit ?? (existsSync(DEFAULT_CONFIG_PATH) ? DEFAULT_CONFIG_PATH : null);
  let raw: Record<string, unknown> = {};
  if (file) {
    if (!existsSync(file))
      return {
        ok: false,
        error: {
          code: 'config_not_found',
          message: `Config file ${file} does not exist (copy config/arena.example.json).`,
        },
      };
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
        throw new Error('the top level must be an object');
      raw = parsed as Record<string, unknown>;
    } catch (e) {
      return {
        ok: false,
        error: {
          code: 'invalid_json',
          message: `Config file ${file} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`,
        },
      };
    }
  }
  const withEnv = applyEnv(raw, env);
  const llm = loadLlmConfig(withEnv.llm ?? {}, env);
  if (!llm.ok)
    return {
      ok: false,
      error: {
        code: 'invalid_config',
        message: llm.error.message,
        issues: llm.error.issues.map((i) => ({ ...i, path: `llm.${i.path}` })),
      },
    };
  const parsed = ArenaConfigSchema.safeParse({ ...withEnv, llm: llm.config });
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => {
      const path = i.path.join('.') || '(top level)';
      const variable = ENV_OF[path];
      return { path: variable && env[variable] !== undefined ? `${path} (${variable})` : path, message: i.message };
    });
    return {
      ok: false,
      error: {
        code: 'invalid_config',
        message: `Invalid configuration${file ? ` in ${file} or the environment` : ' in the environment'}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
        issues,
      },
    };
  }
  return { ok: true, config: parsed.data, path: file };
}
