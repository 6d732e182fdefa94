/**
 * Shared pieces of the Slack tests: a fake command backend that records what it was asked, a pino
 * logger whose lines are kept for assertions, and a bot started against the emulator.
 */
import { Writable } from 'node:stream';
import { pino, type Level, type Logger } from 'pino';
import type { Caller, Reply } from '../../../src/commands/types.js';
import type { SlackBackend } from '../../../src/adapters/slack/backend.js';
import { startSlackBot, type SlackBot, type SlackBotOptions } from '../../../src/adapters/slack/bot.js';
import type { SlackConfig } from '../../../src/adapters/slack/config.js';
import { after, before } from 'node:test';
import { SlackEmulator, type AppTarget } from '../../emulators/slack.js';
import { openStore } from '../../../src/store/index.js';
import { startSlack, type StartedSlack } from '../../../src/app/slack.js';
import type { EventStore } from '../../../src/store/types.js';

export const BOT_TOKEN = 'xoxb-fake-bot-token-SECRET-1';
export const APP_TOKEN = 'xapp-1-fake-app-token-SECRET-2';
export const SIGNING_SECRET = 'signing-secret-SECRET-3-abcdef';

export const alice = { id: 'U0ALICE', name: 'alice' };
export const bob = { id: 'U0BOB', name: 'bob' };

export interface Call {
  kind: 'text' | 'command';
  channelId: string;
  caller: Caller;
  text: string;
  /** The match a pressed button was made for. */
  match?: string;
  options?: Record<string, string>;
}

/** A backend whose replies depend on the command word; it records every call. */
export class FakeBackend implements SlackBackend {
  calls: Call[] = [];

  async runText(channelId: string, caller: Caller, text: string, opts: { match?: string } = {}): Promise<Reply> {
    this.calls.push({
      kind: 'text',
      channelId,
      caller,
      text,
      ...(opts.match !== undefined ? { match: opts.match } : {}),
    });
    return this.reply(text.trim().split(/\s+/)[0] ?? '', caller);
  }

  async runCommand(channelId: string, caller: Caller, name: string, options: Record<string, string>): Promise<Reply> {
    this.calls.push({ kind: 'command', channelId, caller, text: name, options });
    return {
      public: [{ title: 'Lab A pitches', text: options['text'] ?? '' }],
      private: [{ userId: caller.userId, text: 'Your pitch is in.' }],
    };
  }

  /** No matches: an App Home with nothing open and no record. */
  async home(): Promise<{ entries: []; record: { text: string } }> {
    return { entries: [], record: { text: 'Not rated yet.' } };
  }

  async context(): Promise<{ matchId: string; seat: string | null }> {
    return { matchId: 'm_fake1', seat: 'lab_0' };
  }

  private reply(word: string, caller: Caller): Reply {
    switch (word) {
      case 'me':
        return { public: [], private: [{ userId: caller.userId, title: 'Your seat', text: 'budget **101.53**' }] };
      case 'message':
        return {
          public: [],
          private: [
            { userId: caller.userId, text: 'Sent.' },
            { userId: `slack:${bob.id}`, text: 'A private note from Lab A.' },
          ],
        };
      case 'done':
        return {
          public: [
            { title: 'Round 1 closed', text: 'no trades', fields: [{ name: 'Leaderboard', value: 'Lab A 0.1' }] },
            { title: 'Round 2 is open', text: 'go' },
          ],
          private: [
            { userId: caller.userId, text: 'your reward 0.1' },
            { userId: `slack:${bob.id}`, text: 'bob reward 0.2' },
          ],
        };
      case 'burst':
        return { public: [1, 2, 3].map((i) => ({ title: `Post ${i}`, text: `burst ${i}` })), private: [] };
      case 'boom':
        throw new Error('backend exploded');
      case 'bad':
        return {
          public: [],
          private: [{ userId: caller.userId, title: '✗ bad_token', text: 'nope' }],
          error: { code: 'bad_token', message: 'nope' },
        };
      case 'quiet':
        return { public: [], private: [] };
      default:
        return {
          public: [
            {
              title: word,
              text: `ran <${word}> & more`,
              buttons: [
                {
                  id: 'arena:accept offer:o_1',
                  label: 'Accept o_1',
                  command: 'accept offer:o_1',
                  style: 'success',
                  matchId: 'm_1',
                },
              ],
            },
          ],
          private: [],
        };
    }
  }
}

/** A pino logger writing JSON lines into `lines` (`level`: default info). */
export function captureLogger(level: Level = 'info'): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(
        ...String(chunk)
          .split('\n')
          .filter((l) => l !== ''),
      );
      cb();
    },
  });
  return { logger: pino({ level }, stream), lines };
}

/** A config for the emulator in `mode`. */
export function testConfig(emu: SlackEmulator, mode: 'http' | 'socket', adminUserIds: string[] = []): SlackConfig {
  return {
    mode,
    botToken: BOT_TOKEN,
    signingSecret: mode === 'http' ? SIGNING_SECRET : null,
    appToken: mode === 'socket' ? APP_TOKEN : null,
    port: 0,
    adminUserIds,
    apiUrl: emu.apiUrl,
  };
}

/** Starts a bot against the emulator on 127.0.0.1 with no Web API retries (a failure shows at once). */
export function startTestBot(
  emu: SlackEmulator,
  mode: 'http' | 'socket',
  extra: Partial<SlackBotOptions> & Pick<SlackBotOptions, 'backend' | 'logger'>,
): Promise<SlackBot> {
  return startSlackBot({
    config: testConfig(emu, mode),
    host: '127.0.0.1',
    port: 0,
    clientOptions: { retryConfig: { retries: 0 } },
    ...extra,
  });
}

/**
 * The real app (startSlack: catalogue, round host, Bolt) on `store`, against the emulator in HTTP mode on
 * 127.0.0.1, posts `postIntervalMs` apart per channel; with the signed-request target of its events URL.
 * `threads`: `new` plays its match in the thread of a card (default: flat posting).
 */
export async function startSlackOnEmulator(
  emu: SlackEmulator,
  store: EventStore,
  logger: Logger,
  postIntervalMs = 10,
  threads = false,
): Promise<{ slack: StartedSlack; target: AppTarget }> {
  const slack = await startSlack({
    env: { SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_SIGNING_SECRET: SIGNING_SECRET, SLACK_API_URL: emu.apiUrl },
    store,
    logger,
    port: 0,
    listenHost: '127.0.0.1',
    clientOptions: { retryConfig: { retries: 0 } },
    postIntervalMs,
    threads,
  });
  return { slack, target: { url: `http://127.0.0.1:${slack.port}/slack/events`, signingSecret: SIGNING_SECRET } };
}

/** The app's events URL. */
export const eventsUrl = (bot: SlackBot) => `http://127.0.0.1:${bot.port}/slack/events`;

/** A running app on the emulator for a test file: its parts are set in `before` and stopped in `after`. */
export interface SlackSession {
  emu: SlackEmulator;
  store: EventStore;
  slack: StartedSlack;
  target: AppTarget;
}

/**
 * Registers `before` / `after` hooks that start the real app (startSlackOnEmulator, a SQLite ':memory:' store)
 * on a fresh emulator and stop everything afterwards; `threads`: matches play in card threads.
 */
export function slackSession(threads = false): SlackSession {
  const session = { emu: new SlackEmulator() } as SlackSession;
  before(async () => {
    await session.emu.start();
    session.store = await openStore({ sqlitePath: ':memory:' });
    Object.assign(session, await startSlackOnEmulator(session.emu, session.store, captureLogger().logger, 10, threads));
  });
  after(async () => {
    await session.slack.stop();
    await session.store.close();
    await session.emu.close();
  });
  return session;
}
