/**
 * The engine's fast paths give exactly what the plain forms give: Draft copies keep every key of their
 * source in its order (literal copies for the usual shapes, a spread for anything else; job and block
 * copies always carry their optional keys, so every job and every block has one layout), a failed
 * action's draft is reused only while untouched, sortIndexes orders as Array.prototype.sort, the two-list
 * position (positionTable) matches positionParts, firstDuplicate matches a Set scan, and offer
 * execution credits the same deal_quality and per-job trade credit as positionParts does.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Draft } from '../../src/engine/mut.js';
import { applyAction, closeRound, createMatch, labIdsFor } from '../../src/engine/index.js';
import { positionParts, positionTable, sortIndexes } from '../../src/engine/valuation.js';
import { firstDuplicate } from '../../src/engine/util.js';
import { holdingsOf, labBlocks, labJobs } from '../../src/engine/query.js';
import { exactValuation } from '../../src/engine/config.js';
import type { LabId, MatchState, PolicyName } from '../../src/engine/types.js';
import { match, must } from './helpers.js';

/** A lab's position in credits, with each pending job's part, read from the whole state (the slow path the caches must equal). */
const positionOf = (s: MatchState, lab: LabId) =>
  positionParts(labJobs(s, lab), labBlocks(s, lab), s.labs[lab]!.budget, exactValuation(s));

/** A copy of `o` with its keys in reverse order (same values). */
const reversed = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).reverse()) as T;

/** Assert `copy` has the keys of `src` in the same order with the same values, and is a new object. */
function sameShallow(copy: object, src: object): void {
  assert.notEqual(copy, src);
  assert.deepEqual(Object.keys(copy), Object.keys(src));
  for (const k of Object.keys(src))
    assert.equal((copy as Record<string, unknown>)[k], (src as Record<string, unknown>)[k], k);
}

describe('Draft copies', () => {
  test('copy the state and each entity kind with the same keys in the same order', () => {
    const s = match('coalition_market', 3);
    const lab = s.labIds[0]!;
    const blockId = Object.keys(s.blocks)[0]!;
    const jobId = Object.keys(s.jobs)[0]!;
    const d = new Draft(s);
    sameShallow(d.s, s);
    sameShallow(d.lab(lab), s.labs[lab]!);
    sameShallow(d.block(blockId), s.blocks[blockId]!);
    sameShallow(d.job(jobId), s.jobs[jobId]!);
    sameShallow(d.seat(lab), s.seats[lab]!);
    // A second write access returns the draft's own copy; the base keeps its records and entities.
    const original = s.blocks[blockId];
    assert.equal(d.block(blockId), d.block(blockId));
    assert.notEqual(d.s.blocks, s.blocks);
    assert.equal(s.blocks[blockId], original);
  });

  test('keep an optional trailing key, even when its value is undefined', () => {
    const s = match('market_round', 2);
    const blockId = Object.keys(s.blocks)[0]!;
    const jobId = Object.keys(s.jobs)[0]!;
    const t: MatchState = {
      ...s,
      blocks: { ...s.blocks, [blockId]: { ...s.blocks[blockId]!, tradedFrom: undefined } },
      jobs: { ...s.jobs, [jobId]: { ...s.jobs[jobId]!, tradeCredit: 1.5 } },
    };
    const d = new Draft(t);
    const b = d.block(blockId);
    assert.ok(Object.hasOwn(b, 'tradedFrom'));
    sameShallow(b, t.blocks[blockId]!);
    sameShallow(d.job(jobId), t.jobs[jobId]!);
  });

  test('copy objects with other key orders or extra keys as a spread would', () => {
    const s = match('market_round', 4);
    const lab = s.labIds[1]!;
    const blockId = Object.keys(s.blocks)[1]!;
    const jobId = Object.keys(s.jobs)[1]!;
    const odd = reversed({ ...s, labs: { ...s.labs, [lab]: reversed(s.labs[lab]!) } });
    odd.blocks = { ...s.blocks, [blockId]: { ...s.blocks[blockId]!, note: 'extra' } as never };
    odd.jobs = { ...s.jobs, [jobId]: reversed(s.jobs[jobId]!) };
    odd.seats = { ...s.seats, [lab]: reversed(s.seats[lab]!) };
    const d = new Draft(odd);
    sameShallow(d.s, odd);
    sameShallow(d.lab(lab), odd.labs[lab]!);
    sameShallow(d.block(blockId), odd.blocks[blockId]!);
    sameShallow(d.job(jobId), odd.jobs[jobId]!);
    sameShallow(d.seat(lab), odd.seats[lab]!);
    // The draft's state (built as a literal) drafted again keeps its keys too.
    const again = new Draft(new Draft(s).s);
    sameShallow(again.s, s);
  });

  test('a key a caller added to a state it got back is kept by the next action, as a spread keeps it', () => {
    const s = match('single_trade', 1);
    const first = applyAction(s, s.labIds[0]!, {
      action_type: 'send_message',
      target_lab_id: null,
      message: 'hello there',
    }).state;
    const tagged = { ...first, hostNote: 'kept' } as MatchState;
    const next = applyAction(tagged, s.labIds[1]!, {
      action_type: 'send_message',
      target_lab_id: null,
      message: 'hi to you',
    }).state;
    assert.equal((next as unknown as { hostNote?: string }).hostNote, 'kept');
    assert.deepEqual(Object.keys(next), Object.keys(tagged));
    // In place, on a state the engine just built (the case a remembered literal could skip).
    (first as unknown as { hostNote: string }).hostNote = 'in place';
    const again = applyAction(first, s.labIds[1]!, { action_type: 'wait' }).state;
    assert.equal((again as unknown as { hostNote?: string }).hostNote, 'in place');
  });

  test('every job and every block of a played match keeps one key list, whatever happened to it', () => {
    // One layout per entity kind is what keeps the engine's reads of jobs and blocks monomorphic (mut.ts).
    const jobKeys = new Set<string>();
    const blockKeys = new Set<string>();
    const seen = { tradeCredit: 0, heldBonus: 0, tradedFrom: 0 };
    const arch: PolicyName[] = ['cooperative', 'rule_based_expert', 'selfish', 'deadline_panicked', 'deceptive'];
    for (const seed of [0, 1, 2, 3, 4, 5]) {
      const scripted: Record<string, PolicyName> = {};
      labIdsFor('coalition_market', seed).forEach((l, i) => (scripted[l] = arch[(i + seed) % arch.length]!));
      let st = createMatch({ task: 'coalition_market', seed, scripted });
      while (!st.over) {
        st = closeRound(st).state;
        for (const j of Object.values(st.jobs)) {
          jobKeys.add(Object.keys(j).join());
          if (j.tradeCredit !== undefined) seen.tradeCredit++;
          if (j.heldBonus !== undefined) seen.heldBonus++;
        }
        for (const b of Object.values(st.blocks)) {
          blockKeys.add(Object.keys(b).join());
          if (b.tradedFrom !== undefined) seen.tradedFrom++;
        }
      }
    }
    assert.ok(seen.tradeCredit > 0 && seen.heldBonus > 0 && seen.tradedFrom > 0, JSON.stringify(seen));
    assert.deepEqual(
      [...jobKeys],
      [Object.keys(createMatch({ task: 'coalition_market', seed: 0 }).jobs.j_0_0!).join()],
    );
    assert.equal(jobKeys.size, 1);
    assert.equal(blockKeys.size, 1);
    assert.match([...jobKeys][0]!, /,tradeCredit,heldBonus$/);
    assert.match([...blockKeys][0]!, /,tradedFrom$/);
  });

  test('a job or block parsed from JSON (optional keys missing or reordered) is copied with all its keys, same values', () => {
    const s = match('market_round', 3);
    const fresh = Object.keys(s.jobs.j_0_0!);
    const parsed = JSON.parse(JSON.stringify(s)) as MatchState;
    // JSON drops undefined keys; an older state may hold heldBonus before tradeCredit.
    const { tradeCredit: _t, heldBonus: _h, ...rest } = s.jobs.j_0_1!;
    parsed.jobs.j_0_1 = { ...rest, heldBonus: 0.05, tradeCredit: 12.5 };
    const d = new Draft(parsed);
    const bare = d.job('j_0_0');
    const both = d.job('j_0_1');
    const block = d.block('b_0_0');
    assert.deepEqual(Object.keys(bare), fresh);
    assert.deepEqual(Object.keys(both), fresh);
    assert.deepEqual(Object.keys(block), Object.keys(s.blocks.b_0_0!));
    assert.deepEqual(JSON.parse(JSON.stringify(bare)), parsed.jobs.j_0_0);
    assert.deepEqual(JSON.parse(JSON.stringify(both)), parsed.jobs.j_0_1);
    assert.deepEqual([both.heldBonus, both.tradeCredit], [0.05, 12.5]);
    assert.deepEqual(JSON.parse(JSON.stringify(block)), parsed.blocks.b_0_0);
  });

  test('pristine until something is written', () => {
    const s = match('single_trade', 1);
    const d = new Draft(s);
    assert.equal(d.pristine(), true);
    d.s.nextOfferSeq += 1;
    assert.equal(d.pristine(), false);
    const e = new Draft(s);
    e.seat(s.labIds[0]!);
    assert.equal(e.pristine(), false);
  });
});

describe('sortIndexes', () => {
  const item = fc.record({
    id: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
    h: fc.integer({ min: 0, max: 4 }),
    tag: fc.nat(),
  });
  // The valuation comparators' form: ordered keys, ties only between equal ids (1 both ways).
  const cmp = (x: { id: string; h: number }, y: { id: string; h: number }): number =>
    y.h - x.h || (x.id < y.id ? -1 : 1);

  test('orders indexes as Array.prototype.sort orders the items, repeated ids and long lists included', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 80 }), fc.array(fc.nat(), { maxLength: 90 }), (xs, stale) => {
        const order = stale.slice(); // a reused scratch list: entries past xs.length are left as they were
        sortIndexes(order, xs.length, (i, j) => cmp(xs[i]!, xs[j]!));
        const b = xs.slice();
        b.sort(cmp);
        assert.deepEqual(
          order.slice(0, xs.length).map((i) => xs[i]),
          b,
        );
      }),
      { numRuns: 3000 },
    );
  });
});

describe('positionTable', () => {
  test('lists what positionParts records, in the same order', () => {
    for (const task of ['single_trade', 'market_round', 'coalition_market'] as const)
      for (let seed = 0; seed < 20; seed++) {
        const s = match(task, seed);
        for (const lab of s.labIds) {
          const parts = positionParts(labJobs(s, lab), labBlocks(s, lab), s.labs[lab]!.budget, true);
          const table = positionTable(labJobs(s, lab), labBlocks(s, lab), s.labs[lab]!.budget, true);
          assert.equal(table.total, parts.total);
          assert.deepEqual(table.jobIds, Object.keys(parts.byJob));
          assert.deepEqual(table.values, Object.values(parts.byJob));
        }
        // A trade's two parties, read in one pass each (handlers/offers.ts executeTrade).
        const [x, y] = holdingsOf(s, s.labIds[0]!, s.labIds[1]!);
        assert.deepEqual(x, { jobs: labJobs(s, s.labIds[0]!), blocks: labBlocks(s, s.labIds[0]!) });
        assert.equal(
          positionTable(x.jobs, x.blocks, s.labs[s.labIds[0]!]!.budget, true).total,
          positionOf(s, s.labIds[0]!).total,
        );
        assert.equal(
          positionTable(y.jobs, y.blocks, s.labs[s.labIds[1]!]!.budget, true).total,
          positionOf(s, s.labIds[1]!).total,
        );
      }
  });
});

describe('firstDuplicate', () => {
  const reference = (xs: readonly string[]): string | undefined => {
    const seen = new Set<string>();
    for (const x of xs) {
      if (seen.has(x)) return x;
      seen.add(x);
    }
    return undefined;
  };
  test('agrees with a Set scan on short and long lists', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom(
            'a',
            'b',
            'c',
            'd',
            'e',
            'f',
            'g',
            'h',
            'i',
            'j',
            'k',
            'l',
            'm',
            'n',
            'o',
            'p',
            'q',
            'r',
            's',
            't',
          ),
          { maxLength: 30 },
        ),
        (xs) => {
          assert.equal(firstDuplicate(xs), reference(xs));
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('trade execution', () => {
  test('credits deal_quality and per-job trade credit from both positions', () => {
    let credited = 0;
    for (let seed = 0; seed < 12; seed++) {
      const s0 = match('market_round', seed);
      const [a, b] = s0.labIds as [string, string];
      for (const give of Object.values(s0.blocks).filter((x) => x.owner === a && x.status === 'available')) {
        const s = must(s0, a, { action_type: 'send_offer', target_lab_id: b, block_ids: [give.id], payment: 0 });
        const offerId = Object.keys(s.offers).at(-1)!;
        const before = positionOf(s, b);
        const out = must(s, b, { action_type: 'accept_offer', offer_id: offerId }, 'offer_accepted');
        const after = positionOf(out, b);
        const gain = after.total - before.total;
        const scored = Math.max(-1, Math.min(1, gain / 100));
        assert.equal(out.seats[b]!.lastBreakdown.deal_quality, Math.round(scored * 10000) / 10000);
        for (const id of Object.keys(after.byJob)) {
          const delta = after.byJob[id]! - (before.byJob[id] ?? 0);
          if (Math.abs(delta) < 1e-9 || gain === 0)
            assert.equal(out.jobs[id]!.tradeCredit, s.jobs[id]!.tradeCredit, id);
          else {
            credited += 1;
            assert.equal(
              out.jobs[id]!.tradeCredit,
              Math.round(((s.jobs[id]!.tradeCredit ?? 0) + (delta * scored * 100) / gain) * 100) / 100,
              id,
            );
          }
        }
      }
    }
    assert.ok(credited > 0, 'some trade made a job fundable');
  });
});
