/**
 * Render a {@link Reply} for a terminal. Public posts are printed plainly under `[#arena]`; private posts
 * are indented and prefixed `[private → you]` (and dimmed on a colour terminal), so the two never look
 * alike. Buttons print as `[label] → command text`, which the user can type. No ANSI codes unless asked.
 * Player text (src/chat/player-text.ts) is printed without any control character and never styled, and
 * a player's block is quoted with `│ ` on every line, so a pitch cannot print a `[private → you]` line,
 * move the cursor, retitle the window or write the clipboard.
 */
import { renderSpans, stripControls } from '../../chat/player-text.js';
import type { Post, PrivatePost, Reply } from '../../commands/types.js';

/** How {@link renderReply} prints a reply. */
export interface RenderOptions {
  /** Use ANSI styles (only when stdout is a TTY and NO_COLOR is unset). */
  color: boolean;
  /** Show only private posts addressed to this user id (the console's user). */
  userId: string;
  /** Channel label of public posts (default `#arena`). */
  channel?: string;
}

const ANSI = {
  bold: '\x1b[1m',
  dim: '\x1b[2m',
  cyan: '\x1b[36m',
  yellow: '\x1b[33m',
  red: '\x1b[31m',
  reset: '\x1b[0m',
};

/** `**bold**` and `` `code` `` as a terminal shows them (styles only with colour). */
function inline(text: string, color: boolean): string {
  if (!color) return text.replace(/\*\*(.+?)\*\*/g, '$1');
  return text
    .replace(/\*\*(.+?)\*\*/g, `${ANSI.bold}$1${ANSI.reset}`)
    .replace(/`([^`]+)`/g, `${ANSI.cyan}$1${ANSI.reset}`);
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
  if (post.buttons?.length)
    out.push(
      `  ${post.buttons.map((b) => `[${terminalText(b.label, false).replace(/\n/g, ' ')}] → ${stripControls(b.command)}`).join('   ')}`,
    );
  return out;
}

/**
 * The whole reply as text, ending in a newline, or '' if empty: public posts in order, each of the user's
 * private posts right after the public posts that preceded it (`afterPublic`; all of them when unset), so
 * "Allocated …" shows before the round closes the allocation set off.
 */
export function renderReply(reply: Reply, opts: RenderOptions): string {
  const channel = opts.channel ?? '#arena';
  const blocks: string[] = [];
  const mine = reply.private.filter((p) => p.userId === opts.userId);
  const privateAt = (k: number): void => {
    for (const post of mine)
      if (Math.min(post.afterPublic ?? Infinity, reply.public.length) === k)
        blocks.push(privateBlock(post, opts.color));
  };
  privateAt(0);
  for (let k = 0; k < reply.public.length; k++) {
    const [first = '', ...rest] = postLines(reply.public[k]!, opts.color);
    blocks.push([`[${channel}] ${first}`, ...rest.map((l) => `  ${l}`)].join('\n'));
    privateAt(k + 1);
  }
  return blocks.length ? `${blocks.join('\n')}\n` : '';
}

/** One private post, tagged and dimmed (errors in red). */
function privateBlock(post: PrivatePost, color: boolean): string {
  const isError = post.title?.startsWith('✗') ?? false;
  const lines = postLines(post, false).map((l) => `    [private → you] ${l}`);
  return color ? `${isError ? ANSI.red : ANSI.dim}${lines.join('\n')}${ANSI.reset}` : lines.join('\n');
}
