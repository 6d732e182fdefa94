/**
 * The fingerprint of a parsed action for the repeated-action spam rule (docs/RULES.md §4.1): its JSON
 * without the message, i.e. `JSON.stringify(a, (k, v) => (k === 'message' ? undefined : v))`.
 * Written out for the flat objects the parser returns (every field present, in schema order: zod's
 * output and the fast parser's alike), which is several times faster than the replacer form; the
 * actions the engine fingerprints on every step have their JSON spelled out as templates.
 * test/engine/parse-action.test.ts checks that both forms agree.
 */
import type { Action } from './actions.js';
import { ActionSchema } from './actions.js';

/** Each action type's fields in schema order, without the message. */
const FIELDS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  ActionSchema.options.map((o) => [o.shape.action_type.value, Object.keys(o.shape).filter((k) => k !== 'message')]),
);

/** Printable ASCII without `"` and backslash (such a string's JSON is the string in quotes); a loop, cheaper than a regex here. */
function plain(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

/** JSON text of a string. */
const quote = (s: string): string => (plain(s) ? `"${s}"` : JSON.stringify(s));

/** JSON text of a string or null. */
const quoteOrNull = (s: string | null): string => (s === null ? 'null' : quote(s));

/** JSON text of a list of strings. */
function list(xs: readonly string[]): string {
  const n = xs.length;
  if (n === 0) return '[]';
  let out = `[${quote(xs[0]!)}`;
  for (let i = 1; i < n; i++) out += `,${quote(xs[i]!)}`;
  return `${out}]`;
}

/** JSON text of a value of a parsed action: a string, a number, null or a list of strings. */
function jsonValue(v: unknown): string {
  if (typeof v === 'string') return quote(v);
  // A parsed action's numbers are finite, where String() and JSON agree (−0 → "0" in both).
  if (typeof v === 'number') return String(v);
  if (v === null) return 'null';
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return list(v as string[]);
  return JSON.stringify(v);
}

/** The generic form: each field of FIELDS in turn (absent ones skipped, as JSON does). */
function fromFields(a: Action): string {
  const rec = a as unknown as Record<string, unknown>;
  const fields = FIELDS[a.action_type];
  if (fields === undefined) return JSON.stringify(a, (k, v: unknown) => (k === 'message' ? undefined : v));
  let out = '{';
  for (let i = 0; i < fields.length; i++) {
    const k = fields[i]!;
    const v = rec[k];
    if (v === undefined) continue;
    out += `${out.length === 1 ? '' : ','}"${k}":${jsonValue(v)}`;
  }
  return `${out}}`;
}

/** The action's JSON without its message (see the file comment). Numbers in templates print as JSON does. */
export function fingerprintOf(a: Action): string {
  switch (a.action_type) {
    case 'allocate_to_job':
      return `{"action_type":"allocate_to_job","job_id":${quote(a.job_id)},"block_ids":${list(a.block_ids)}}`;
    case 'send_offer':
      return `{"action_type":"send_offer","target_lab_id":${quote(a.target_lab_id)},"block_ids":${list(a.block_ids)},"requested_block_ids":${list(a.requested_block_ids)},"payment":${a.payment},"ask":${a.ask},"expires_in":${a.expires_in}}`;
    case 'counter_offer':
      return `{"action_type":"counter_offer","offer_id":${quote(a.offer_id)},"block_ids":${list(a.block_ids)},"requested_block_ids":${list(a.requested_block_ids)},"payment":${a.payment},"ask":${a.ask},"expires_in":${a.expires_in}}`;
    case 'accept_offer':
      return `{"action_type":"accept_offer","offer_id":${quote(a.offer_id)}}`;
    case 'reject_offer':
      return `{"action_type":"reject_offer","offer_id":${quote(a.offer_id)}}`;
    case 'reserve_capacity':
      return `{"action_type":"reserve_capacity","block_ids":${list(a.block_ids)},"job_id":${quoteOrNull(a.job_id)}}`;
    case 'release_capacity':
      return `{"action_type":"release_capacity","block_ids":${list(a.block_ids)}}`;
    case 'form_coalition':
      return `{"action_type":"form_coalition","target_lab_ids":${list(a.target_lab_ids)},"duration":${a.duration === null ? 'null' : a.duration}}`;
    case 'commit_to_coalition':
      return `{"action_type":"commit_to_coalition","coalition_id":${quote(a.coalition_id)},"block_ids":${list(a.block_ids)},"payment":${a.payment}}`;
    default:
      return fromFields(a);
  }
}
