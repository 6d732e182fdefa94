/**
 * The engine's text boundary (player text is data, docs/SECURITY.md): every free text a seat writes (pitches, messages, offer notes,
 * coalition purposes) passes {@link cleanText} when its action is parsed (actions.ts, parse-action.ts), so
 * no state, event fold, observation or post ever holds a terminal escape or an invisible control.
 *
 * Own code rather than a library on purpose: the function is part of the rules (a replayed log must read
 * back the very same texts forever), so it must not change with a dependency's update.
 */

/**
 * Terminal escape sequences, 7-bit and 8-bit: OSC / DCS / SOS / PM / APC strings up to their terminator
 * (BEL or ST, or the end of the text when unterminated), CSI sequences (`ESC [` … final byte), and any other
 * two-character `ESC x` sequence.
 */
const ESCAPES =
  // eslint-disable-next-line no-control-regex
  /(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[\s\S]*?(?:\x07|\x1b\\|\x9c|$)|(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?|\x1b[\x20-\x7e]?/g;

/**
 * Controls that are dropped: C0 except tab and newline, DEL, C1, bidirectional overrides and isolates
 * (they reorder what a reader sees, "Trojan Source"), zero-width space / word joiner / BOM.
 */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;

/**
 * Any character {@link cleanText} may change (controls, line and paragraph separators, the dropped
 * invisibles). One module-level object rather than a literal in the function, which would make a new
 * RegExp object at every call; not global or sticky, so `test` keeps no state between calls.
 */
// eslint-disable-next-line no-control-regex
const UNCLEAN = /[\x00-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;

/**
 * A seat's free text made safe to store and show: line breaks normalised to `\n` (CR LF, lone CR, U+2028,
 * U+2029), tabs to spaces, terminal escape sequences (ANSI CSI, OSC 0/2 titles, OSC 52 clipboard, OSC 8
 * links, DCS, …) removed whole, every other control character removed. Pure and total; idempotent
 * (`cleanText(cleanText(s)) === cleanText(s)`). Trimming and length limits stay with the schemas.
 *
 * @param s any string (e.g. an LLM seat's message or a pitch from a chat form)
 * @returns the same text without escapes or controls; printable characters are unchanged
 */
export function cleanText(s: string): string {
  // Fast path: most texts are plain.
  if (!UNCLEAN.test(s)) return s;
  return s
    .replace(ESCAPES, '')
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(/\t/g, ' ')
    .replace(CONTROLS, '');
}
