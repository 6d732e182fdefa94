/**
 * Scrubbing free text for a dataset release (docs/PREFERENCE-DATA.md#dataset-release): e-mail addresses,
 * URLs, platform mentions (Discord `<@123>`, `<#123>`, `<@&123>`; Slack `<@U123|name>`; `@handle`) and
 * phone numbers (9 or more digits with at most spaces, dots, dashes and brackets between them, optionally a
 * leading +) are replaced by `[email]`, `[url]`, `[mention]`, `[phone]`, and each kind is counted. Only the
 * free-text fields of a row are scrubbed (`text`, `shown_text`, `content`), never ids or times. Pure.
 */

/** How many of each kind a scrub replaced. */
export interface ScrubCounts {
  email: number;
  url: number;
  mention: number;
  phone: number;
}

export const emptyCounts = (): ScrubCounts => ({ email: 0, url: 0, mention: 0, phone: 0 });

/** In order: e-mails before mentions (`a@b.org` holds an `@`), URLs before phones (a URL may hold digits). */
const RULES: readonly [keyof ScrubCounts, RegExp][] = [
  ['email', /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g],
  ['url', /\b(?:https?:\/\/|www\.)[^\s<>"')\]]+/gi],
  ['mention', /<[@#](?:[!&]?\d+|[UW][A-Z0-9]+(?:\|[^>]*)?)>|(?<![\w.@])@[A-Za-z0-9_.]{2,32}\b/g],
  ['phone', /(?<![\w.])\+?\d(?:[ ().-]{0,2}\d){8,}(?![\w])/g],
];

/** `text` scrubbed, counting into `counts`. */
export function scrubText(text: string, counts: ScrubCounts): string {
  let out = text;
  for (const [kind, re] of RULES) {
    out = out.replace(re, () => {
      counts[kind]++;
      return `[${kind}]`;
    });
  }
  return out;
}

const FREE_TEXT = new Set(['text', 'shown_text', 'content']);

/** A copy of `row` with every free-text field (at any depth) scrubbed, counting into `counts`. */
export function scrubRow<T>(row: T, counts: ScrubCounts): T {
  const walk = (v: unknown, key: string | null): unknown => {
    if (typeof v === 'string') return key !== null && FREE_TEXT.has(key) ? scrubText(v, counts) : v;
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    return v;
  };
  return walk(row, null) as T;
}
