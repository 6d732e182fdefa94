/**
 * One "bot process" of test/host/race-postgres.test.ts: its own RoundHost over its own PostgreSQL store
 * (the real code: openPostgresStore, RoundHost, the command catalogue's runText), driven over the IPC
 * channel of child_process.fork. Started with `--import tsx`; argv: <connection string> <schema> [`judge`
 * <claim grace ms>]: with `judge`, the host's judge is a stand-in model that says `{ t: 'judge-called' }` and
 * answers (as the rule judge) only when the parent sends `{ t: 'answer-judge' }` (the round is judged off
 * the match lock, as with the LLM judge); a process that lost a close claim, or sees a judging round whose
 * claimant is gone, takes over after the grace.
 *
 * Messages from the parent:
 * - `{ t: 'run', id, channel, user, text, gate, delayMs }`: run one command line as `user` (a Caller)
 * - `{ t: 'close', id, channel, round, gate, delayMs }`: what the round timer does, `closeRoundNow(…,'timer', round)`
 * - `{ t: 'release' }`: let a gated append go on; `{ t: 'quit' }`: stop the host, close the store, exit
 * Answers: `{ t: 'ready' }`, `{ t: 'at-append', id }` (a gated command reached its first append and waits),
 * `{ t: 'done', id, error?, privateTo, publicPosts, closed?, conflicts, writtenFor? }`, `{ t: 'crash', id, message }`.
 * `writtenFor` is the 0-based round the catalogue passed to `act`/`done` (the round the command read), so
 * the parent can check that an action lands in that round or is refused, whatever the interleaving.
 *
 * The gate is the barrier that makes two processes collide for real: with `gate`, the command's first
 * append to the store waits until the parent releases it, which the parent does once both processes are
 * at their append (or finished), so both planned against the same log and one append must conflict.
 */
import { pino } from 'pino';
import { runText } from '../../src/commands/index.js';
import type { Caller, Reply } from '../../src/commands/types.js';
import { RoundHost } from '../../src/host/index.js';
import { openPostgresStore, type EventStore } from '../../src/store/index.js';
import { ruleJudge } from '../../src/engine/judge/rule-judge.js';
import type { MatchState } from '../../src/engine/types.js';

type Msg =
  | { t: 'run'; id: number; channel: string; user: Caller; text: string; gate: boolean; delayMs: number }
  | { t: 'close'; id: number; channel: string; round: number; gate: boolean; delayMs: number }
  | { t: 'release' }
  | { t: 'answer-judge' }
  | { t: 'quit' };

const [url, schema, judgeMode, graceMs] = process.argv.slice(2);
if (!url || !schema || !process.send) throw new Error('usage: fork with IPC, argv <url> <schema>');
const send = (m: unknown) => process.send?.(m);

const base = await openPostgresStore({ connectionString: url, schema, maxConnections: 4 });

/** The command being run (one at a time per process: the parent waits for `done`). */
let current: { id: number; gate: boolean; conflicts: number; writtenFor?: number } | null = null;
let release: (() => void) | null = null;

// The real store, observed: count append conflicts of the current command and hold its first append at the gate.
const store: EventStore = Object.create(base) as EventStore;
store.append = async (...args) => {
  const cmd = current;
  if (cmd?.gate) {
    cmd.gate = false;
    await new Promise<void>((resolve) => {
      release = resolve;
      send({ t: 'at-append', id: cmd.id });
    });
  }
  const r = await base.append(...args);
  if (cmd && !r.ok && r.code === 'conflict') cmd.conflicts++;
  return r;
};

// autoDone off: the test decides when a seat is done (a person with nothing to decide would be marked done
// and could close the round on its own, which would blur which close the test is racing against).
// With `judge`: a model judge (no shortcut without a model) that answers when the parent says so.
const judgeWaiters: (() => void)[] = [];
const slowJudge =
  judgeMode === 'judge'
    ? {
        id: 'gated-model',
        judge: async (state: MatchState) => {
          send({ t: 'judge-called' });
          await new Promise<void>((resolve) => judgeWaiters.push(resolve));
          return ruleJudge.judge(state);
        },
      }
    : undefined;
const host = new RoundHost({
  store,
  publish: async () => {},
  autoDone: false,
  logger: pino({ level: 'silent' }),
  ...(slowJudge ? { judge: slowJudge, judgeTimeoutMs: 10_000, claimGraceMs: Number(graceMs ?? 2_000) } : {}),
});
// The host the catalogue sees: the real one, noting the round each action/done was written for.
const observed: RoundHost = Object.create(host) as RoundHost;
observed.act = (channelId, caller, action, opts = {}) => {
  if (current && opts.round !== undefined) current.writtenFor = opts.round;
  return host.act(channelId, caller, action, opts);
};
observed.done = (channelId, caller, round) => {
  if (current && round !== undefined) current.writtenFor = round;
  return host.done(channelId, caller, round);
};

const summary = (r: Reply) => ({
  ...(r.error ? { error: { code: r.error.code, message: r.error.message } } : {}),
  privateTo: r.private.map((p) => p.userId),
  publicPosts: r.public.length,
});

async function handle(m: Exclude<Msg, { t: 'release' | 'answer-judge' | 'quit' }>): Promise<void> {
  const cmd: NonNullable<typeof current> = { id: m.id, gate: m.gate, conflicts: 0 };
  current = cmd;
  try {
    if (m.delayMs > 0) await new Promise((r) => setTimeout(r, m.delayMs));
    if (m.t === 'run') {
      const reply = await runText(observed, m.channel, m.user, m.text);
      send({ t: 'done', id: m.id, ...summary(reply), conflicts: cmd.conflicts, writtenFor: cmd.writtenFor });
    } else {
      const match = await host.current(m.channel);
      const closed = match ? await host.closeRoundNow(match.id, 'timer', m.round) : null;
      send({
        t: 'done',
        id: m.id,
        privateTo: [],
        publicPosts: closed?.public.length ?? 0,
        closed: closed !== null,
        conflicts: cmd.conflicts,
      });
    }
  } catch (err) {
    send({ t: 'crash', id: m.id, message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  } finally {
    current = null;
  }
}

process.on('message', (m: Msg) => {
  if (m.t === 'release') {
    const go = release;
    release = null;
    go?.();
  } else if (m.t === 'answer-judge') {
    for (const go of judgeWaiters.splice(0)) go();
  } else if (m.t === 'quit') {
    void host
      .stop()
      .then(() => base.close())
      .then(() => process.exit(0));
  } else {
    void handle(m);
  }
});
send({ t: 'ready' });
