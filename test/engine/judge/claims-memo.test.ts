/**
 * The claims memo (src/engine/judge/claims.ts): remembered claims are shared and frozen, extractClaims hands
 * out fresh copies, and texts forgotten by the bounded memo are read again to the same claims.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { claimsOf, extractClaims } from '../../../src/engine/judge/claims.js';

const PITCH =
  'Lab A needs 4 more GPU-hours for job j_0_1 (6 GPU-hours required), due by round 3, minimum reliability 0.85.';

describe('claims memo', () => {
  test('extractClaims returns fresh objects: mutating them changes nothing later', () => {
    const first = extractClaims(PITCH);
    assert.ok(first.length >= 4);
    const expected = structuredClone(first);
    first.length = 0;
    const again = extractClaims(PITCH);
    assert.deepEqual(again, expected);
    (again[0] as { id?: string }).id = 'tampered';
    assert.deepEqual(extractClaims(PITCH), expected);
  });

  test('claimsOf shares one frozen list per text, equal to extractClaims', () => {
    const a = claimsOf(PITCH);
    assert.equal(claimsOf(PITCH), a);
    assert.ok(Object.isFrozen(a) && a.every((c) => Object.isFrozen(c)));
    assert.deepEqual([...a], extractClaims(PITCH));
  });

  test('texts pushed out of the bounded memo are read again to the same claims', () => {
    const texts = Array.from(
      { length: 9000 },
      (_, i) => `Job j_0_${i % 7} needs ${i % 9} GPU-hours by round ${i % 5}, reliability 0.${80 + (i % 19)} (#${i}).`,
    );
    const before = texts.slice(0, 50).map((t) => JSON.stringify(claimsOf(t)));
    for (const t of texts) claimsOf(t);
    assert.deepEqual(
      texts.slice(0, 50).map((t) => JSON.stringify(claimsOf(t))),
      before,
    );
  });
});
