/**
 * Render a {@link Reply} for a terminal. Public posts are printed plainly under `[#arena]`; private posts
 * are indented and prefixed `[private → you]` (and dimmed on a colour terminal), so the two never look
 * alike. Buttons print as `[label] → command text`, which the user can type. No ANSI codes unless asked.
 * Player text (src/chat/player-text.ts) is printed without any control character and never styled, and
 * a player's block is quoted with `│ ` on every line, so a pitch cannot print a `[private → you]` line,
 * move the cursor, retitle the window or write the clipboard.
 */
import { renderSpans, stripControls } from '../../chat/player-text.js';
import type { Post, Reply } from '../../commands/types.js';

/** How {@link renderReply} prints a reply. */
export interface RenderOptions {
  /** Use ANSI styles (only when stdout is a TTY and NO_COLOR is unset). */
  color: boolean;
  /** Show only private posts addressed to this user id (the console's user). */
  userId: string;
  /** Channel label of public posts (default `#arena`). */
  channel?: string;
}

const ANSI = { bold: '\x1b[1m', dim: '\x1b[2m', cyan: '\x1b[36m', yellow: '\x1b[33m', red: '\x1b[31m', reset: '\x1b[0m' };

/** `**bold**` and `` `code` `` as a terminal shows them (styles only with colour). */
function inline(text: string, color: boolean): string {
  if (!color) return text.replace(/\*\*(.+?)\*\*/g, '$1');
  return text.replace(/\*\*(.+?)\*\*/g, `${ANSI.bold}$1${ANSI.reset}`).replace(/`([^`]+)`/g, `${ANSI.cyan}$1${ANSI.reset}`);
}

/** Bot text with its styles, player spans as plain text (no control characters), player blocks as `│ ` lines. */
export function terminalText(s: string, color: boolean): string {
  return renderSpans(s, {
    // The bot's own text may still carry a name that was not marked: no control character gets through either.
    // eslint-disable-next-line no-control-regex
    bot: (t) => inline(t.replace(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/g, ''), color),
    inline: (t) => stripControls(t),
    block: (lines) => lines.map((l) => `│ ${stripControls(l)}`),
  });
}

/** A post's lines, without prefix. */
export function postLines(post: Post, color: boolean): string[] {
  const out: string[] = [];
  if (post.title) {
    const title = terminalText(post.title, false).replace(/\n/g, ' ');
    out.push(color ? `${ANSI.bold}${title}${ANSI.reset}` : title);
  }
  if (post.text) out.push(...terminalText(post.text, color).split('\n'));
  for (const f of post.fields ?? []) {
    const name = terminalText(f.name, false).replace(/\n/g, ' ');
    const lines = terminalText(f.value, color).split('\n');
    if (lines.length === 1) out.push(`  ${name}: ${lines[0] ?? ''}`);
    else out.push(`  ${name}:`, ...lines.map((l) => `    ${l}`));
  }
  if (post.buttons?.length) out.push(`  ${post.buttons.map((b) => `[${terminalText(b.label, false).replace(/\n/g, ' ')}] → ${stripControls(b.command)}`).join('   ')}`);
  return out;
}

/** The whole reply as text (public posts first, then the user's private posts), ending in a newline, or '' if empty. */
export function renderReply(reply: Reply, opts: RenderOptions): string {
  const channel = opts.channel ?? '#arena';
  const blocks: string[] = [];
  for (const post of reply.public) {
    const [first = '', ...rest] = postLines(post, opts.color);
    blocks.push([`[${channel}] ${first}`, ...rest.map((l) => `  ${l}`)].join('\n'));
  }
  for (const post of reply.private) {
    if (post.userId !== opts.userId) continue;
    const isError = post.title?.startsWith('✗') ?? false;
    const tag = '[private → you]';
    const lines = postLines(post, false).map((l) => `    ${tag} ${l}`);
    if (!opts.color) blocks.push(lines.join('\n'));
    else blocks.push(`${isError ? ANSI.red : ANSI.dim}${lines.join('\n')}${ANSI.reset}`);
  }
  return blocks.length ? `${blocks.join('\n')}\n` : '';
}
