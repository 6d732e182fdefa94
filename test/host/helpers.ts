/** Shared set-up of the round host tests: an in-memory (or file) store, a fake clock, recorded posts. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Caller, Post, Reply } from '../../src/commands/types.js';
import {
  FakeClock,
  RoundHost,
  replay,
  type HostResult,
  type HostedMatch,
  type RoundHostOptions,
} from '../../src/host/index.js';
import { openStore, type EventStore } from '../../src/store/index.js';

export interface Published {
  channelId: string;
  reply: Reply;
}

export interface Harness {
  host: RoundHost;
  store: EventStore;
  clock: FakeClock;
  published: Published[];
}

/** A host over `store` (default: a fresh ':memory:' SQLite store) with a fake clock recording its posts. */
export async function harness(
  opts: Partial<RoundHostOptions> & { store?: EventStore; clock?: FakeClock } = {},
): Promise<Harness> {
  const store = opts.store ?? (await openStore({ sqlitePath: ':memory:' }));
  const clock = opts.clock ?? new FakeClock();
  const published: Published[] = [];
  const host = new RoundHost({
    ...opts,
    store,
    clock,
    publish: async (channelId, reply) => {
      published.push({ channelId, reply });
    },
  });
  return { host, store, clock, published };
}

/** A temporary SQLite file path and its cleanup. */
export function tempDb(): { path: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'round-test-'));
  return { path: join(dir, 'arena.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export const person = (name: string, isAdmin = false): Caller => ({
  userId: `test:${name}`,
  displayName: name,
  isAdmin,
});

/** The value of an ok result (fails the test otherwise). */
export function unwrap<T>(r: HostResult<T>): T {
  if (!r.ok) assert.fail(`expected ok, got ${r.error.code}: ${r.error.message}`);
  return r.value;
}

/** The error code of a failed result (fails the test when ok). */
export function codeOf<T>(r: HostResult<T>): string {
  if (r.ok) assert.fail('expected an error');
  return r.error.code;
}

/** All text of one post: title, text, field names and values. */
export const postText = (p: Post): string =>
  [p.title ?? '', p.text, ...(p.fields ?? []).flatMap((f) => [f.name, f.value])].join('\n');

/** All public text of replies. */
export const publicText = (...replies: (Reply | null | undefined)[]): string =>
  replies.flatMap((r) => (r ? r.public.map(postText) : [])).join('\n---\n');

/** Public posts of everything published so far. */
export const publishedText = (h: Harness): string => publicText(...h.published.map((p) => p.reply));

/** Replay the store's log of `id` from scratch. */
export async function replayed(store: EventStore, id: string): Promise<HostedMatch> {
  const m = replay(await store.load(id));
  assert.ok(m, 'log is not empty');
  return m;
}

/** Lab ids owned by humans `callers` in `m` (seat order of claims). */
export function seatOf(m: HostedMatch, c: Caller): string {
  const lab = Object.entries(m.drivers).find(([, d]) => d.kind === 'human' && d.userId === c.userId)?.[0];
  assert.ok(lab, `${c.displayName} has a seat`);
  return lab;
}

/** Let pending promise callbacks and I/O callbacks run. */
export const settle = () => new Promise<void>((r) => setImmediate(r));

/** `store` with counters of append conflicts and lost claims (to prove a race really happened). */
export function spied(store: EventStore): { store: EventStore; conflicts: () => number; lostClaims: () => number } {
  let conflicts = 0;
  let lost = 0;
  const wrapped: EventStore = Object.create(store) as EventStore;
  wrapped.append = async (...args) => {
    const r = await store.append(...args);
    if (!r.ok && r.code === 'conflict') conflicts++;
    return r;
  };
  wrapped.tryClaim = async (key) => {
    const r = await store.tryClaim(key);
    if (!r) lost++;
    return r;
  };
  return { store: wrapped, conflicts: () => conflicts, lostClaims: () => lost };
}

/** Let I/O and promise callbacks run until `cond()` holds (at most `turns` event-loop turns; no wall clock). */
export async function until(cond: () => boolean, turns = 2000): Promise<void> {
  for (let i = 0; i < turns && !cond(); i++) await settle();
  assert.ok(cond(), 'condition reached');
}
