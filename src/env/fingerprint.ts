/**
 * The fingerprint of a parsed action for the repeated-action spam rule (docs/RULES.md §4.1): its JSON
 * without the message, i.e. `JSON.stringify(a, (k, v) => (k === 'message' ? undefined : v))`.
 * Written out for the flat objects the parser returns (fields in schema order: zod's output and the fast
 * parser's alike), which is several times faster than the replacer form; test/env/parse-action.test.ts
 * checks that both agree.
 */
import type { Action } from './actions';
import { ActionSchema } from './actions';

/** Each action type's fields in schema order, without the message. */
const FIELDS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  ActionSchema.options.map((o) => [o.shape.action_type.value, Object.keys(o.shape).filter((k) => k !== 'message')]),
);

/** Printable ASCII without `"` and `\`: such a string's JSON is the string in quotes. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

const quote = (s: string): string => (PLAIN.test(s) ? `"${s}"` : JSON.stringify(s));

/** JSON text of a value of a parsed action: a string, a number, null or a list of strings. */
function jsonValue(v: unknown): string {
  if (typeof v === 'string') return quote(v);
  if (!Array.isArray(v)) return JSON.stringify(v);
  let out = '[';
  for (let i = 0; i < v.length; i++) out += (i === 0 ? '' : ',') + (typeof v[i] === 'string' ? quote(v[i] as string) : JSON.stringify(v[i]));
  return `${out}]`;
}

/** The action's JSON without its message (see the file comment). */
export function fingerprintOf(a: Action): string {
  const rec = a as unknown as Record<string, unknown>;
  const fields = FIELDS[a.action_type];
  if (fields === undefined) return JSON.stringify(a, (k, v: unknown) => (k === 'message' ? undefined : v));
  let out = '{';
  for (const k of fields) {
    const v = rec[k];
    if (v === undefined) continue;
    out += `${out.length === 1 ? '' : ','}"${k}":${jsonValue(v)}`;
  }
  return `${out}}`;
}
