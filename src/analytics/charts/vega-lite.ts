/**
 * vega-lite's compiler without its global side effect. vega-lite patches `Set.prototype.toJSON` when it
 * is loaded (so that its internal hashing can stringify sets); left in place, that patch changes
 * `JSON.stringify` of every Set in the process and breaks other packages at load time (discord.js's
 * inspector threw "string "Set()" is not iterable" when it loaded after vega-lite). So vega-lite is loaded
 * lazily here, its patch is taken off `Set.prototype` at once, and put back only for the duration of each
 * (synchronous) compile.
 */
import type { TopLevelSpec } from 'vega-lite';

type Compile = (spec: TopLevelSpec) => { spec: object };

let loaded: Promise<Compile> | null = null;

/** Run `fn` with `Set.prototype.toJSON` set to `patch` (or removed when undefined), then restore it. */
function withSetToJson<T>(patch: PropertyDescriptor | undefined, fn: () => T): T {
  const own = Object.getOwnPropertyDescriptor(Set.prototype, 'toJSON');
  if (patch) Object.defineProperty(Set.prototype, 'toJSON', patch);
  else delete (Set.prototype as { toJSON?: unknown }).toJSON;
  try {
    return fn();
  } finally {
    if (own) Object.defineProperty(Set.prototype, 'toJSON', own);
    else delete (Set.prototype as { toJSON?: unknown }).toJSON;
  }
}

async function load(): Promise<Compile> {
  const before = Object.getOwnPropertyDescriptor(Set.prototype, 'toJSON');
  const vl = await import('vega-lite');
  const patch = Object.getOwnPropertyDescriptor(Set.prototype, 'toJSON');
  // Take the load-time patch off again (restoring whatever was there before).
  if (before) Object.defineProperty(Set.prototype, 'toJSON', before);
  else delete (Set.prototype as { toJSON?: unknown }).toJSON;
  return (spec) => withSetToJson(patch, () => vl.compile(spec));
}

/** Compile a Vega-Lite spec to a Vega spec; vega-lite's Set patch is active only during the call. */
export async function compileVegaLite(spec: TopLevelSpec): Promise<object> {
  loaded ??= load();
  return (await loaded)(spec).spec;
}
