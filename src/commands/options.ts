/**
 * Option value schemas (zod) shared by the catalogue, and the conversion of zod issues into a
 * {@link CommandError} that names the option and says what was expected.
 *
 * Values arrive as strings (text grammar) or typed (Discord: numbers, booleans), so every schema accepts
 * both. Each schema's error message is the "expected" phrase shown to the user.
 */
import { z } from 'zod';
import { MESSAGE_MAX } from '../engine/actions.js';
import { clip, count, suggest } from './suggest.js';
import type { CommandError, CommandSpec, OptionSpec } from './types.js';

const str = (v: unknown): unknown => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v);
const num = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  const s = v.trim();
  return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(s) ? Number(s) : v;
};
const list = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(str);
  if (typeof v !== 'string') return v;
  return v.split(/[\s,]+/).filter((s) => s !== '');
};
const bool = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  const s = v.trim().toLowerCase();
  if (['true', 'yes', 'y', '1', 'on'].includes(s)) return true;
  if (['false', 'no', 'n', '0', 'off'].includes(s)) return false;
  return v;
};

const article = (word: string): string => (/^[aeiou]/i.test(word) ? 'an' : 'a');

/** An id (lab, block, job, offer, coalition): lowercase letters, digits and `_`. */
export const idValue = (what: string) => {
  const expected = `${article(what)} ${what} id (letters, digits and _)`;
  return z.preprocess(
    str,
    z
      .string({ error: expected })
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9_]{1,64}$/, { error: expected }),
  );
};

/** A comma-separated list of ids (at least one, at most 32). */
export const idListValue = (what: string) => {
  const expected = `one or more ${what} ids, comma-separated`;
  const item = z
    .string({ error: expected })
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9_]{1,64}$/, { error: expected });
  return z.preprocess(
    list,
    z
      .array(item, { error: expected })
      .min(1, { error: expected })
      .max(32, { error: `at most 32 ${what} ids` }),
  );
};

/** Free text between `min` and `max` characters after trimming. */
export const textValue = (max: number = MESSAGE_MAX, min = 1) => {
  const expected =
    min > 1 ? `text of ${count(min)}–${count(max)} characters` : `text of at most ${count(max)} characters`;
  return z.preprocess(
    str,
    z.string({ error: expected }).trim().min(min, { error: expected }).max(max, { error: expected }),
  );
};

/** A whole number in [min, max]. */
export const intValue = (min: number, max: number) => {
  const expected = `a whole number from ${min} to ${max}`;
  return z.preprocess(
    num,
    z.number({ error: expected }).int({ error: expected }).min(min, { error: expected }).max(max, { error: expected }),
  );
};

/**
 * A seed the host chooses: a whole number from 0 to 2^31 − 1 (practice, demos), or a published match secret
 * (32 hex digits, from a finished match's final post) to play its world again.
 */
export const seedValue = () => {
  const expected = 'a whole number from 0 to 2147483647, or a match secret (32 hex digits)';
  return z.preprocess(
    (v) =>
      typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : typeof v === 'string' ? v.trim().toLowerCase() : v,
    z.union(
      [
        z
          .number()
          .int()
          .min(0)
          .max(2 ** 31 - 1),
        z.string().regex(/^[0-9a-f]{32}$/),
      ],
      { error: expected },
    ),
  );
};

/** Credits: a finite number in [0, 1e6] (2 dp are kept by the engine). */
export const moneyValue = () => {
  const expected = 'a number of credits ≥ 0';
  return z.preprocess(
    num,
    z
      .number({ error: expected })
      .finite({ error: expected })
      .min(0, { error: expected })
      .max(1e6, { error: 'at most 1000000 credits' }),
  );
};

/** true/false (also yes/no, 1/0, on/off). */
export const boolValue = () => z.preprocess(bool, z.boolean({ error: 'true or false' }));

/** One of fixed words. */
export const choiceValue = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
    z.enum(values, { error: `one of ${values.join(', ')}` }),
  );

/** The value as the user gave it (lists joined with commas). */
function shownValue(given: unknown): string {
  return Array.isArray(given) ? given.join(',') : String(given);
}

/**
 * What is wrong with `given`, completing "`<option>` …": the real reason from the zod issue (empty, too
 * long, below the minimum, not one of the choices), quoting at most {@link clip} of the value.
 */
function problem(issue: z.core.$ZodIssue, given: unknown, o: OptionSpec): string {
  const raw = shownValue(given);
  const value = typeof given === 'string' ? given.trim() : raw;
  const wrote = ` (you wrote \`${clip(raw)}\`)`;
  if (issue.code === 'too_small') {
    const min = Number(issue.minimum);
    if (issue.origin === 'string')
      return min <= 1
        ? 'must not be empty'
        : `must be at least ${count(min)} characters; yours has ${count([...value].length)}${wrote}`;
    if (issue.origin === 'number') return `must be ${issue.inclusive === false ? '>' : '≥'} ${count(min)}${wrote}`;
    if (issue.origin === 'array') return 'must name at least one id';
  }
  if (issue.code === 'too_big') {
    const max = Number(issue.maximum);
    if (issue.origin === 'string') return `is too long: \`${clip(value, max)}\``;
    if (issue.origin === 'number') return `must be at most ${count(max)}${wrote}`;
    if (issue.origin === 'array')
      return `takes at most ${count(max)} ids${Array.isArray(given) ? ` (you gave ${given.length})` : ''}`;
  }
  if (issue.code === 'invalid_value' && o.choices) {
    const guess = suggest(value, o.choices);
    return `must be one of its choices${wrote}${guess ? `. Did you mean \`${guess}\`?` : ''}`;
  }
  return `must be ${issue.message}${wrote}`;
}

/**
 * Turn a zod failure on a command's options into one CommandError (the first issue):
 * `missing_option` when the option was not given at all (or given empty while required), else
 * `invalid_option`, whose message says the real reason (`pay` must be ≥ 0; `text` must not be empty; a
 * too-long value is clipped, never echoed whole); `validValues` are the option's fixed choices when it has
 * some.
 */
export function optionsError(spec: CommandSpec, raw: Record<string, unknown>, error: z.ZodError): CommandError {
  const issue = error.issues[0];
  const key = typeof issue?.path[0] === 'string' ? issue.path[0] : undefined;
  const o = spec.options.find((x) => x.name === key);
  if (!issue || !key || !o) {
    return {
      code: 'invalid_option',
      message: `Options of \`${spec.name}\` are invalid: ${issue?.message ?? 'unknown problem'}.`,
    };
  }
  const choices = o.choices ? { validValues: [...o.choices] } : {};
  const given = raw[key];
  if (given === undefined || given === null) {
    return {
      code: 'missing_option',
      message: `\`${spec.name}\` needs \`${key}:\` — ${o.description}.`,
      option: key,
      expected: issue.message,
      ...choices,
    };
  }
  if (typeof given === 'string' && given.trim() === '') {
    const message = `\`${key}\` must not be empty — ${o.description}.`;
    return {
      code: o.required ? 'missing_option' : 'invalid_option',
      message,
      option: key,
      expected: issue.message,
      ...choices,
    };
  }
  return {
    code: 'invalid_option',
    message: `\`${key}\` ${problem(issue, given, o)}.`,
    option: key,
    expected: issue.message,
    ...choices,
  };
}
