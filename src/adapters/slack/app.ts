/**
 * The Bolt App for either connection mode (config.ts, SLACK_MODE):
 * - `http`: the default HTTPReceiver verifies `x-slack-signature` with the signing secret and answers
 *   `POST /slack/events` (slash commands, interactivity); unsigned or wrongly signed requests get 401.
 * - `socket`: Socket Mode with the app-level token; the SocketModeClient opens the WebSocket through
 *   `apps.connections.open`, so no public URL is needed.
 * Bolt's own log lines go to pino (component "bolt") at `info` or above: its debug output can include
 * the Socket Mode URL, which carries a connection ticket.
 */
import { App, LogLevel, type Logger as BoltLogger, type webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import { SlackConfigError, type SlackConfig } from './config.js';

/** WebClient options (`slackApiUrl` points the Web API at an emulator; `retryConfig`, `timeout`, …). */
export type SlackClientOptions = webApi.WebClientOptions;

const LEVELS: readonly LogLevel[] = [LogLevel.DEBUG, LogLevel.INFO, LogLevel.WARN, LogLevel.ERROR];

/** Bolt's logger interface on top of pino. Messages are joined as text; objects are not dumped. */
export function boltLogger(base: Logger, initial: LogLevel = LogLevel.INFO): BoltLogger {
  let log = base.child({ component: 'bolt' });
  let level = initial;
  const enabled = (l: LogLevel) => LEVELS.indexOf(l) >= LEVELS.indexOf(level);
  const text = (msg: unknown[]) =>
    msg
      .map((m) => (m instanceof Error ? m.message : typeof m === 'string' ? m : (JSON.stringify(m) ?? String(m))))
      .join(' ');
  return {
    debug: (...m: unknown[]) => void (enabled(LogLevel.DEBUG) && log.debug(text(m))),
    info: (...m: unknown[]) => void (enabled(LogLevel.INFO) && log.info(text(m))),
    warn: (...m: unknown[]) => void (enabled(LogLevel.WARN) && log.warn(text(m))),
    error: (...m: unknown[]) => void (enabled(LogLevel.ERROR) && log.error(text(m))),
    setLevel: (l: LogLevel) => void (level = l),
    getLevel: () => level,
    setName: (name: string) => void (log = base.child({ component: 'bolt', name })),
  };
}

/** Options of {@link createSlackApp}. */
export interface SlackAppOptions {
  config: SlackConfig;
  logger: Logger;
  /** Merged over the defaults; `config.apiUrl` sets `slackApiUrl` unless given here. */
  clientOptions?: SlackClientOptions;
}

/** A Bolt App for the configured mode. Listeners are added by handlers.ts; call `app.start` to connect. */
export function createSlackApp(opts: SlackAppOptions): App {
  const { config } = opts;
  const clientOptions: SlackClientOptions = {
    ...(config.apiUrl ? { slackApiUrl: config.apiUrl } : {}),
    ...opts.clientOptions,
  };
  const common = {
    token: config.botToken,
    logger: boltLogger(opts.logger),
    clientOptions,
    // No conversation state is used; the default MemoryStore would only grow.
    convoStore: false as const,
  };
  if (config.mode === 'socket') {
    if (!config.appToken)
      throw new SlackConfigError(
        'missing_env',
        'SLACK_APP_TOKEN',
        'socket mode needs the app-level token (SLACK_APP_TOKEN)',
      );
    // installerOptions.clientOptions is what the SocketModeClient uses for apps.connections.open.
    return new App({ ...common, socketMode: true, appToken: config.appToken, installerOptions: { clientOptions } });
  }
  if (!config.signingSecret)
    throw new SlackConfigError(
      'missing_env',
      'SLACK_SIGNING_SECRET',
      'http mode needs the signing secret (SLACK_SIGNING_SECRET)',
    );
  return new App({ ...common, signingSecret: config.signingSecret, processBeforeResponse: false });
}
