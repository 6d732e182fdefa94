/**
 * vega-lite patches Set.prototype.toJSON when loaded; src/analytics/charts/vega-lite.ts keeps that patch out of the
 * rest of the process (it broke discord.js's load). Charts still compile with it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileVegaLite } from '../../../src/analytics/charts/vega-lite.js';

test('compiling a chart leaves Set.prototype.toJSON as it was, and JSON.stringify of a Set is still {}', async () => {
  assert.equal(Object.getOwnPropertyDescriptor(Set.prototype, 'toJSON'), undefined);
  const vg = await compileVegaLite({
    data: { values: [{ a: 1, b: 2 }] },
    mark: 'bar',
    encoding: { x: { field: 'a', type: 'ordinal' }, y: { field: 'b', type: 'quantitative' } },
  });
  assert.ok(Array.isArray((vg as { marks?: unknown[] }).marks), 'a Vega spec with marks');
  assert.equal(Object.getOwnPropertyDescriptor(Set.prototype, 'toJSON'), undefined, 'no patch left behind');
  assert.equal(JSON.stringify(new Set([1, 2])), '{}');
  const { Client } = await import('discord.js');
  assert.equal(typeof Client, 'function', 'discord.js loads after charts rendered');
});
