/**
 * Queries built and compiled once, run many times with new values. Kysely builds an immutable query tree
 * and compiles it to SQL on every call; for the few queries the round host runs on every command (the
 * channel's active match, the events since a sequence number, an append) that cost as much as running
 * them. The SQL stays Kysely's, per dialect, so both backends keep one definition.
 */
import type { CompiledQuery, Compilable } from 'kysely';

/** A query compiled once from `build(...sample)`; call it with real values to get the query to execute. */
export type Precompiled<A extends unknown[]> = (...args: A) => CompiledQuery;

/**
 * Compile `build(...sample)` once and map each parameter back to the argument it came from. Every sample
 * value must be distinct and appear nowhere else in the query (use sentinels); parameters equal to no
 * sample value are constants of the query and are kept. Throws if an argument does not reach the SQL
 * unchanged (a value transformed by the builder cannot be substituted later).
 */
export function precompile<A extends unknown[]>(build: (...args: A) => Compilable, sample: A): Precompiled<A> {
  const compiled = build(...sample).compile();
  const source = compiled.parameters.map((p) => sample.findIndex((s) => Object.is(s, p)));
  sample.forEach((s, i) => {
    if (!source.includes(i))
      throw new Error(`precompile: argument ${i} (${String(s)}) is not a parameter of: ${compiled.sql}`);
  });
  return (...args: A) => ({
    ...compiled,
    parameters: source.map((i, k) => (i < 0 ? compiled.parameters[k] : args[i])),
  });
}
