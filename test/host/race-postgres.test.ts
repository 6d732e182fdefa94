/**
 * Concurrent commands on one match, across processes: two bot processes (each its own RoundHost and store, forked through
 * tsx: race-postgres-worker.ts) on one PostgreSQL schema, racing on the same match. The invariants are
 * checked on the log as the database holds it (race-postgres-steps.ts): one accept per offer, the loser of
 * a race refused privately and unpenalised, an action in the round it was written for or refused with
 * `round_closed`, each round closed once. A barrier at the first append makes the processes collide for
 * real (each gated race must meet an append conflict); a seeded fuzz mixes the scenarios, which process
 * runs what, and how the commands meet.
 *
 * Needs TEST_DATABASE_URL (`source .ci/postgres.sh`); without it the file reports a skipped test, except
 * under CI, where that fails.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { openPostgresStore, type EventStore } from '../../src/store/index.js';
import { Proc, type Gate } from './race-postgres-procs.js';
import { Arena, newTally, type Placement, type Tally } from './race-postgres-steps.js';
import { freshSchema, withPostgres } from '../support/postgres.js';

const TRIALS = 30;
const FUZZ_STEPS = 200;
const FUZZ_SEED = Number(process.env.RACE_FUZZ_SEED ?? 2121);

/** mulberry32: a small seeded generator, so a failing fuzz run can be repeated (RACE_FUZZ_SEED). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const show = (name: string, t: Tally) =>
  console.log(
    `${name}: ${t.steps} races, ${t.conflicted} met an append conflict; ${Object.entries(t.outcomes)
      .sort()
      .map(([k, v]) => `${k} ×${v}`)
      .join('; ')}`,
  );

withPostgres('races across two processes on PostgreSQL', (url) => {
  describe('races across two processes on one PostgreSQL database', () => {
    const schema = freshSchema('arena_t_race');
    let store: EventStore;
    let A: Proc;
    let B: Proc;
    const arenas: Arena[] = [];
    const arena = (prefix: string) => {
      const a = new Arena(store, A, B, prefix);
      arenas.push(a);
      return a;
    };

    before(async () => {
      // The test's own connection creates and migrates the schema; the two bots then open it as deployed bots do.
      store = await openPostgresStore({ connectionString: url, schema, maxConnections: 2 });
      [A, B] = await Promise.all([Proc.start('A', url, schema), Proc.start('B', url, schema)]);
    });

    after(async () => {
      try {
        await Promise.all([A?.quit(), B?.quit()]);
      } finally {
        await store?.close();
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          await client.query(`drop schema if exists ${schema} cascade`);
        } finally {
          await client.end();
        }
      }
    });

    test(`both processes accept the same offer at once (${TRIALS} offers): one accept each, the loser refused and unpenalised`, async () => {
      const a = arena('accept');
      for (let i = 0; i < TRIALS; i++) {
        const at: Placement = i % 2 ? { p: A, q: B, gate: 'both' } : { p: B, q: A, gate: 'both' };
        await a.offerRace('accept_twice', at);
      }
      for (const t of a.trails) t.audit();
      show('accept twice', a.tally);
      assert.equal(a.tally.conflicted, TRIALS, 'every race met a real append conflict');
    });

    test(`withdraw vs accept across the processes (${TRIALS} offers): exactly one wins, the other is refused cleanly`, async () => {
      const a = arena('withdraw');
      const gates: Gate[] = ['a-first', 'b-first', 'both'];
      for (let i = 0; i < TRIALS; i++) {
        const gate = gates[i % 3]!;
        // Alice's withdraw in one process, Bob's accept in the other; which process is which alternates.
        const at: Placement = Math.floor(i / 3) % 2 ? { p: A, q: B, gate } : { p: B, q: A, gate };
        const won = await a.offerRace('withdraw_vs_accept', at);
        if (gate === 'a-first') assert.equal(won, 'reject_offer', 'the withdraw that appended first wins');
        if (gate === 'b-first') assert.equal(won, 'accept_offer', 'the accept that appended first wins');
      }
      for (const t of a.trails) t.audit();
      show('withdraw vs accept', a.tally);
    });

    test(`round close (timer / last done) in one process vs an action in the other (${TRIALS} rounds)`, async () => {
      const a = arena('close');
      const acts = ['message', 'pitch', 'accept'] as const;
      const seen = { landed: 0, refused: 0 };
      for (let i = 0; i < TRIALS; i++) {
        const closer = i % 2 ? 'done' : 'timer';
        const act = acts[Math.floor(i / 2) % 3]!;
        // Close appends first (the action must be refused), the action first (it lands before the close), or the database decides.
        const gate: Gate = (['a-first', 'b-first', 'both'] as const)[Math.floor(i / 6) % 3]!;
        const at: Placement = i % 4 < 2 ? { p: A, q: B, gate } : { p: B, q: A, gate };
        const out = await a.closeRace(closer, act, at);
        seen[out]++;
        if (gate === 'a-first') assert.equal(out, 'refused', 'an action that meets a closed round is refused');
        if (gate === 'b-first') assert.equal(out, 'landed', 'an action appended before the close lands in its round');
      }
      for (const t of a.trails) t.audit();
      show('close vs action', a.tally);
      assert.ok(seen.landed > 0 && seen.refused > 0);
    });

    test(`seeded fuzz: ${FUZZ_STEPS} random races (seed ${FUZZ_SEED}) keep every invariant`, async () => {
      const a = arena('fuzz');
      const next = rng(FUZZ_SEED);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
      const tally: Tally = newTally();
      for (let i = 0; i < FUZZ_STEPS; i++) {
        const gate = pick(['none', 'none', 'both', 'a-first', 'b-first'] as const);
        const swap = next() < 0.5;
        const at: Placement = {
          p: swap ? B : A,
          q: swap ? A : B,
          gate,
          delayP: Math.floor(next() * 3),
          delayQ: Math.floor(next() * 3),
        };
        const kind = pick([
          'accept_twice',
          'withdraw_vs_accept',
          'reject_vs_accept',
          'close',
          'close',
          'close_twice',
        ] as const);
        try {
          if (kind === 'close')
            await a.closeRace(pick(['timer', 'done'] as const), pick(['message', 'pitch', 'accept'] as const), at);
          else if (kind === 'close_twice')
            await a.closeTwice(pick(['timer_timer', 'done_done', 'timer_done'] as const), at);
          else await a.offerRace(kind, at);
        } catch (err) {
          throw new Error(`fuzz step ${i} (seed ${FUZZ_SEED}, ${kind}, gate ${gate}, swap ${swap}) failed`, {
            cause: err,
          });
        }
      }
      Object.assign(tally, a.tally);
      for (const t of a.trails) t.audit();
      show(`fuzz (seed ${FUZZ_SEED})`, tally);
      assert.equal(tally.steps, FUZZ_STEPS);
    });

    test('every match played above, re-read from the database at the end, keeps the log invariants', async () => {
      let matches = 0;
      for (const a of arenas) {
        for (const t of a.trails) {
          await t.sync();
          t.audit();
          matches++;
        }
      }
      assert.ok(matches > 0);
    });
  });
});
