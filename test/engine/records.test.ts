/**
 * records.ts `withAdded` (Draft.addJobs / addBlocks) builds the very record `Object.fromEntries` of the
 * old entries followed by the added ones builds: same keys in the same order (integer-like ids first, as
 * for any object), same values, a new object; repeated ids keep their first place and take the last
 * value. Its template memo must never leak the values or keys of an earlier call.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { withAdded } from '../../src/engine/records.js';
import { Draft } from '../../src/engine/mut.js';
import { match } from './helpers.js';

interface Item {
  id: string;
  v: number;
}

/** The plain form: what addJobs / addBlocks built before. */
function plain(rec: Record<string, Item>, added: readonly Item[]): Record<string, Item> {
  return Object.fromEntries([...Object.entries(rec), ...added.map((x) => [x.id, x] as const)]);
}

function same(got: Record<string, Item>, want: Record<string, Item>): void {
  assert.deepEqual(Object.keys(got), Object.keys(want));
  for (const k of Object.keys(want)) assert.equal(got[k], want[k], k);
}

// Ids like the engine's, plus integer-like and odd ones (spaces, `|`, `__proto__`-free: records are own data).
const idArb = fc.oneof(
  fc.constantFrom('b_0_0', 'b_0_1', 'b_1_0', 'j_2_3', 'b_s3_0', 'b_s3_1', 'j_0_surge_2', '7', '12', 'a b', 'x|y', ''),
  fc.string({ maxLength: 6 }),
);
const itemsArb = fc.array(fc.record({ id: idArb, v: fc.integer() }), { maxLength: 12 });

describe('withAdded', () => {
  test('equals Object.fromEntries of the old entries then the added ones (random ids, repeats included)', () => {
    fc.assert(
      fc.property(itemsArb, itemsArb, (base, added) => {
        const rec = plain({}, base);
        const got = withAdded(rec, added);
        assert.notEqual(got, rec);
        same(got, plain(rec, added));
        // A second call with the same keys and other values (a template hit) gives the new values.
        const again = added.map((x) => ({ id: x.id, v: x.v + 1 }));
        same(withAdded(rec, again), plain(rec, again));
      }),
      { numRuns: 400 },
    );
  });

  test('a signature shared by different key lists never mixes them up', () => {
    // Same length, same last old key, same added ids; different earlier keys.
    const a = plain({}, [
      { id: 'b_0_0', v: 1 },
      { id: 'b_0_9', v: 2 },
    ]);
    const b = plain({}, [
      { id: 'b_1_0', v: 3 },
      { id: 'b_0_9', v: 4 },
    ]);
    const added = [{ id: 'b_s3_0', v: 5 }];
    same(withAdded(a, added), plain(a, added));
    same(withAdded(b, added), plain(b, added));
    same(withAdded(a, added), plain(a, added));
  });

  test('Draft.addJobs and addBlocks leave the base untouched and append in order', () => {
    const s = match('market_round', 3);
    const d = new Draft(s);
    const job = { ...Object.values(s.jobs)[0]!, id: 'j_0_99' };
    const block = { ...Object.values(s.blocks)[0]!, id: 'b_s3_0' };
    d.addJobs([job]);
    d.addBlocks([block]);
    assert.deepEqual(Object.keys(d.s.jobs), [...Object.keys(s.jobs), 'j_0_99']);
    assert.deepEqual(Object.keys(d.s.blocks), [...Object.keys(s.blocks), 'b_s3_0']);
    assert.equal(d.s.jobs.j_0_99, job);
    assert.equal(d.s.blocks.b_s3_0, block);
    assert.equal(Object.hasOwn(s.jobs, 'j_0_99'), false);
    assert.equal(Object.hasOwn(s.blocks, 'b_s3_0'), false);
  });
});
