/**
 * A fast path for parsing an action (docs/RULES.md §3): for well-formed input it returns exactly what
 * `ActionSchema.safeParse` (actions.ts) would — same values, same defaults, same key order — at a
 * fraction of the cost; for anything it is not sure about it returns undefined and the caller runs the
 * zod schema, which stays the authority (it produces the error messages). Every action is still fully
 * validated: this only skips zod's machinery when the answer is plainly "valid".
 *
 * The field rules mirror actions.ts: ids are trimmed strings of 1–64 characters, id lists arrays of at
 * most 32, money finite in [0, 1e6], texts trimmed to at most MESSAGE_MAX or PITCH_MAX characters.
 * test/env/parse-action.test.ts checks the agreement with the schema on generated input.
 */
import type { Action } from './actions';
import { MESSAGE_MAX, PITCH_MAX } from './actions';

/** How a field is read: its kind and, for optional fields, the default (undefined = required). */
type Field =
  | { key: string; kind: 'id' | 'ids' | 'labs' }
  | { key: string; kind: 'ids='; }
  | { key: string; kind: 'money=' }
  | { key: string; kind: 'text'; max: number; dflt?: string }
  | { key: string; kind: 'int'; min: number; max: number; dflt: number | null; nullable: boolean }
  | { key: string; kind: 'id?=' };

const id = (key: string): Field => ({ key, kind: 'id' });
const idsDefault = (key: string): Field => ({ key, kind: 'ids=' });
const text = (key: string, max: number, dflt?: string): Field => (dflt === undefined ? { key, kind: 'text', max } : { key, kind: 'text', max, dflt });
const TERMS: Field[] = [
  idsDefault('block_ids'),
  idsDefault('requested_block_ids'),
  { key: 'payment', kind: 'money=' },
  text('message', MESSAGE_MAX, ''),
  { key: 'expires_in', kind: 'int', min: 0, max: 3, dflt: 2, nullable: false },
];

/** Each action's fields after action_type, in the schema's key order (actions.ts). */
const SHAPES: Readonly<Record<string, readonly Field[]>> = {
  send_offer: [id('target_lab_id'), ...TERMS],
  accept_offer: [id('offer_id')],
  reject_offer: [id('offer_id')],
  counter_offer: [id('offer_id'), ...TERMS],
  make_pitch: [text('message', PITCH_MAX), idsDefault('job_ids')],
  counter_pitch: [id('target_lab_id'), text('message', PITCH_MAX), idsDefault('job_ids')],
  reserve_capacity: [{ key: 'block_ids', kind: 'ids' }, { key: 'job_id', kind: 'id?=' }],
  release_capacity: [{ key: 'block_ids', kind: 'ids' }],
  form_coalition: [
    { key: 'target_lab_ids', kind: 'labs' },
    text('message', MESSAGE_MAX, ''),
    { key: 'duration', kind: 'int', min: 1, max: 9, dflt: null, nullable: true },
  ],
  commit_to_coalition: [id('coalition_id'), idsDefault('block_ids'), { key: 'payment', kind: 'money=' }],
  allocate_to_job: [id('job_id'), { key: 'block_ids', kind: 'ids' }],
  send_message: [{ key: 'target_lab_id', kind: 'id?=' }, text('message', MESSAGE_MAX)],
  wait: [],
  finish: [],
};

/** A sentinel for "not plainly valid: let zod decide". */
const NO: unique symbol = Symbol('no');

function readId(v: unknown): string | typeof NO {
  if (typeof v !== 'string') return NO;
  const t = v.trim();
  return t.length >= 1 && t.length <= 64 ? t : NO;
}

function readIds(v: unknown, min: number, max: number): string[] | typeof NO {
  if (!Array.isArray(v) || v.length < min || v.length > max) return NO;
  const out: string[] = [];
  for (let i = 0; i < v.length; i++) {
    const x = readId(v[i]);
    if (x === NO) return NO;
    out.push(x);
  }
  return out;
}

function readField(f: Field, v: unknown): unknown {
  switch (f.kind) {
    case 'id':
      return readId(v);
    case 'ids':
      return readIds(v, 0, 32);
    case 'labs':
      return readIds(v, 1, 4);
    case 'ids=':
      return v === undefined ? [] : readIds(v, 0, 32);
    case 'money=':
      if (v === undefined) return 0;
      return typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1e6 ? v : NO;
    case 'text': {
      if (v === undefined && f.dflt !== undefined) return f.dflt;
      if (typeof v !== 'string') return NO;
      const t = v.trim();
      return t.length <= f.max ? t : NO;
    }
    case 'int':
      if (v === undefined) return f.dflt;
      if (v === null && f.nullable) return null;
      return typeof v === 'number' && Number.isSafeInteger(v) && v >= f.min && v <= f.max ? v : NO;
    case 'id?=':
      return v === undefined || v === null ? null : readId(v);
  }
}

/**
 * The parsed action if `value` is plainly a valid action (then equal, key order included, to the zod
 * schema's output), else undefined (invalid, unusual or unreadable: ask the schema). Never throws.
 */
export function parseActionFast(value: unknown): Action | undefined {
  try {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const input = value as Record<string, unknown>;
    const type = input.action_type;
    if (typeof type !== 'string' || !Object.hasOwn(SHAPES, type)) return undefined;
    const out: Record<string, unknown> = { action_type: type };
    for (const f of SHAPES[type]!) {
      const v = readField(f, input[f.key]);
      if (v === NO) return undefined;
      out[f.key] = v;
    }
    return out as Action;
  } catch {
    return undefined;
  }
}
