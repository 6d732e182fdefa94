/**
 * A fast path for parsing an action (docs/RULES.md §3): for well-formed input it returns exactly what
 * `ActionSchema.safeParse` (actions.ts) would — same values, same defaults, same key order — at a
 * fraction of the cost; for anything it is not sure about it returns undefined and the caller runs the
 * zod schema, which stays the authority (it produces the error messages). Every action is still fully
 * validated: this only skips zod's machinery when the answer is plainly "valid".
 *
 * The field rules mirror actions.ts: ids are trimmed strings of 1–64 characters, id lists arrays of at
 * most 32, money finite in [0, 1e6], texts trimmed to at most MESSAGE_MAX or PITCH_MAX characters.
 * test/engine/parse-action.test.ts checks the agreement with the schema on generated input.
 */
import type { Action } from './actions.js';
import { MESSAGE_MAX, PITCH_MAX } from './actions.js';
import { cleanText } from './clean-text.js';

/** A sentinel for "not plainly valid: let zod decide". */
const NO: unique symbol = Symbol('no');
type No = typeof NO;

/** An id: a string of 1–64 characters once trimmed. */
function readId(v: unknown): string | No {
  if (typeof v !== 'string') return NO;
  const t = v.trim();
  return t.length >= 1 && t.length <= 64 ? t : NO;
}

/** A list of `min`–`max` ids (a new array of the trimmed ids). */
function readIds(v: unknown, min: number, max: number): string[] | No {
  if (!Array.isArray(v) || v.length < min || v.length > max) return NO;
  const out: string[] = [];
  for (let i = 0; i < v.length; i++) {
    const x = readId(v[i]);
    if (x === NO) return NO;
    out.push(x);
  }
  return out;
}

/** An optional id list (default []). */
const readIdsOr = (v: unknown): string[] | No => (v === undefined ? [] : readIds(v, 0, 32));

/** Optional money (default 0): finite, in [0, 1e6]. */
const readMoney = (v: unknown): number | No =>
  v === undefined ? 0 : typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1e6 ? v : NO;

/** A text of at most `max` characters once trimmed; `dflt` when absent (undefined = required). */
function readText(v: unknown, max: number, dflt?: string): string | No {
  if (v === undefined && dflt !== undefined) return dflt;
  if (typeof v !== 'string') return NO;
  const t = cleanText(v).trim();
  return t.length <= max ? t : NO;
}

/** An optional integer in [min, max] (default `dflt`), or null where `nullable`. */
function readInt(v: unknown, min: number, max: number, dflt: number | null, nullable: boolean): number | null | No {
  if (v === undefined) return dflt;
  if (v === null && nullable) return null;
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max ? v : NO;
}

/** An optional, nullable id (default null). */
const readIdOrNull = (v: unknown): string | null | No => (v === undefined || v === null ? null : readId(v));

type In = Record<string, unknown>;

/**
 * One reader per action type. Each builds its output as an object literal whose keys are the schema's
 * fields in the schema's order (actions.ts): cheaper than adding keys one by one, and every action of a
 * type gets the same object shape. The terms of send_offer and counter_offer: block_ids,
 * requested_block_ids, payment, ask, message (≤ MESSAGE_MAX, default ''), expires_in (0–3, default 2).
 */
const READERS: Readonly<Record<string, (v: In) => Action | undefined>> = {
  send_offer(v) {
    const target_lab_id = readId(v.target_lab_id);
    const block_ids = readIdsOr(v.block_ids);
    const requested_block_ids = readIdsOr(v.requested_block_ids);
    const payment = readMoney(v.payment);
    const ask = readMoney(v.ask);
    const message = readText(v.message, MESSAGE_MAX, '');
    const expires_in = readInt(v.expires_in, 0, 3, 2, false);
    if (
      target_lab_id === NO ||
      block_ids === NO ||
      requested_block_ids === NO ||
      payment === NO ||
      ask === NO ||
      message === NO ||
      expires_in === NO ||
      expires_in === null
    )
      return undefined;
    return {
      action_type: 'send_offer',
      target_lab_id,
      block_ids,
      requested_block_ids,
      payment,
      ask,
      message,
      expires_in,
    };
  },
  accept_offer(v) {
    const offer_id = readId(v.offer_id);
    return offer_id === NO ? undefined : { action_type: 'accept_offer', offer_id };
  },
  reject_offer(v) {
    const offer_id = readId(v.offer_id);
    return offer_id === NO ? undefined : { action_type: 'reject_offer', offer_id };
  },
  counter_offer(v) {
    const offer_id = readId(v.offer_id);
    const block_ids = readIdsOr(v.block_ids);
    const requested_block_ids = readIdsOr(v.requested_block_ids);
    const payment = readMoney(v.payment);
    const ask = readMoney(v.ask);
    const message = readText(v.message, MESSAGE_MAX, '');
    const expires_in = readInt(v.expires_in, 0, 3, 2, false);
    if (
      offer_id === NO ||
      block_ids === NO ||
      requested_block_ids === NO ||
      payment === NO ||
      ask === NO ||
      message === NO ||
      expires_in === NO ||
      expires_in === null
    )
      return undefined;
    return {
      action_type: 'counter_offer',
      offer_id,
      block_ids,
      requested_block_ids,
      payment,
      ask,
      message,
      expires_in,
    };
  },
  make_pitch(v) {
    const message = readText(v.message, PITCH_MAX);
    const job_ids = readIdsOr(v.job_ids);
    if (message === NO || job_ids === NO) return undefined;
    return { action_type: 'make_pitch', message, job_ids };
  },
  counter_pitch(v) {
    const target_lab_id = readId(v.target_lab_id);
    const message = readText(v.message, PITCH_MAX);
    const job_ids = readIdsOr(v.job_ids);
    if (target_lab_id === NO || message === NO || job_ids === NO) return undefined;
    return { action_type: 'counter_pitch', target_lab_id, message, job_ids };
  },
  reserve_capacity(v) {
    const block_ids = readIds(v.block_ids, 0, 32);
    const job_id = readIdOrNull(v.job_id);
    if (block_ids === NO || job_id === NO) return undefined;
    return { action_type: 'reserve_capacity', block_ids, job_id };
  },
  release_capacity(v) {
    const block_ids = readIds(v.block_ids, 0, 32);
    return block_ids === NO ? undefined : { action_type: 'release_capacity', block_ids };
  },
  form_coalition(v) {
    const target_lab_ids = readIds(v.target_lab_ids, 1, 4);
    const message = readText(v.message, MESSAGE_MAX, '');
    const duration = readInt(v.duration, 1, 9, null, true);
    if (target_lab_ids === NO || message === NO || duration === NO) return undefined;
    return { action_type: 'form_coalition', target_lab_ids, message, duration };
  },
  commit_to_coalition(v) {
    const coalition_id = readId(v.coalition_id);
    const block_ids = readIdsOr(v.block_ids);
    const payment = readMoney(v.payment);
    if (coalition_id === NO || block_ids === NO || payment === NO) return undefined;
    return { action_type: 'commit_to_coalition', coalition_id, block_ids, payment };
  },
  allocate_to_job(v) {
    const job_id = readId(v.job_id);
    const block_ids = readIds(v.block_ids, 0, 32);
    if (job_id === NO || block_ids === NO) return undefined;
    return { action_type: 'allocate_to_job', job_id, block_ids };
  },
  send_message(v) {
    const target_lab_id = readIdOrNull(v.target_lab_id);
    const message = readText(v.message, MESSAGE_MAX);
    if (target_lab_id === NO || message === NO) return undefined;
    return { action_type: 'send_message', target_lab_id, message };
  },
  bid(v) {
    const amount = v.amount === undefined ? NO : readMoney(v.amount);
    return amount === NO ? undefined : { action_type: 'bid', amount };
  },
  wait: () => ({ action_type: 'wait' }),
  finish: () => ({ action_type: 'finish' }),
};

/**
 * The parsed action if `value` is plainly a valid action (then equal, key order included, to the zod
 * schema's output), else undefined (invalid, unusual or unreadable: ask the schema). Never throws.
 */
export function parseActionFast(value: unknown): Action | undefined {
  try {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const input = value as In;
    const type = input.action_type;
    if (typeof type !== 'string' || !Object.hasOwn(READERS, type)) return undefined;
    return READERS[type]!(input);
  } catch {
    return undefined;
  }
}
