/**
 * The action of a `POST /step` at the boundary: the original's field names mapped to ours
 * (original-compat.ts), then either validated here (`invalid_actions: "reject"`, the default: a bad action
 * is a 4xx and changes nothing) or handed to the engine as it is (`"penalize"`: the engine's
 * `malformed_action` step, −0.15, docs/RULES.md §3 — what the original's HTTP API never reached, docs/RULES.md §A.2 D14).
 */
import { ACTION_TYPES, ActionSchema, type Action } from '../../engine/actions.js';
import { ApiError } from './errors.js';
import { fromOriginalAction } from './original-compat.js';

/** What the engine gets, and original fields that could not map. */
export interface BoundaryAction {
  /** A validated action (reject mode) or the raw value for the engine to judge (penalize mode). */
  action: Action | unknown;
  ignored: string[];
}

/** Number fields of actions: a bad value there is `invalid_amount`. */
const AMOUNT_FIELDS = new Set(['payment', 'ask', 'amount', 'expires_in', 'duration']);

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON text → its value, or undefined when it is not JSON. */
function parseText(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * The action of a step. `raw` is an object or a JSON text. In reject mode throws {@link ApiError} 422:
 * `unknown_action_type` (names the 14 valid ones), `invalid_amount` (NaN, infinite, negative or too large
 * payment/expires_in/duration) or `malformed_action` (anything else: wrong types, too long, not JSON).
 */
export function boundaryAction(raw: unknown, mode: 'reject' | 'penalize'): BoundaryAction {
  let value = raw;
  if (typeof raw === 'string') {
    const parsed = parseText(raw);
    if (!parsed) {
      if (mode === 'penalize') return { action: raw, ignored: [] };
      throw new ApiError(422, 'malformed_action', 'action: the text is not valid JSON');
    }
    value = parsed.value;
  }
  if (!isPlainObject(value)) {
    if (mode === 'penalize') return { action: value, ignored: [] };
    throw new ApiError(422, 'malformed_action', 'action: expected a JSON object with an action_type');
  }
  const { action, ignored } = fromOriginalAction(value);
  if (mode === 'penalize') return { action, ignored };
  const type = action.action_type;
  if (typeof type !== 'string' || !(ACTION_TYPES as readonly string[]).includes(type)) {
    throw new ApiError(
      422,
      'unknown_action_type',
      `action_type ${JSON.stringify(type ?? null)} is not one of: ${ACTION_TYPES.join(', ')}`,
    );
  }
  const r = ActionSchema.safeParse(action);
  if (r.success) return { action: r.data, ignored };
  const issues = r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  const amount = r.error.issues.some((i) => AMOUNT_FIELDS.has(String(i.path[0])));
  const first = issues[0]!;
  throw new ApiError(
    422,
    amount ? 'invalid_amount' : 'malformed_action',
    `${type}: ${first.path || 'action'}: ${first.message}`,
    issues,
  );
}
