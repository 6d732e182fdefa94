/**
 * Lenient reading of a model's text reply: find the first balanced JSON object (skipping prose and code
 * fences; braces inside strings do not count), parse it, then validate it with zod. Used when a server
 * cannot enforce a JSON schema (json_object or plain-text mode).
 */
import { z } from 'zod';

/**
 * The first balanced `{…}` in `text` that parses as JSON, or null. Scans every `{` in order, so prose
 * such as "use {braces}" before the real object is skipped.
 */
export function extractFirstJsonObject(text: string): unknown {
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    const end = balancedEnd(text, start);
    if (end === -1) continue;
    try {
      return JSON.parse(text.slice(start, end + 1));
    } catch {
      // not JSON (e.g. a brace in prose): try the next opening brace
    }
  }
  return null;
}

/** Index of the `}` closing the object opened at `start`, or −1. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** Result of {@link parseModelReply}: the validated value, or `invalid_json` / `schema_mismatch` with a summary. */
export type ParseReplyResult<T> =
  { ok: true; value: T } | { ok: false; code: 'invalid_json' | 'schema_mismatch'; message: string };

/** Short, single-line summary of zod issues for transcripts and feedback prompts. */
export function summariseZodError(err: z.ZodError): string {
  return err.issues
    .slice(0, 6)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

/**
 * Parse a model reply: strict JSON first, else the first JSON object inside the text; then zod.
 * Codes: `invalid_json` (no JSON object found), `schema_mismatch` (JSON that fails the schema).
 */
export function parseModelReply<T>(text: string, schema: z.ZodType<T>): ParseReplyResult<T> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = extractFirstJsonObject(text);
    if (data === null)
      return { ok: false, code: 'invalid_json', message: `no JSON object in reply: ${text.slice(0, 120)}` };
  }
  const parsed = schema.safeParse(data);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, code: 'schema_mismatch', message: summariseZodError(parsed.error) };
}
