/**
 * Safe HTML for the web page (pure): a tagged template {@link html} that escapes every interpolated value
 * unless it is already {@link Html} (built by this module), so a player-written string (a pitch, a name,
 * a message) can only ever render as text. Posts of src/chat (what the channel sees) are rendered with
 * {@link postHtml}: titles, text and fields escaped, `**bold**` and `code` spans kept, line breaks kept.
 */
import { renderSpans } from '../chat/player-text.js';
import type { Post } from '../chat/types.js';

/** A string of HTML that is safe to insert (made by {@link html}, {@link raw} of a constant, or the helpers here). */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESC: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Escape text for an HTML text node or a quoted attribute value. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"'`]/g, (c) => ESC[c]!);

/** A value a template may hold: text (escaped), numbers, Html (kept), lists of them, nothing (dropped). */
export type HtmlValue = string | number | Html | null | undefined | false | readonly HtmlValue[];

function render(v: HtmlValue): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof Html) return v.value;
  if (Array.isArray(v)) return (v as readonly HtmlValue[]).map(render).join('');
  return escapeHtml(String(v));
}

/** Tagged template: literal parts are kept, every `${value}` is escaped (see {@link HtmlValue}). */
export function html(parts: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = parts[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + (parts[i + 1] ?? '');
  return new Html(out);
}

/** Trusted HTML from a constant of this code (never from data). */
export const raw = (s: string): Html => new Html(s);

/** The bot's own markdown-ish text as HTML: escaped, `**bold**` and `` `code` `` spans kept. */
function botHtml(text: string): string {
  // On escaped text: the markers are plain characters (a backtick is escaped to &#96;).
  return escapeHtml(text)
    .replace(/&#96;(.+?)&#96;/g, '<code>$1</code>')
    .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>');
}

/**
 * A post string (src/chat: the bot's markdown-ish text with players' spans marked, src/chat/player-text.ts)
 * as HTML: the bot's text escaped with bold and code kept; a player's inline text escaped in a
 * `span.player`, a player's block as escaped quote lines; line breaks kept. A player's text can never
 * become markup, bold or code.
 */
export function richText(text: string): Html {
  const out = renderSpans(text, {
    bot: botHtml,
    inline: (t) => `<span class="player">${escapeHtml(t)}</span>`,
    block: (lines) => lines.map((l) => `<span class="quote">${escapeHtml(l)}</span>`),
  });
  return new Html(out.replace(/\n/g, '<br>'));
}

/** One post as an article: title, text, fields as a definition list. Buttons (chat commands) are left out. */
export function postHtml(post: Post, extraClass = ''): Html {
  const fields = (post.fields ?? []).filter((f) => f.value.trim() !== '');
  return html`<article class="post ${extraClass}">${post.title ? html`<h3>${richText(post.title)}</h3>` : ''}${post.text ? html`<p>${richText(post.text)}</p>` : ''}${
    fields.length
      ? html`<dl>${fields.map((f) => html`<dt>${richText(f.name)}</dt><dd>${richText(f.value)}</dd>`)}</dl>`
      : ''
  }</article>`;
}

/** The page shell: head with the stylesheet and script files (no inline script or style: CSP `default-src 'self'`). */
export function page(opts: { title: string; body: Html; scripts?: string[]; bodyClass?: string; nav?: boolean }): Html {
  const nav =
    opts.nav === false
      ? ''
      : html`<header class="top"><nav aria-label="Main"><a href="/" class="brand">GPU Arena</a> <a href="/">Matches</a> <a href="/leaderboard">Leaderboard</a> <a href="/preferences">Preference data</a> <a href="/demo">Demo</a></nav></header>`;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title} · GPU Arena</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/static/app.css">
${(opts.scripts ?? []).map((s) => html`<script src="/static/${s}" defer></script>`)}</head>
<body class="${opts.bodyClass ?? ''}">${nav}<main id="main">${opts.body}</main></body></html>`;
}
