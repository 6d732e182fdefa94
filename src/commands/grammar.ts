/**
 * The text grammar shared by Slack, the console and buttons:
 *
 *     [/arena] <command> [name:value ...]
 *
 * A value is a bare word (`to:lab_1`, `give:b_0_1,b_0_2`, `text:don't`) or a quoted string
 * (`msg:"swap for your block"` or `msg:'swap for your block'`) with `\"`, `\'` and `\\` escapes; typographic
 * quotes (“…”, ‘…’, which Slack and phones insert) count as quotes. Inside single quotes an apostrophe
 * followed by a letter stays in the text (`'don't panic'`); only a quote followed by a space or the end
 * of the line closes the value.
 * List values are comma-separated. Everything here is syntax only: values are checked by the command's
 * zod schema and against the match afterwards.
 */
import { COMMAND_SPECS } from './specs.js';
import { clip, suggest } from './suggest.js';
import type { CommandError, CommandSpec } from './types.js';

/** A parsed command line: the command name and its raw option values (strings, unparsed). */
export interface ParsedCommand {
  name: string;
  options: Record<string, string>;
}

/** Machine-readable codes of grammar errors. */
export type GrammarErrorCode =
  'empty_command' | 'unknown_command' | 'unknown_option' | 'duplicate_option' | 'bad_token' | 'unclosed_quote';

/** Double quotes: straight and typographic (Slack and phones turn "…" into “…”). */
const DOUBLE = new Set(['"', '“', '”']);
/** Single quotes: straight and typographic (‘…’). The same characters are apostrophes inside words. */
const SINGLE = new Set(["'", '‘', '’']);

interface Token {
  /** Raw text of the token up to the first `:` (or the whole token when there is none). */
  key: string;
  /** Value after the `:`; null when the token has no `:`. */
  value: string | null;
  /** The quote the value was written in (`"` or `'`), or null for a bare value. */
  quote: '"' | "'" | null;
}

function err(code: GrammarErrorCode, message: string, extra: Partial<CommandError> = {}): CommandError {
  return { code, message, ...extra };
}

const isSpace = (c: string | undefined): boolean => c !== undefined && /\s/.test(c);

/**
 * Read a quoted value starting after its opening quote at `i`. A double quote closes at the next double
 * quote; a single quote closes only at a single quote followed by a space or the end of the line, so the
 * apostrophe of `'don't panic'` stays in the value. `\"`, `\'` and `\\` escape.
 */
function readQuoted(line: string, i: number, single: boolean): { value: string; end: number } | null {
  const closes = single ? SINGLE : DOUBLE;
  let value = '';
  while (i < line.length) {
    const c = line[i] ?? '';
    const next = line[i + 1];
    if (c === '\\' && (next === '"' || next === "'" || next === '\\')) {
      value += next;
      i += 2;
    } else if (closes.has(c) && (!single || i + 1 >= line.length || isSpace(next))) {
      return { value, end: i + 1 };
    } else {
      value += c;
      i++;
    }
  }
  return null;
}

/** Split a line into `key[:value]` tokens, honouring quotes in values. */
function tokenize(line: string): Token[] | CommandError {
  const tokens: Token[] = [];
  let i = 0;
  while (i < line.length) {
    while (isSpace(line[i])) i++;
    if (i >= line.length) break;
    let key = '';
    while (i < line.length && !isSpace(line[i]) && line[i] !== ':') key += line[i++];
    if (line[i] !== ':') {
      tokens.push({ key, value: null, quote: null });
      continue;
    }
    i++; // the ':'
    const open = line[i] ?? '';
    if (DOUBLE.has(open) || SINGLE.has(open)) {
      const single = SINGLE.has(open);
      const read = readQuoted(line, i + 1, single);
      if (!read) {
        const closing = single ? "'" : '"';
        // Inside single quotes a quote followed by a letter is an apostrophe, so say how the value must end.
        const how = single
          ? ` (a ' followed by a letter is read as an apostrophe; end the value with ' and a space, or use double quotes)`
          : '';
        return err(
          'unclosed_quote',
          `The value of \`${clip(key)}\` opens a quote (${open}) that is never closed: expected a closing ${closing}${how}.`,
          { option: key, expected: `a closing ${closing}` },
        );
      }
      i = read.end;
      if (i < line.length && !isSpace(line[i])) {
        const rest = line.slice(i).split(/\s/)[0] ?? '';
        return err(
          'bad_token',
          `The quoted value of \`${clip(key)}\` ends at its closing quote, but \`${clip(rest)}\` follows right after it: put a space after the closing quote, or the whole value inside the quotes.`,
          { option: key },
        );
      }
      tokens.push({ key, value: read.value, quote: single ? "'" : '"' });
    } else {
      let value = '';
      while (i < line.length && !isSpace(line[i])) value += line[i++];
      tokens.push({ key, value, quote: null });
    }
  }
  return tokens;
}

/**
 * What is wrong with a bare word (no `name:`) after the command: most often the second word of an
 * unquoted value (`text:hello world`), else a value without its option name.
 */
function badWord(
  spec: CommandSpec,
  word: string,
  last: { key: string; value: string; quote: Token['quote'] } | null,
  words: readonly string[],
): CommandError {
  const valid = spec.options.map((o) => o.name);
  if (last && last.quote === "'") {
    return err(
      'bad_token',
      `\`${clip(word)}\` follows the 'single-quoted' value of \`${last.key}\`, which ended at an apostrophe followed by a space. Use double quotes for that text: ${last.key}:"…".`,
      { option: last.key },
    );
  }
  if (last) {
    const whole = [last.value, ...words].join(' ');
    return err(
      'bad_token',
      `\`${clip(word)}\` is not name:value: a value with spaces needs quotes. Write ${last.key}:${clip(quoteValue(whole))}.`,
      { option: last.key },
    );
  }
  if (valid.length === 0)
    return err('bad_token', `\`${spec.name}\` takes no options, so \`${clip(word)}\` cannot follow it.`);
  const quoted = DOUBLE.has(word[0] ?? '') || SINGLE.has(word[0] ?? '');
  const example =
    (quoted ? spec.options.find((o) => o.kind === 'text') : spec.options.find((o) => o.required)) ?? spec.options[0];
  const how = quoted
    ? ` A quoted value needs its option name in front, e.g. ${example?.name}:"…".`
    : ` Options are written name:value, e.g. \`${example?.name}:…\`.`;
  return err(
    'bad_token',
    `\`${clip(word)}\` is not name:value.${how} Options of \`${spec.name}\`: ${valid.join(', ')}.`,
    { expected: 'name:value', validValues: valid },
  );
}

/**
 * Parse one command line (a leading `/arena` or `arena` is optional).
 * Errors (as values): `empty_command`; `unknown_command` (validValues = the suggested name when there is
 * one, else every command name); `unknown_option` (validValues = that command's option names);
 * `duplicate_option`; `bad_token` (a word that is not `name:value`, e.g. an unquoted multi-word value, or
 * text right after a closing quote); `unclosed_quote`.
 */
export function parseCommandText(
  text: string,
  specs: readonly CommandSpec[] = COMMAND_SPECS,
): ParsedCommand | CommandError {
  let line = text.trim();
  line = line.replace(/^\/?arena(\s+|$)/i, '');
  if (line.startsWith('/')) line = line.slice(1);
  const tokens = tokenize(line);
  if (!Array.isArray(tokens)) return tokens;
  const [head, ...rest] = tokens;
  const names = specs.map((s) => s.name);
  if (!head)
    return err('empty_command', 'Type a command, e.g. `help`.', { expected: 'a command name', validValues: names });
  const name = head.key.toLowerCase();
  const spec = specs.find((s) => s.name === name);
  if (head.value !== null || !spec)
    return unknownCommand(head.value !== null ? `${head.key}:${head.value}` : head.key, names);
  const options: Record<string, string> = {};
  const valid = spec.options.map((o) => o.name);
  let last: { key: string; value: string; quote: Token['quote'] } | null = null;
  for (const [k, t] of rest.entries()) {
    if (t.value === null) {
      // `help offer`: a bare word is the value of a command's only option; `counter o_2 ask:9`: a bare first
      // word is the value of a required first option that is an id (never text, whose words need quotes).
      const first = spec.options[0];
      const onlyOption = spec.options.length === 1 && rest.length === 1;
      const leadingId = k === 0 && first?.required === true && first.kind !== 'text';
      if (first && Object.keys(options).length === 0 && (onlyOption || leadingId)) {
        options[first.name] = t.key;
        continue;
      }
      const words: string[] = [];
      for (const x of rest.slice(k)) {
        if (x.value !== null) break;
        words.push(x.key);
      }
      return badWord(spec, t.key, last, words);
    }
    const key = t.key.toLowerCase();
    if (!valid.includes(key)) return unknownOption(spec.name, t.key, valid);
    if (key in options) return err('duplicate_option', `Option \`${key}\` is given twice.`, { option: key });
    options[key] = t.value;
    last = { key, value: t.value, quote: t.quote };
  }
  return { name, options };
}

/** `unknown_command`, with a suggestion when the word looks like a typo of a command name. */
export function unknownCommand(word: string, names: readonly string[]): CommandError {
  const shown = clip(word);
  const guess = suggest(word, names);
  if (guess)
    return err('unknown_command', `Unknown command \`${shown}\`. Did you mean \`${guess}\`?`, { validValues: [guess] });
  return err('unknown_command', `Unknown command \`${shown}\`. Commands: ${names.join(', ')}.`, {
    expected: 'a command name',
    validValues: [...names],
  });
}

/** `unknown_option`, with a suggestion for a typo or a synonym of one of the command's option names. */
export function unknownOption(command: string, word: string, valid: readonly string[]): CommandError {
  const guess = suggest(word, valid, { synonyms: true });
  const hint = guess ? ` Did you mean \`${guess}\`?` : '';
  const list = valid.length > 0 ? valid.join(', ') : 'none';
  return err('unknown_option', `\`${command}\` has no option \`${clip(word)}\`.${hint} Its options: ${list}.`, {
    option: word,
    validValues: [...valid],
  });
}

/** True when the value is a {@link CommandError} rather than a parsed command. */
export function isCommandError(v: unknown): v is CommandError {
  return typeof v === 'object' && v !== null && 'code' in v && 'message' in v;
}

/** Quote a value for the grammar when it needs it (spaces, double quotes, backslashes, a leading single quote, empty). */
export function quoteValue(value: string): string {
  if (value !== '' && !/[\s"“”\\]/.test(value) && !SINGLE.has(value[0] ?? '')) return value;
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Build command text from a name and options, e.g. `formatCommand('accept', {offer: 'o_3'})` → `accept offer:o_3`. */
export function formatCommand(name: string, options: Record<string, string | number | undefined> = {}): string {
  const parts = [name];
  for (const [k, v] of Object.entries(options)) if (v !== undefined) parts.push(`${k}:${quoteValue(String(v))}`);
  return parts.join(' ');
}
