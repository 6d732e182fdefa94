/**
 * Player text is data, never markup. Whatever a person or an agent wrote — pitches, messages,
 * offer notes, coalition purposes, display names — is embedded in a post's title, text or field values
 * through {@link playerText} (inline) or {@link playerBlock} (a quoted block that may keep line breaks),
 * which mark the span with private-use characters. Each platform renderer splits a string with
 * {@link renderSpans} and renders the bot's own text as markdown but a player's span escaped for that
 * platform (Discord markdown, Slack mrkdwn, the terminal), a block always as a quote on lines of its own;
 * so a pitch cannot forge a heading, a winner line, a `[private → you]` line, a link or a mention.
 *
 * People and agents are told apart by {@link personName}: a person's name always follows 👤, which no
 * agent label carries, so a nickname such as "LLM: gpt-4o" or "scripted" cannot pass for an agent seat.
 */

/** Markers (Unicode private use, stripped from every player string before marking). */
const INLINE_OPEN = '\uE000';
const INLINE_CLOSE = '\uE001';
const BLOCK_OPEN = '\uE002';
const BLOCK_CLOSE = '\uE003';
const MARKS = /[\uE000-\uE005]/g;
/** C0 (but newline), DEL, C1, bidi overrides/isolates, zero-width space, word joiner, BOM. */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;

/** The marker of a person's name in every label ({@link personName}); agent labels never start with it. */
export const PERSON_MARK = '👤';

/**
 * A player's text without controls or markers: line breaks normalised to `\n` (kept only when
 * `keepLines`, else each run of them becomes one space), tabs to spaces, every other control removed.
 * The engine cleans action texts the same way (src/engine/clean-text.ts); this also covers text that
 * never went through the engine (display names, a command's echo of its own options).
 */
export function stripControls(s: string, keepLines = false): string {
  const t = s
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(/\t/g, ' ')
    .replace(CONTROLS, '')
    .replace(MARKS, '');
  return keepLines ? t : t.replace(/\s*\n[\s\n]*/g, ' ');
}

/** Mark `s` as a player's inline text (one line: line breaks become spaces). Use for names and short quotes. */
export function playerText(s: string): string {
  return `${INLINE_OPEN}${stripControls(s)}${INLINE_CLOSE}`;
}

/**
 * Mark `s` as a player's block (a pitch, a message, a note): rendered as a quote on lines of its own, the
 * only place a player's line breaks survive. Blank lines and trailing spaces are dropped.
 */
export function playerBlock(s: string): string {
  const lines = stripControls(s, true)
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');
  return `${BLOCK_OPEN}${lines.join('\n')}${BLOCK_CLOSE}`;
}

/**
 * A player's message after a label such as `**Lab A:**`: one line stays inline (` <text>`), several lines
 * become a block on lines of their own — never a line that starts like a bot line.
 */
export function playerSays(s: string): string {
  return /[\r\n\u2028\u2029]/.test(s.trim()) ? `\n${playerBlock(s)}` : ` ${playerText(s.trim())}`;
}

/** A person's display name as shown in labels: `👤 <name>` (name marked as player text). */
export function personName(name: string): string {
  return `${PERSON_MARK} ${playerText(name)}`;
}

/** One piece of a post string: the bot's own text, a player's inline text, or a player's block (lines). */
export type Span =
  { kind: 'bot'; text: string } | { kind: 'inline'; text: string } | { kind: 'block'; lines: string[] };

/** Split a post string into spans (an unclosed marker runs to the end; stray closers are dropped). */
export function spansOf(s: string): Span[] {
  const out: Span[] = [];
  let i = 0;
  while (i < s.length) {
    const open = s.slice(i).search(/[\uE000\uE002]/);
    const bot = (open < 0 ? s.slice(i) : s.slice(i, i + open)).replace(MARKS, '');
    if (bot) out.push({ kind: 'bot', text: bot });
    if (open < 0) break;
    const start = i + open;
    const block = s[start] === BLOCK_OPEN;
    const close = s.indexOf(block ? BLOCK_CLOSE : INLINE_CLOSE, start + 1);
    const end = close < 0 ? s.length : close;
    const body = s.slice(start + 1, end).replace(MARKS, '');
    if (block) out.push({ kind: 'block', lines: body === '' ? [] : body.split('\n') });
    else out.push({ kind: 'inline', text: body.replace(/\n/g, ' ') });
    i = end + 1;
  }
  return out;
}

/** How one platform renders each kind of span. */
export interface SpanRenderer {
  /** The bot's own markdown-ish text (bold `**`, code backticks) in the platform's syntax. */
  bot(text: string): string;
  /** A player's inline text, escaped so it shows literally. */
  inline(text: string): string;
  /** A player's block as quote lines (escaped); joined with `\n` and put on lines of its own. */
  block(lines: string[]): string[];
}

/**
 * Render a post string (title, text or field value) for one platform: the bot's text through `r.bot` (once,
 * as a whole, so its `**bold**` may wrap a name), player spans through `r.inline` / `r.block`, which
 * `r.bot` never sees; a block always starts and ends on a line of its own. A string without markers is
 * just `r.bot(s)`.
 */
export function renderSpans(s: string, r: SpanRenderer): string {
  if (!/[\uE000-\uE003]/.test(s)) return r.bot(s);
  const parts: string[] = [];
  let skeleton = '';
  let afterBlock = false;
  for (const sp of spansOf(s)) {
    if (sp.kind === 'bot') skeleton += afterBlock ? sp.text.replace(/^ *\n?/, '') : sp.text;
    else if (sp.kind === 'inline') skeleton += hole(parts.push(r.inline(sp.text)) - 1);
    else if (sp.lines.length > 0) {
      const body = hole(parts.push(r.block(sp.lines).join('\n')) - 1);
      skeleton = skeleton.replace(/ +$/, '');
      skeleton += `${skeleton === '' || skeleton.endsWith('\n') ? '' : '\n'}${body}\n`;
    }
    afterBlock = sp.kind === 'block' && sp.lines.length > 0;
  }
  if (afterBlock && !s.endsWith('\n')) skeleton = skeleton.replace(/\n$/, '');
  return r.bot(skeleton).replace(/\uE004(\d+)\uE005/g, (_m, i: string) => parts[Number(i)] ?? '');
}

/** A placeholder for rendered player text inside the bot's skeleton (private-use characters and digits). */
const hole = (i: number) => `\uE004${i}\uE005`;

/**
 * A post string as plain markdown (CommonMark: backslash escapes, `> ` quotes) for exports and any
 * surface without its own renderer (transcripts, web pages that show markdown).
 */
export function markdownOf(s: string): string {
  return renderSpans(s, {
    bot: (t) => t,
    inline: (t) => t.replace(/[\\`*_{}[\]()#+\-.!|<>~@:]/g, '\\$&'),
    block: (lines) => lines.map((l) => `> ${l.replace(/[\\`*_{}[\]()#+\-.!|<>~@:]/g, '\\$&')}`),
  });
}

/** A post string as plain text: markers removed, blocks as `> ` lines (for logs, tests and fallbacks). */
export function plainOf(s: string): string {
  return renderSpans(s, { bot: (t) => t, inline: (t) => t, block: (lines) => lines.map((l) => `> ${l}`) });
}
