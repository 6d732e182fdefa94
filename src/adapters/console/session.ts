/**
 * The console adapter: a local channel in the terminal, the user `console:you` as host on lab_0, the other
 * seats scripted. It starts a new match unless told to resume one (`--resume [id]`): a piped script or a
 * `--seed` never plays on in another match by surprise. An unfinished match stays saved, and the start and
 * the goodbye print the command that resumes it (a killed process continues where it was). Each console
 * match has its own channel (`console:local`, or `console:local:<n>` while an earlier one is unfinished
 * there), so a new match never displaces a saved one. Commands are the
 * catalogue's text grammar (a leading `/arena` is optional; lines starting with `#` are comments). Interactive
 * on a TTY (prompt); otherwise one command per line, echoed, until the match ends or input ends. `quit`,
 * Ctrl-C (SIGINT) and the end of input leave and say where the match is saved and how to resume it — or,
 * with an in-memory database, that nothing is kept (persistence.ts). The console opens, seats and starts
 * the match itself, so the lobby's posts (join, start) are not shown: only the match.
 *
 * Input is text from whoever pipes it: each line loses its terminal escapes and control characters
 * (src/engine/clean-text.ts) before it is echoed or run, and a line longer than {@link MAX_INPUT_LINE}
 * characters is refused with a message; piped input is capped as it streams (line-cap.ts), so no line is
 * held whole in memory past that length.
 */
import { createInterface } from 'node:readline';
import { pino, type Logger } from 'pino';
import {
  VOTES_NOTICE,
  formatCommand,
  runText,
  setCommandErrorSink,
  type Caller,
  type Reply,
} from '../../commands/index.js';
import type { Seed, TaskName } from '../../engine/types.js';
import type { AsyncJudge } from '../../engine/judge/types.js';
import { RoundHost, type AgentFactory, type RoundHostOptions } from '../../host/index.js';
import { roundLabel } from '../../present/common.js';
import type { EventStore, MatchRecord } from '../../store/types.js';
import { ratingChangeHook } from '../../analytics/ratings/match-over.js';
import { DEFAULT_CHARTS_DIR, writeReplyCharts } from './charts.js';
import { LineQueue } from './lines.js';
import { bannerLine, chartNotWritten, goodbyeLine, quitHelp, savedLine, type Keeping } from './persistence.js';
import { renderReply } from './render.js';
import { LineCap, MAX_INPUT_LINE, tooLongLine, tooLongMessage } from './line-cap.js';
import { cleanText } from '../../engine/clean-text.js';
import { errorReply } from '../../chat/reply.js';

/** The console's channel (a new match takes `console:local:<n>` while an unfinished one holds this one). */
export const CONSOLE_CHANNEL = 'console:local';
/** The console's user: hosts the match and holds lab_0; not an admin. */
export const CONSOLE_USER: Caller = { userId: 'console:you', displayName: 'you', isAdmin: false };

/** Options of {@link runConsole}; times in ms unless named in seconds (`roundSeconds`). */
export interface ConsoleOptions {
  store: EventStore;
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream & { isTTY?: boolean };
  /** Prompt and line editing (stdin is a TTY); otherwise commands are read and echoed line by line. */
  interactive: boolean;
  /** ANSI styles (stdout is a TTY and NO_COLOR unset). */
  color: boolean;
  /**
   * Resume a saved unfinished console match: its id, or `true` for the most recent one. Undefined: start a
   * new match (and list the unfinished ones with the command that resumes each).
   */
  resume?: string | true;
  /** Settings of a new match (ignored when resuming). `seed` undefined = a match secret (printed when the match is over). */
  task: TaskName;
  seed?: Seed;
  roundSeconds: number;
  holdout?: boolean;
  /** Ballots on pitches in a new match (`new votes:on|off`); undefined = off. */
  votes?: boolean;
  /** Ballot time after the match ends and votes per person per minute (config `votes`). */
  ballots?: RoundHostOptions['votes'];
  logger?: Logger;
  /** Passed to the round host (the LLM wiring adds these when an endpoint is configured). */
  judge?: AsyncJudge;
  /** Host's judge deadline (ms) before it falls back to the rule judge. */
  judgeTimeoutMs?: number;
  agentFor?: AgentFactory;
  /** Model of an `llm` seat assigned without one. */
  defaultAgentModel?: string | null;
  /** Extra banner lines (e.g. which LLM judge/agents are in use). */
  notes?: string[];
  /** Seats to assign before a new match starts, e.g. `{ lab: 'lab_2', agent: 'llm', model: 'gpt-4o-mini' }`. */
  seats?: ConsoleSeat[];
  /**
   * Where chart PNGs are written (default ./data/charts); their paths are printed. `null`: none are written
   * (an in-memory database keeps no files) and each chart is named as not written.
   */
  chartsDir?: string | null;
  /** Where the store keeps the match and how to resume it; `null` = nothing is kept (`--db :memory:`). */
  keeping?: Keeping;
  /** Round host hook run when a match is over (e.g. the rating change post); see RoundHostOptions. */
  onMatchOver?: RoundHostOptions['onMatchOver'];
  /** The research-data policy (config `data.*`): host-seeded matches in ratings, the data notice. Default: the host's. */
  data?: RoundHostOptions['data'];
}

/** A seat the console assigns in the lobby (`--seat lab_2=llm:<model>` or `--seat lab_1=scripted:<policy>`). */
export interface ConsoleSeat {
  lab: string;
  agent: 'scripted' | 'llm';
  /** Policy name (scripted) or model name (llm). */
  name: string;
}

/** Run the console until the match ends (0), input ends (0) or the user quits (0). Rejects on store errors. */
export async function runConsole(opts: ConsoleOptions): Promise<number> {
  const logger = opts.logger ?? pino({ level: 'silent' });
  setCommandErrorSink((err, where) => logger.error({ err, ...where }, 'command failed'));
  // Piped input is capped per line before readline, which would otherwise hold a whole long line (line-cap.ts).
  const input = opts.interactive ? opts.input : opts.input.pipe(new LineCap(MAX_INPUT_LINE));
  const rl = createInterface({
    input,
    output: opts.interactive ? opts.output : undefined,
    terminal: opts.interactive,
    prompt: 'arena> ',
  });
  const queue = new LineQueue(rl);
  const write = (text: string) => {
    if (!text) return;
    if (opts.interactive) opts.output.write('\r\x1b[K');
    opts.output.write(text);
  };
  const chartsDir = opts.chartsDir === undefined ? DEFAULT_CHARTS_DIR : opts.chartsDir;
  const show = async (reply: Reply) => {
    write(renderReply(reply, { color: opts.color, userId: CONSOLE_USER.userId }));
    if (chartsDir === null) {
      for (const chart of reply.public.flatMap((p) => p.charts ?? []))
        write(chartNotWritten(chart.title, DEFAULT_CHARTS_DIR));
      return;
    }
    for (const path of await writeReplyCharts(reply, chartsDir, logger)) write(`[#arena] chart: ${path}\n`);
  };
  // Ctrl-C: at the prompt readline reports it; as a signal (piped input, `kill -INT`, or SIGTERM from a
  // service manager) the process does. Either way the loop stops after the command in hand and says where
  // the match is kept. A second signal ends the process at once (src/cli/main.ts bounds the wait).
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    rl.close();
  };
  rl.on('SIGINT', interrupt);
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  const host = new RoundHost({
    store: opts.store,
    logger,
    ...(opts.judge ? { judge: opts.judge } : {}),
    ...(opts.judgeTimeoutMs ? { judgeTimeoutMs: opts.judgeTimeoutMs } : {}),
    ...(opts.ballots ? { votes: opts.ballots } : {}),
    ...(opts.agentFor ? { agentFor: opts.agentFor, defaultAgentModel: opts.defaultAgentModel ?? null } : {}),
    // Each player's rating change follows a match's final post (src/analytics/ratings).
    onMatchOver: opts.onMatchOver ?? ratingChangeHook(opts.store, { includeSeeded: opts.data?.includeSeeded ?? false }),
    ...(opts.data ? { data: opts.data } : {}),
    publish: async (_channelId, reply) => {
      await show(reply);
      if (opts.interactive) rl.prompt(true);
      queue.poke();
    },
  });
  const target = await consoleChannel(opts);
  if (typeof target === 'string') {
    write(target);
    await host.stop();
    rl.close();
    return 2;
  }
  const channel = target.channel;
  const say = async (text: string) => show(await runText(host, channel, CONSOLE_USER, text));
  try {
    write(
      [
        opts.seats?.some((seat) => seat.agent === 'llm')
          ? `GPU Arena — console. You are the host and play lab_0; LLM seats: ${opts.seats
              .filter((seat) => seat.agent === 'llm')
              .map((seat) => `${seat.lab} (${cleanText(seat.name)})`)
              .join(', ')}; the other seats are scripted policies.`
          : 'GPU Arena — console. You are the host and play lab_0; the other seats are scripted policies.',
        opts.judge
          ? `Judge: the LLM judge (${opts.judge.id}), with the grounded rule judge as check and fallback.`
          : 'Judge: the grounded rule judge.',
        // Notes name models and addresses from the configuration: printed without escapes or controls.
        ...(opts.notes ?? []).map((n) => cleanText(n)),
        bannerLine(opts.keeping),
        '',
      ].join('\n'),
    );
    // Only this channel's match is loaded (lazily, by `current`, which also re-arms its timer): `restore()`
    // would take over every unfinished match in the database, e.g. a Discord bot's on the same SQLite file.
    for (const saved of target.saved) write(savedLine(opts.keeping, saved));
    await openMatch(opts, host, channel, (text) => runText(host, channel, CONSOLE_USER, text), show, write);
    if (opts.interactive && !interrupted) rl.prompt();
    while (!interrupted && (await host.current(channel)) !== null) {
      const line = await queue.next();
      if (line === null || interrupted) break;
      if (line === undefined) continue;
      if (tooLongLine(line)) {
        if (!opts.interactive) write(`> ${cleanText(line.slice(0, 60)).trim()}…\n`);
        await show(errorReply(CONSOLE_USER.userId, { code: 'line_too_long', message: tooLongMessage(MAX_INPUT_LINE) }));
        if (opts.interactive && !interrupted) rl.prompt();
        continue;
      }
      // Escapes and controls never reach the echo, the screen or the catalogue.
      const text = cleanText(line).trim();
      if (text === '' || text.startsWith('#')) {
        if (opts.interactive) rl.prompt();
        continue;
      }
      if (!opts.interactive) write(`> ${text}\n`);
      if (/^(quit|exit)$/i.test(text)) break;
      // `quit` is the console's own command, so the catalogue's help cannot explain it.
      if (/^(\/?arena\s+)?help\s+(command:)?(quit|exit)$/i.test(text)) write(quitHelp(opts.keeping));
      else await say(text);
      if (opts.interactive && !interrupted) rl.prompt();
    }
    const left = await host.current(channel);
    write(left ? goodbyeLine(opts.keeping, left) : 'The match is over. `npm start` opens a new one.\n');
    return 0;
  } finally {
    process.removeListener('SIGINT', interrupt);
    process.removeListener('SIGTERM', interrupt);
    rl.close();
    await host.stop();
  }
}

/** Where this run plays: the channel of the match to resume, or a free one for a new match (with the saved ones to mention). */
interface ConsoleTarget {
  channel: string;
  /** Unfinished console matches left saved (a new match was asked for): each is announced with its resume command. */
  saved: MatchRecord[];
}

/**
 * The channel of the match `opts.resume` names (or the latest unfinished console match), or, for a new
 * match, `console:local` if no unfinished match holds it, else the first free `console:local:<n>`. A
 * message (ends with a newline) when there is nothing to resume.
 */
async function consoleChannel(opts: ConsoleOptions): Promise<ConsoleTarget | string> {
  const unfinished = (await opts.store.listUnfinished())
    .filter((r) => r.platform === 'console')
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  if (opts.resume !== undefined) {
    const rec = opts.resume === true ? unfinished[0] : unfinished.find((r) => r.id === opts.resume);
    if (rec) return { channel: rec.channelId, saved: [] };
    const which =
      opts.resume === true
        ? 'no unfinished console match is saved'
        : `no unfinished console match ${opts.resume} is saved`;
    const ids = unfinished.map((r) => r.id).join(', ');
    return `Nothing to resume: ${which}${opts.keeping ? ` in ${opts.keeping.where}` : ''}.${ids ? ` Unfinished: ${ids}.` : ''} \`npm start\` opens a new match.\n`;
  }
  const held = new Set(unfinished.map((r) => r.channelId));
  let channel = CONSOLE_CHANNEL;
  for (let n = 2; held.has(channel); n++) channel = `${CONSOLE_CHANNEL}:${n}`;
  return { channel, saved: unfinished };
}

/**
 * Resume this channel's match, or create and start one with the user on lab_0. The setup commands (new,
 * join, seat, start) run like typed ones, but only their errors are shown: their lobby posts ("take a seat
 * with `join`", Join / Start buttons) describe steps the console has just done itself. What `new` says
 * about votes is kept, and `start`'s posts (the seats, round 1, the private briefing) are shown.
 */
async function openMatch(
  opts: ConsoleOptions,
  host: RoundHost,
  channel: string,
  run: (text: string) => Promise<Reply>,
  show: (reply: Reply) => Promise<void>,
  write: (t: string) => void,
): Promise<void> {
  const existing = await host.current(channel);
  if (existing?.phase === 'running' && existing.state) {
    const s = existing.state;
    write(
      `Resumed match ${existing.id} (${existing.settings.task}, seed ${existing.settings.seed}) at round ${roundLabel(s.round, s.params.maxRounds)}; ` +
        `${existing.lastSeq} events in its log. (\`end\` stops it for good.)\n`,
    );
    await show(await run('status'));
    return;
  }
  // A setup step: silent when it works; its error otherwise (then the match may not exist or start).
  const setup = async (text: string): Promise<boolean> => {
    const reply = await run(text);
    if (reply.error) await show(reply);
    return !reply.error;
  };
  if (!existing) {
    const seed = opts.seed;
    write(
      seed === undefined
        ? `New match: ${opts.task}. Its seed is a secret until the match is over; the final post prints it with the command that replays it.\n`
        : `New match: ${opts.task}, seed ${seed}, chosen by you: practice, ${opts.data?.includeSeeded ? 'yet counted in ratings and research exports (config data.includeSeeded is on)' : 'left out of ratings and research exports'}.\n`,
    );
    const created = await setup(
      formatCommand('new', {
        task: opts.task,
        seed,
        round_seconds: opts.roundSeconds,
        holdout: opts.holdout ? 'true' : undefined,
        votes: opts.votes === undefined ? undefined : opts.votes ? 'on' : 'off',
      }),
    );
    if (!created) return;
  } else {
    write(`Resumed the lobby of match ${existing.id}; starting it.\n`);
  }
  const lobby = await host.current(channel);
  if (lobby?.settings.votes) write(`${VOTES_NOTICE}\n`);
  if (lobby && !host.seatOf(lobby, CONSOLE_USER.userId)) await setup(formatCommand('join', { lab: 'lab_0' }));
  for (const seat of opts.seats ?? []) {
    await setup(
      formatCommand('seat', {
        lab: seat.lab,
        agent: seat.agent,
        ...(seat.agent === 'llm' ? { model: seat.name } : { policy: seat.name }),
      }),
    );
  }
  await show(await run('start'));
}
