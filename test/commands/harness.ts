/**
 * Test harness for the catalogue: a real RoundHost on an in-memory SQLite store, three people (alice hosts
 * and plays lab_0, bob plays lab_1, carol has no seat) and helpers that assert bad input changes nothing.
 */
import assert from 'node:assert/strict';
import { runCommand, runText } from '../../src/commands/index.js';
import type { Caller, CommandError, Reply } from '../../src/commands/types.js';
import type { MatchState } from '../../src/engine/types.js';
import { RoundHost, type RoundHostOptions } from '../../src/host/index.js';
import type { HostedMatch } from '../../src/match/types.js';
import { openStore } from '../../src/store/index.js';
import type { EventStore } from '../../src/store/types.js';
import { plainOf } from '../../src/chat/player-text.js';

export const CHANNEL = 'test:arena';
export const alice: Caller = { userId: 'test:alice', displayName: 'Alice', isAdmin: false };
export const bob: Caller = { userId: 'test:bob', displayName: 'Bob', isAdmin: false };
export const carol: Caller = { userId: 'test:carol', displayName: 'Carol', isAdmin: false };

export interface Arena {
  host: RoundHost;
  store: EventStore;
  published: Reply[];
  /** Run a text command. */
  run(who: Caller, text: string): Promise<Reply>;
  /** Run with typed options (the Discord path). */
  runTyped(who: Caller, name: string, options: Record<string, unknown>): Promise<Reply>;
  /** The channel's match (throws if none). */
  match(): Promise<HostedMatch>;
  state(): Promise<MatchState>;
  /** Id of the match created last (kept after it is over). */
  matchId: string | null;
  close(): Promise<void>;
}

export async function arena(opts: Partial<Omit<RoundHostOptions, 'store' | 'publish'>> = {}): Promise<Arena> {
  const store = await openStore({ sqlitePath: ':memory:' });
  const published: Reply[] = [];
  const host = new RoundHost({ ...opts, store, publish: async (_c, r) => void published.push(r) });
  const a: Arena = {
    host,
    store,
    published,
    matchId: null,
    async run(who, text) {
      const r = await runText(host, CHANNEL, who, text);
      const m = await host.current(CHANNEL);
      if (m) a.matchId = m.id;
      return r;
    },
    runTyped: (who, name, options) => runCommand(host, CHANNEL, who, name, options),
    async match() {
      const m = await host.current(CHANNEL);
      assert.ok(m, 'expected a match in the channel');
      return m;
    },
    async state() {
      const m = await a.match();
      assert.ok(m.state, 'expected a running match');
      return m.state;
    },
    async close() {
      await host.stop();
      await store.close();
    },
  };
  return a;
}

/** A successful reply: no error; returns it. */
export function assertOk(r: Reply, what = 'command'): Reply {
  assert.equal(r.error, undefined, `${what} failed: ${JSON.stringify(r.error)}`);
  return r;
}

/** A lobby: alice hosts (market_round, seed 7, no timer) and holds lab_0, bob holds lab_1. */
export async function lobby(): Promise<Arena> {
  const a = await arena();
  assertOk(await a.run(alice, 'new task:market_round seed:7 round_seconds:0'), 'new');
  assertOk(await a.run(alice, 'join lab:lab_0'), 'join alice');
  assertOk(await a.run(bob, 'join lab:lab_1'), 'join bob');
  return a;
}

/** A started match from {@link lobby} (lab_2 scripted). */
export async function started(): Promise<Arena> {
  const a = await lobby();
  assertOk(await a.run(alice, 'start'), 'start');
  return a;
}

/** Event count and state of the last match (lastSeq from the store itself). */
async function snapshot(a: Arena): Promise<{ seq: number; state: string }> {
  const m = await a.host.current(CHANNEL);
  const seq = a.matchId ? await a.store.lastSeq(a.matchId) : 0;
  return { seq, state: JSON.stringify(m ?? null) };
}

/**
 * Run a bad command and assert: the error code is `code`, the reply is one private post for the caller and
 * nothing public, and neither the event log (store lastSeq) nor the match changed. Returns the error.
 */
export async function rejected(
  a: Arena,
  who: Caller,
  text: string | { name: string; options: Record<string, unknown> },
  code: string,
): Promise<CommandError> {
  const before = await snapshot(a);
  const r = typeof text === 'string' ? await a.run(who, text) : await a.runTyped(who, text.name, text.options);
  assert.ok(r.error, `expected ${code} for ${JSON.stringify(text)}, got success ${JSON.stringify(r).slice(0, 300)}`);
  assert.equal(r.error.code, code, `wrong code for ${JSON.stringify(text)}: ${JSON.stringify(r.error)}`);
  assert.equal(r.public.length, 0, 'an error must not post publicly');
  assert.equal(r.private.length, 1);
  assert.equal(r.private[0]?.userId, who.userId);
  const after = await snapshot(a);
  assert.equal(after.seq, before.seq, `the event log grew on ${JSON.stringify(text)}`);
  assert.equal(after.state, before.state, `the match changed on ${JSON.stringify(text)}`);
  return r.error;
}

/** All text of a reply (titles, texts, fields, button commands) as plain text (player text unmarked, its blocks as `> ` lines), for "does it mention" checks. */
export function replyText(r: Reply): string {
  return [...r.public, ...r.private]
    .flatMap((p) => [
      p.title ?? '',
      p.text,
      ...(p.fields ?? []).flatMap((f) => [f.name, f.value]),
      ...(p.buttons ?? []).map((b) => b.command),
    ])
    .map((s) => plainOf(s))
    .join('\n');
}

/** Ids of a lab's blocks / jobs in a state. */
export const blocksOf = (s: MatchState, lab: string) =>
  Object.values(s.blocks)
    .filter((b) => b.owner === lab)
    .map((b) => b.id);
export const jobsOf = (s: MatchState, lab: string) =>
  Object.values(s.jobs)
    .filter((j) => j.owner === lab)
    .map((j) => j.id);
