/**
 * The text grammar shared by Slack, the console and buttons:
 *
 *     [/arena] <command> [name:value ...]
 *
 * A value is a bare word (`to:lab_1`, `give:b_0_1,b_0_2`) or a quoted string (`msg:"swap for your block"`)
 * with `\"` and `\\` escapes; typographic quotes (“…”, which Slack and phones insert) count as quotes.
 * List values are comma-separated. Everything here is syntax only: values are checked by the command's
 * zod schema and against the match afterwards.
 */
import { COMMAND_SPECS } from './specs.js';
import type { CommandError, CommandSpec } from './types.js';

/** A parsed command line: the command name and its raw option values (strings, unparsed). */
export interface ParsedCommand {
  name: string;
  options: Record<string, string>;
}

/** Machine-readable codes of grammar errors. */
export type GrammarErrorCode = 'empty_command' | 'unknown_command' | 'unknown_option' | 'duplicate_option' | 'bad_token' | 'unclosed_quote';

const OPEN_QUOTES = new Set(['"', '“', '”']);
const CLOSE_QUOTES = new Set(['"', '”', '“']);

interface Token {
  /** Raw text of the token up to the first `:` (or the whole token when there is none). */
  key: string;
  /** Value after the `:`; null when the token has no `:`. */
  value: string | null;
}

function err(code: GrammarErrorCode, message: string, extra: Partial<CommandError> = {}): CommandError {
  return { code, message, ...extra };
}

/** Split a line into `key[:value]` tokens, honouring quotes in values. */
function tokenize(line: string): Token[] | CommandError {
  const tokens: Token[] = [];
  let i = 0;
  while (i < line.length) {
    while (i < line.length && /\s/.test(line[i] ?? '')) i++;
    if (i >= line.length) break;
    let key = '';
    while (i < line.length && !/\s/.test(line[i] ?? '') && line[i] !== ':') key += line[i++];
    if (line[i] !== ':') {
      tokens.push({ key, value: null });
      continue;
    }
    i++; // the ':'
    let value = '';
    if (OPEN_QUOTES.has(line[i] ?? '')) {
      i++;
      let closed = false;
      while (i < line.length) {
        const c = line[i] ?? '';
        if (c === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) {
          value += line[i + 1];
          i += 2;
        } else if (CLOSE_QUOTES.has(c)) {
          closed = true;
          i++;
          break;
        } else {
          value += c;
          i++;
        }
      }
      if (!closed) {
        return err('unclosed_quote', `The value of \`${key}\` opens a quote that is never closed.`, { option: key, expected: 'a closing "' });
      }
      if (i < line.length && !/\s/.test(line[i] ?? '')) {
        return err('bad_token', `Put a space after the closing quote of \`${key}\`.`, { option: key });
      }
    } else {
      while (i < line.length && !/\s/.test(line[i] ?? '')) value += line[i++];
    }
    tokens.push({ key, value });
  }
  return tokens;
}

function quoteHint(spec: CommandSpec, lastKey: string | null, word: string): string {
  if (lastKey) return ` If \`${word}\` belongs to \`${lastKey}\`, quote the value: ${lastKey}:"… ${word} …".`;
  const first = spec.options[0];
  return first ? ` Options are written name:value, e.g. \`${first.name}:…\`.` : '';
}

/**
 * Parse one command line (a leading `/arena` or `arena` is optional).
 * Errors (as values): `empty_command`; `unknown_command` (validValues = command names);
 * `unknown_option` (validValues = that command's option names); `duplicate_option`; `bad_token` (a word
 * that is not `name:value`, e.g. an unquoted multi-word value); `unclosed_quote`.
 */
export function parseCommandText(text: string, specs: readonly CommandSpec[] = COMMAND_SPECS): ParsedCommand | CommandError {
  let line = text.trim();
  line = line.replace(/^\/?arena(\s+|$)/i, '');
  if (line.startsWith('/')) line = line.slice(1);
  const tokens = tokenize(line);
  if (!Array.isArray(tokens)) return tokens;
  const [head, ...rest] = tokens;
  const names = specs.map((s) => s.name);
  if (!head) return err('empty_command', 'Type a command, e.g. `help`.', { expected: 'a command name', validValues: names });
  const name = head.key.toLowerCase();
  const spec = specs.find((s) => s.name === name);
  if (head.value !== null || !spec) {
    const shown = head.value !== null ? `${head.key}:${head.value}` : head.key;
    return err('unknown_command', `Unknown command \`${shown}\`. Commands: ${names.join(', ')}.`, { expected: 'a command name', validValues: names });
  }
  const options: Record<string, string> = {};
  const valid = spec.options.map((o) => o.name);
  let lastKey: string | null = null;
  for (const t of rest) {
    if (t.value === null) {
      // `help offer`: a bare word is the value of a command's only option.
      if (spec.options.length === 1 && Object.keys(options).length === 0 && rest.length === 1 && spec.options[0]) {
        options[spec.options[0].name] = t.key;
        continue;
      }
      return err('bad_token', `\`${t.key}\` is not an option of \`${name}\`.${quoteHint(spec, lastKey, t.key)}`, {
        expected: 'name:value',
        validValues: valid,
      });
    }
    const key = t.key.toLowerCase();
    if (!valid.includes(key)) {
      const list = valid.length > 0 ? valid.join(', ') : 'none';
      return err('unknown_option', `\`${name}\` has no option \`${t.key}\`. Its options: ${list}.`, { option: t.key, validValues: valid });
    }
    if (key in options) return err('duplicate_option', `Option \`${key}\` is given twice.`, { option: key });
    options[key] = t.value;
    lastKey = key;
  }
  return { name, options };
}

/** True when the value is a {@link CommandError} rather than a parsed command. */
export function isCommandError(v: unknown): v is CommandError {
  return typeof v === 'object' && v !== null && 'code' in v && 'message' in v;
}

/** Quote a value for the grammar when it needs it (spaces, quotes, empty). */
export function quoteValue(value: string): string {
  if (value !== '' && !/[\s"“”\\]/.test(value)) return value;
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Build command text from a name and options, e.g. `formatCommand('accept', {offer: 'o_3'})` → `accept offer:o_3`. */
export function formatCommand(name: string, options: Record<string, string | number | undefined> = {}): string {
  const parts = [name];
  for (const [k, v] of Object.entries(options)) if (v !== undefined) parts.push(`${k}:${quoteValue(String(v))}`);
  return parts.join(' ');
}
