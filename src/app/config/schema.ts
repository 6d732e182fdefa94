/**
 * The app's configuration file (`config/arena.json`, see config/arena.example.json), parsed with zod.
 * Every key is optional; environment variables override the file (load.ts), command-line options override
 * both (src/cli/main.ts). Secrets (bot tokens, API keys) belong in environment variables, not in the file.
 *
 * | key | default | meaning | env override |
 * |---|---|---|---|
 * | `database.url` | null | PostgreSQL URL (`postgres://…`) shared by several bot processes; null = SQLite | `DATABASE_URL` |
 * | `database.sqlitePath` | `./data/arena.db` | SQLite file when no URL is set (`:memory:` = not persisted) | `ARENA_DB` |
 * | `match.task` | `market_round` | task of matches opened without `task:` | `ARENA_TASK` |
 * | `match.roundSeconds` | 300 | round timer (s) of chat matches opened without `round_seconds:`; 0 = no timer | `ARENA_ROUND_SECONDS` |
 * | `match.holdout` | false | holdout parameters for scripted seats by default | `ARENA_HOLDOUT` |
 * | `console.roundSeconds` | 0 | round timer of `npm start` matches (0: a round closes when you say `done`) | `ARENA_CONSOLE_ROUND_SECONDS` |
 * | `adminUserIds` | [] | platform-qualified user ids (`discord:123`, `slack:U1`) who may host any match | `ARENA_ADMIN_USER_IDS` (comma-separated) |
 * | `log.level` | `info` | pino level: fatal, error, warn, info, debug, trace, silent | `LOG_LEVEL` |
 * | `llm.*` | see src/llm/config.ts | LLM endpoint, models, judge, limits | `ARENA_LLM_*`, `OPENAI_*` (src/llm/config.ts) |
 * | `server.host` | `127.0.0.1` | address `npm run serve` listens on (the trainer HTTP API, src/adapters/http) | `ARENA_SERVER_HOST` |
 * | `server.port` | 8080 | its port (0 = any free port) | `ARENA_SERVER_PORT` |
 * | `server.maxSessions` | 256 | sessions open at once; one more gets 503 `too_many_sessions` | `ARENA_SERVER_MAX_SESSIONS` |
 * | `server.idleTtlSeconds` | 900 | a session idle this long is dropped (then 404 `unknown_session`) | `ARENA_SERVER_IDLE_TTL_SECONDS` |
 * | `server.bodyLimitBytes` | 65536 | largest request body; larger gets 413 `body_too_large` | `ARENA_SERVER_BODY_LIMIT_BYTES` |
 * | `votes.enabled` | true | matches opened without `votes:` collect blind votes on pitches (ballots) | `ARENA_VOTES` |
 * | `votes.ballotSeconds` | 300 | how long a ballot stays open after the match ends (earlier ballots close with the next round) | `ARENA_BALLOT_SECONDS` |
 * | `votes.perMinute` | 30 | votes one person may cast per minute (counted in the database on PostgreSQL, so across processes; per process on SQLite) | `ARENA_VOTES_PER_MINUTE` |
 * | `votes.pseudonymSecret` | null | key of people's pseudonyms in exports; null = generated on first use and kept in the database | `ARENA_PSEUDONYM_SECRET` |
 * | `data.includeSeeded` | false | count matches whose host chose the seed (practice) in ratings, statistics and research exports | `ARENA_INCLUDE_SEEDED` |
 * | `data.noticeText` | see src/match/data-policy.ts | the data notice each person is shown once and agrees to or declines before their words and votes can be exported | `ARENA_DATA_NOTICE` |
 * | `data.licence` | `CC-BY-4.0` | licence of dataset releases, named in the notice and the dataset card (an SPDX id) | `ARENA_DATA_LICENCE` |
 * | `server.debugState` | false | allow `GET /state?include_private=true` (the full state, every seat's secrets) | `ARENA_SERVER_DEBUG_STATE` (`GPU_ARENA_DEBUG_STATE` too, as the original) |
 * | `server.maxSessionsPerClient` | null = 1/16 of `maxSessions` (16) | own and self-play sessions one client address may hold; one more gets 429 `too_many_client_sessions` | `ARENA_SERVER_MAX_SESSIONS_PER_CLIENT` |
 * | `server.compat` | `native` | answer shapes: `native` (ours) or `original` (the original arena's exact shapes; `npm run serve -- --compat original`) | `ARENA_SERVER_COMPAT` |
 * | `web.host` / `web.port` | `127.0.0.1` / 8090 | address `npm run web` listens on (the public web page, src/web) | `ARENA_WEB_HOST` / `ARENA_WEB_PORT` |
 * | `web.publicUrl` | null | the page's public base URL (`https://arena.example.org`); set = `vote` replies carry a personal web-vote link | `ARENA_WEB_PUBLIC_URL` |
 * | `web.linkSecret` | null | key that signs web-vote links (≥ 16 characters); null = generated once and kept in the database | `ARENA_WEB_LINK_SECRET` |
 * | `web.linkTtlSeconds` | 3600 | how long a web-vote link stays valid | `ARENA_WEB_LINK_TTL_SECONDS` |
 * | `web.adminToken` | null | bearer token of the preference-data downloads (≥ 16 characters); null = no downloads | `ARENA_WEB_ADMIN_TOKEN` |
 * | `web.people` | `pseudonyms` | how the page names people: `names` (display names, as in the channel) or `pseudonyms` | `ARENA_WEB_PEOPLE` |
 * | `web.minMatches` | 1 | leaderboard: fewest counted matches a player needs to be listed | `ARENA_WEB_MIN_MATCHES` |
 * | `web.maxStreams` / `web.maxStreamsPerAddress` | 1000 / null = 1/16 of `maxStreams` (62) | open live-update streams at once, overall and per client address (one more gets 503/429) | `ARENA_WEB_MAX_STREAMS` / `ARENA_WEB_MAX_STREAMS_PER_ADDRESS` |
 * | `web.streamSeconds` | 600 | a live-update stream ends after this; the browser reconnects at once and resumes where it was (`Last-Event-ID`) | `ARENA_WEB_STREAM_SECONDS` |
 * | `web.requestsPerMinute` | 600 | page and API requests per client address per minute (429 above) | `ARENA_WEB_REQUESTS_PER_MINUTE` |
 * | `web.renderRequestsPerMinute` | 60 | requests per client address per minute to the routes that render (leaderboard, preference data, charts), at most a sixth of them in any 10 s; within `requestsPerMinute` | `ARENA_WEB_RENDER_REQUESTS_PER_MINUTE` |
 * | `web.pollMs` | 250 | how often a watched live match's log is read for new events (ms) | `ARENA_WEB_POLL_MS` |
 * | `chat.threads` | true | `new` on Discord and Slack opens its match in its own thread under a card in the channel (a channel's setting and `new thread:` come first) | `ARENA_CHAT_THREADS` |
 * | `chat.reminders` | true | ping a person when a round waits for them (a channel's and a person's setting come first) | `ARENA_CHAT_REMINDERS` |
 * | `chat.lastCallSeconds` | 60 | the second ping of a timed round goes this long before its close (at most a quarter of the round) | `ARENA_CHAT_LAST_CALL_SECONDS` |
 *
 * | `shutdown.drainSeconds` | 10 | after SIGTERM/SIGINT: how long in-flight commands and queued posts may take before the store closes and the process exits 0 (a second signal exits at once) | `ARENA_SHUTDOWN_DRAIN_SECONDS` |
 * | `llm.allowedModels` | agent + judge models | models a host may seat (`seat … agent:llm model:…`); see src/llm/config.ts | `ARENA_LLM_ALLOWED_MODELS` (comma-separated) |
 * | `llm.matchTokenBudget` | 400000 | tokens (prompt + completion) one match may spend, seats and judge together; 0 = unlimited | `ARENA_LLM_MATCH_TOKEN_BUDGET` |
 * | `llm.dailyTokens` | 5000000 | tokens (prompt + completion) the whole deployment may spend per UTC day, counted in the database across processes; 0 = unlimited | `ARENA_LLM_DAILY_TOKENS` |
 * | `llm.channelDailyTokens` | 1500000 | tokens (prompt + completion) one channel may spend per UTC day (a Discord thread counts against its parent); 0 = unlimited. Admins see the day's usage with `stats view:usage` | `ARENA_LLM_CHANNEL_DAILY_TOKENS` |
 * | `llm.personDailyTokens` | 1000000 | tokens (prompt + completion) one host may spend per UTC day: the seats and judge of every match they host, in every channel and server; 0 = unlimited | `ARENA_LLM_PERSON_DAILY_TOKENS` |
 *
 * Platform credentials are read from the environment by each adapter: Discord `DISCORD_TOKEN`,
 * `DISCORD_APPLICATION_ID`, `DISCORD_GUILD_ID`, `DISCORD_ADMIN_ROLE_ID` (src/adapters/discord/config.ts);
 * Slack `SLACK_BOT_TOKEN`, `SLACK_SIGNING_SECRET`, `SLACK_APP_TOKEN`, `SLACK_MODE`, … (src/adapters/slack/config.ts).
 */
import { z } from 'zod';
import { TASK_NAMES, type TaskName } from '../../engine/types.js';
import { LlmConfigSchema } from '../../llm/config.js';
import { MAX_ROUND_SECONDS } from '../../match/settings.js';
import { DEFAULT_NOTICE_LICENCE, DEFAULT_NOTICE_TEXT, dataNotice, type DataPolicy } from '../../match/data-policy.js';

const seconds = z.number().int().min(0).max(MAX_ROUND_SECONDS);

/**
 * Share of all slots one client address may hold unless configured otherwise: event streams of the web page
 * (`web.maxStreamsPerAddress`) and sessions of the HTTP API (`server.maxSessionsPerClient`). With 1/16, no
 * fewer than 16 addresses can fill a server.
 */
export const ADDRESS_SHARE = 1 / 16;
/** The per-address cap of `slots` under {@link ADDRESS_SHARE}: at least 1. */
export const addressCap = (slots: number): number => Math.max(1, Math.floor(slots * ADDRESS_SHARE));

export const ArenaConfigSchema = z
  .object({
    /** Optional JSON-schema pointer for editors; ignored. */
    $schema: z.string().optional(),
    database: z
      .object({
        url: z.string().trim().min(1).nullable().default(null),
        sqlitePath: z.string().trim().min(1).default('./data/arena.db'),
      })
      .strict()
      .prefault({}),
    match: z
      .object({
        task: z.enum(TASK_NAMES as [TaskName, ...TaskName[]]).default('market_round'),
        roundSeconds: seconds.default(300),
        holdout: z.boolean().default(false),
      })
      .strict()
      .prefault({}),
    console: z
      .object({ roundSeconds: seconds.default(0) })
      .strict()
      .prefault({}),
    adminUserIds: z
      .array(
        z
          .string()
          .trim()
          .regex(/^[a-z]+:.+$/, 'a platform-qualified user id like discord:123'),
      )
      .default([]),
    log: z
      .object({ level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info') })
      .strict()
      .prefault({}),
    llm: LlmConfigSchema.prefault({}),
    votes: z
      .object({
        enabled: z.boolean().default(true),
        ballotSeconds: seconds.default(300),
        perMinute: z.number().int().min(1).max(10_000).default(30),
        /** Key of the people's pseudonyms in exports (src/analytics/preference/pseudonym.ts); null = generated once and kept in the database. */
        pseudonymSecret: z.string().trim().min(16, 'at least 16 characters').nullable().default(null),
      })
      .strict()
      .prefault({}),
    /** The research-data policy (src/match/data-policy.ts): host-seeded matches, the data notice and its licence. */
    data: z
      .object({
        includeSeeded: z.boolean().default(false),
        noticeText: z.string().trim().min(40, 'at least 40 characters').max(1800).default(DEFAULT_NOTICE_TEXT),
        licence: z
          .string()
          .trim()
          .regex(/^[A-Za-z0-9.+-]{2,40}$/, 'an SPDX licence id like CC-BY-4.0')
          .default(DEFAULT_NOTICE_LICENCE),
      })
      .strict()
      .prefault({}),
    server: z
      .object({
        host: z.string().trim().min(1).default('127.0.0.1'),
        port: z.number().int().min(0).max(65535).default(8080),
        maxSessions: z.number().int().min(1).max(100_000).default(256),
        idleTtlSeconds: z
          .number()
          .int()
          .min(1)
          .max(7 * 24 * 3600)
          .default(900),
        bodyLimitBytes: z
          .number()
          .int()
          .min(1024)
          .max(16 * 1024 * 1024)
          .default(65_536),
        debugState: z.boolean().default(false),
        /** null = {@link addressCap} of maxSessions. */
        maxSessionsPerClient: z.number().int().min(1).max(100_000).nullable().default(null),
        compat: z.enum(['native', 'original']).default('native'),
      })
      .strict()
      .transform((s) => ({ ...s, maxSessionsPerClient: s.maxSessionsPerClient ?? addressCap(s.maxSessions) }))
      .prefault({}),
    web: z
      .object({
        host: z.string().trim().min(1).default('127.0.0.1'),
        port: z.number().int().min(0).max(65535).default(8090),
        publicUrl: z
          .url({ protocol: /^https?$/ })
          .nullable()
          .default(null),
        linkSecret: z.string().trim().min(16, 'at least 16 characters').nullable().default(null),
        linkTtlSeconds: z
          .number()
          .int()
          .min(60)
          .max(7 * 24 * 3600)
          .default(3600),
        adminToken: z.string().trim().min(16, 'at least 16 characters').nullable().default(null),
        people: z.enum(['names', 'pseudonyms']).default('pseudonyms'),
        minMatches: z.number().int().min(1).max(1000).default(1),
        maxStreams: z.number().int().min(1).max(100_000).default(1000),
        /** null = {@link addressCap} of maxStreams. */
        maxStreamsPerAddress: z.number().int().min(1).max(100_000).nullable().default(null),
        streamSeconds: z
          .number()
          .int()
          .min(10)
          .max(24 * 3600)
          .default(600),
        requestsPerMinute: z.number().int().min(10).max(1_000_000).default(600),
        renderRequestsPerMinute: z.number().int().min(1).max(1_000_000).default(60),
        pollMs: z.number().int().min(20).max(10_000).default(250),
      })
      .strict()
      .transform((w) => ({ ...w, maxStreamsPerAddress: w.maxStreamsPerAddress ?? addressCap(w.maxStreams) }))
      .prefault({}),
    /**
     * Chat play (Discord, Slack): `threads`, whether `new` opens its match in a thread under a card (a channel's
     * own setting, `me channel_threads:on|off`, and `new thread:` come first); `reminders`, whether people are pinged
     * when a round waits for them (a channel's and a person's setting, `me channel_reminders:` / `me reminders:`,
     * come first); `lastCallSeconds`, how long before a timed round's close the second ping goes (at most a
     * quarter of the round).
     */
    chat: z
      .object({
        threads: z.boolean().default(true),
        reminders: z.boolean().default(true),
        lastCallSeconds: z.number().int().min(5).max(3600).default(60),
      })
      .strict()
      .prefault({}),
    /** Graceful stop (src/app/shutdown.ts): seconds in-flight commands and queued posts may take after SIGTERM/SIGINT. */
    shutdown: z
      .object({ drainSeconds: z.number().min(0).max(600).default(10) })
      .strict()
      .prefault({}),
  })
  .strict();

/** The validated configuration. */
export type ArenaConfig = z.output<typeof ArenaConfigSchema>;

/** The research-data policy of `config` (`data.*`): what every entry point of ratings, statistics and exports applies. */
export const dataPolicyOf = (config: Pick<ArenaConfig, 'data' | 'votes'>): DataPolicy => ({
  includeSeeded: config.data.includeSeeded,
  notice: dataNotice(config.data.noticeText, config.data.licence),
  pseudonymSecret: config.votes.pseudonymSecret,
});
/** What the file may contain. */
export type ArenaConfigInput = z.input<typeof ArenaConfigSchema>;
