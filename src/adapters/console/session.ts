/**
 * The console adapter: one local channel (`console:local`) in the terminal, the user `console:you` as host
 * on lab_0, the other seats scripted. On start it resumes this channel's unfinished match from the store
 * (so a killed process continues where it was), else creates and starts a new one. Commands are the
 * catalogue's text grammar (a leading `/arena` is optional; lines starting with `#` are comments). Interactive
 * on a TTY (prompt; Ctrl-C or `quit` leaves, the match stays saved); otherwise one command per line, echoed,
 * until the match ends or input ends.
 */
import { createInterface } from 'node:readline';
import { pino, type Logger } from 'pino';
import { formatCommand, runText, setCommandErrorSink, type Caller, type Reply } from '../../commands/index.js';
import type { TaskName } from '../../engine/types.js';
import type { AsyncJudge } from '../../engine/judge/types.js';
import { RoundHost, type AgentFactory, type RoundHostOptions } from '../../host/index.js';
import { roundLabel } from '../../present/common.js';
import type { EventStore } from '../../store/types.js';
import { ratingChangeHook } from '../../analytics/ratings/match-over.js';
import { DEFAULT_CHARTS_DIR, writeReplyCharts } from './charts.js';
import { LineQueue } from './lines.js';
import { renderReply } from './render.js';

/** The console's one channel and user. */
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
  /** Settings of a new match (ignored when resuming). `seed` undefined = random (printed). */
  task: TaskName;
  seed?: number;
  roundSeconds: number;
  holdout?: boolean;
  /** Ballots on pitches in a new match (`new votes:on|off`; issue #10); undefined = off. */
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
  /** Where chart PNGs are written (default ./data/charts); their paths are printed. */
  chartsDir?: string;
  /** Round host hook run when a match is over (e.g. the rating change post); see RoundHostOptions. */
  onMatchOver?: RoundHostOptions['onMatchOver'];
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
  const rl = createInterface({ input: opts.input, output: opts.interactive ? opts.output : undefined, terminal: opts.interactive, prompt: 'arena> ' });
  const queue = new LineQueue(rl);
  // Ctrl-C at the prompt leaves like `quit` (readline would otherwise only pause the input).
  rl.on('SIGINT', () => rl.close());
  const write = (text: string) => {
    if (!text) return;
    if (opts.interactive) opts.output.write('\r\x1b[K');
    opts.output.write(text);
  };
  const chartsDir = opts.chartsDir ?? DEFAULT_CHARTS_DIR;
  const show = async (reply: Reply) => {
    write(renderReply(reply, { color: opts.color, userId: CONSOLE_USER.userId }));
    for (const path of await writeReplyCharts(reply, chartsDir, logger)) write(`[#arena] chart: ${path}\n`);
  };
  const host = new RoundHost({
    store: opts.store,
    logger,
    ...(opts.judge ? { judge: opts.judge } : {}),
    ...(opts.judgeTimeoutMs ? { judgeTimeoutMs: opts.judgeTimeoutMs } : {}),
    ...(opts.ballots ? { votes: opts.ballots } : {}),
    ...(opts.agentFor ? { agentFor: opts.agentFor, defaultAgentModel: opts.defaultAgentModel ?? null } : {}),
    // Each player's rating change follows a match's final post (src/analytics/ratings).
    onMatchOver: opts.onMatchOver ?? ratingChangeHook(opts.store),
    publish: async (_channelId, reply) => {
      await show(reply);
      if (opts.interactive) rl.prompt(true);
      queue.poke();
    },
  });
  const say = async (text: string) => show(await runText(host, CONSOLE_CHANNEL, CONSOLE_USER, text));
  try {
    write(
      [
        opts.seats?.some((seat) => seat.agent === 'llm')
          ? `GPU Arena — console. You are the host and play lab_0; LLM seats: ${opts.seats.filter((seat) => seat.agent === 'llm').map((seat) => `${seat.lab} (${seat.name})`).join(', ')}; the other seats are scripted policies.`
          : 'GPU Arena — console. You are the host and play lab_0; the other seats are scripted policies.',
        opts.judge ? `Judge: the LLM judge (${opts.judge.id}), with the grounded rule judge as check and fallback.` : 'Judge: the grounded rule judge.',
        ...(opts.notes ?? []),
        'Commands: `help`, `me` (your private view), `status`, `offer …`, `pitch text:"…"`, `allocate …`, `done` (closes the round). `quit` leaves; the match is saved and resumes next time.',
        '',
      ].join('\n'),
    );
    // Only this channel's match is loaded (lazily, by `current`, which also re-arms its timer): `restore()`
    // would take over every unfinished match in the database, e.g. a Discord bot's on the same SQLite file.
    await openMatch(opts, host, say, write);
    if (opts.interactive) rl.prompt();
    while ((await host.current(CONSOLE_CHANNEL)) !== null) {
      const line = await queue.next();
      if (line === null) break;
      if (line === undefined) continue;
      const text = line.trim();
      if (text === '' || text.startsWith('#')) {
        if (opts.interactive) rl.prompt();
        continue;
      }
      if (!opts.interactive) write(`> ${text}\n`);
      if (/^(quit|exit)$/i.test(text)) {
        write('Bye: the match is saved; `npm start` resumes it.\n');
        return 0;
      }
      await say(text);
      if (opts.interactive) rl.prompt();
    }
    if ((await host.current(CONSOLE_CHANNEL)) === null) write('The match is over. `npm start` opens a new one.\n');
    return 0;
  } finally {
    rl.close();
    await host.stop();
  }
}

/** Resume this channel's match, or create and start one with the user on lab_0. */
async function openMatch(opts: ConsoleOptions, host: RoundHost, say: (text: string) => Promise<void>, write: (t: string) => void): Promise<void> {
  const existing = await host.current(CONSOLE_CHANNEL);
  if (existing?.phase === 'running' && existing.state) {
    const s = existing.state;
    write(
      `Resumed match ${existing.id} (${existing.settings.task}, seed ${existing.settings.seed}) at round ${roundLabel(s.round, s.params.maxRounds)}; ` +
        `${existing.lastSeq} events in its log. (--task/--seed apply to new matches; \`end\` stops this one.)\n`,
    );
    await say('status');
    return;
  }
  if (!existing) {
    const seed = opts.seed ?? Math.floor(Math.random() * 1_000_000);
    write(`New match: ${opts.task}, seed ${seed} (replay it with: npm start -- --task ${opts.task} --seed ${seed}).\n`);
    await say(formatCommand('new', { task: opts.task, seed, round_seconds: opts.roundSeconds, holdout: opts.holdout ? 'true' : undefined, votes: opts.votes === undefined ? undefined : opts.votes ? 'on' : 'off' }));
  } else {
    write(`Resumed the lobby of match ${existing.id}; starting it.\n`);
  }
  const lobby = await host.current(CONSOLE_CHANNEL);
  if (lobby && !host.seatOf(lobby, CONSOLE_USER.userId)) await say(formatCommand('join', { lab: 'lab_0' }));
  for (const seat of opts.seats ?? []) {
    await say(formatCommand('seat', { lab: seat.lab, agent: seat.agent, ...(seat.agent === 'llm' ? { model: seat.name } : { policy: seat.name }) }));
  }
  await say('start');
}
