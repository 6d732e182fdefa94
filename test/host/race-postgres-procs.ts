/**
 * The parent side of test/host/race-postgres.test.ts: two bot processes (race-postgres-worker.ts, forked
 * through tsx), each with its own RoundHost and store on one PostgreSQL schema, and {@link race}, which
 * runs one command in each at once (optionally through the append barrier, see the worker's comment).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Caller } from '../../src/commands/types.js';

const WORKER = fileURLToPath(new URL('./race-postgres-worker.ts', import.meta.url));

/** What a worker answers when a command finished. */
export interface Done {
  error?: { code: string; message: string };
  /** Users the reply's private posts go to. */
  privateTo: string[];
  publicPosts: number;
  /** `close` only: whether this call closed the round. */
  closed?: boolean;
  /** Append conflicts the command met (another process appended first). */
  conflicts: number;
  /** `run` of an action or `done`: the 0-based round the command read (and was written for). */
  writtenFor?: number;
}

/** A command for one process: a command line as a person, or what the round timer does. */
export type Cmd =
  { t: 'run'; channel: string; user: Caller; text: string } | { t: 'close'; channel: string; round: number };

interface Pending {
  done: (d: Done) => void;
  fail: (e: Error) => void;
  atAppend: () => void;
}

/** One forked bot process. */
export class Proc {
  private next = 0;
  private readonly pending = new Map<number, Pending>();
  private exited: Error | null = null;
  /** How often this process's gated judge was asked (a worker started with `judge`). */
  judgeCalls = 0;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    child.on('message', (m: { t: string; id?: number; message?: string } & Partial<Done>) => {
      if (m.t === 'judge-called') this.judgeCalls++;
      const p = m.id === undefined ? undefined : this.pending.get(m.id);
      if (!p) return;
      if (m.t === 'at-append') p.atAppend();
      else if (m.t === 'crash') p.fail(new Error(`${name} crashed: ${m.message}`));
      else if (m.t === 'done') {
        this.pending.delete(m.id!);
        const { t: _t, id: _id, ...done } = m;
        p.done(done as Done);
      }
    });
    child.on('exit', (code) => {
      this.exited = new Error(`${name} exited (${code})`);
      for (const p of this.pending.values()) p.fail(this.exited);
      this.pending.clear();
    });
  }

  /** Fork a worker on `schema` of `url` (`extra`: the worker's optional judge arguments) and wait until its host is up. */
  static async start(name: string, url: string, schema: string, extra: string[] = []): Promise<Proc> {
    const child = fork(WORKER, [url, schema, ...extra], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`${name} exited before ready (${code})`)));
    });
    return new Proc(name, child);
  }

  /** Send `cmd`; `done` settles when it finished, `atAppend` when (gated) it waits at its first append. */
  send(cmd: Cmd, opts: { gate?: boolean; delayMs?: number } = {}): { done: Promise<Done>; atAppend: Promise<void> } {
    if (this.exited) throw this.exited;
    const id = ++this.next;
    let atAppend: () => void = () => {};
    const reached = new Promise<void>((r) => (atAppend = r));
    const done = new Promise<Done>((resolve, reject) =>
      this.pending.set(id, { done: resolve, fail: reject, atAppend }),
    );
    this.child.send({ ...cmd, id, gate: opts.gate ?? false, delayMs: opts.delayMs ?? 0 });
    return { done, atAppend: reached };
  }

  /** Run `cmd` alone and wait for it. */
  run(cmd: Cmd): Promise<Done> {
    return this.send(cmd).done;
  }

  /** Let a command waiting at the append barrier go on (no-op if none waits). */
  release(): void {
    this.child.send({ t: 'release' });
  }

  /** Let this process's gated judge answer every question it was asked. */
  answerJudge(): void {
    this.child.send({ t: 'answer-judge' });
  }

  /** Kill the process at once (SIGKILL: no drain, nothing more appended), as a crash would. */
  async kill(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((r) => this.child.once('exit', () => r()));
    this.child.kill('SIGKILL');
    await gone;
  }

  /** Stop the host, close the store, exit. */
  async quit(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((r) => this.child.once('exit', () => r()));
    this.child.send({ t: 'quit' });
    await gone;
  }
}

/**
 * How two commands meet. `none`: no barrier (delays vary the interleaving; one may finish before the
 * other starts). The others hold each command at its first append until both processes are there (or
 * finished without appending), so both planned against the same log and one append must conflict:
 * `both` then releases them together (the database picks the winner), `a-first`/`b-first` let that side
 * finish before releasing the other (a real conflict with a known winner).
 */
export type Gate = 'none' | 'both' | 'a-first' | 'b-first';

/** Run `a` on `pa` and `b` on `pb` at once, met as `gate` says; delays in ms before each command starts. */
export async function race(
  pa: Proc,
  a: Cmd,
  pb: Proc,
  b: Cmd,
  opts: { gate: Gate; delayA?: number; delayB?: number },
): Promise<[Done, Done]> {
  const gated = opts.gate !== 'none';
  const ha = pa.send(a, { gate: gated, delayMs: opts.delayA ?? 0 });
  const hb = pb.send(b, { gate: gated, delayMs: opts.delayB ?? 0 });
  const settled = (p: Promise<Done>) =>
    p.then(
      () => undefined,
      () => undefined,
    );
  if (gated) {
    await Promise.all([Promise.race([ha.atAppend, settled(ha.done)]), Promise.race([hb.atAppend, settled(hb.done)])]);
    if (opts.gate === 'a-first') {
      pa.release();
      await settled(ha.done);
      pb.release();
    } else if (opts.gate === 'b-first') {
      pb.release();
      await settled(hb.done);
      pa.release();
    } else {
      pa.release();
      pb.release();
    }
  }
  return Promise.all([ha.done, hb.done]);
}
