/**
 * Canonical JSON and its sha256, for golden tests: object keys sorted recursively (so key order never
 * matters), arrays kept in order, values as JSON.stringify writes them (undefined members dropped).
 */
import { createHash } from 'node:crypto';

function sortKeys(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(sortKeys);
  if (x === null || typeof x !== 'object') return x;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(x).sort()) out[k] = sortKeys((x as Record<string, unknown>)[k]);
  return out;
}

/** `x` as canonical JSON text (throws on values JSON cannot hold, such as a bigint). */
export function canonicalJson(x: unknown): string {
  // Through JSON first: toJSON, undefined members and -0 become what a stored log would hold.
  const plain: unknown = JSON.parse(JSON.stringify(x) ?? 'null');
  return JSON.stringify(sortKeys(plain));
}

/** sha256 (hex) of {@link canonicalJson}. */
export const canonicalHash = (x: unknown): string => createHash('sha256').update(canonicalJson(x)).digest('hex');
