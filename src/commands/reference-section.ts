/**
 * Generated sections inside Markdown files: the text between `<!-- <name>:start -->` and `<!-- <name>:end -->`,
 * read and replaced. docs/COMMANDS.md holds the `commands` section (the command reference, src/cli/readme-commands.ts);
 * docs/ARCHITECTURE.md the `actions` section (the engine's action table, src/cli/readme-actions.ts).
 */

/** The Markdown file (relative to the repository root) that holds the generated command reference. */
export const COMMANDS_DOC = 'docs/COMMANDS.md';

/** HTML comment that opens the generated section `name`. */
export const startMarker = (name: string): string => `<!-- ${name}:start -->`;
/** HTML comment that closes the generated section `name`. */
export const endMarker = (name: string): string => `<!-- ${name}:end -->`;

/** The text of section `name` (trimmed), or null when its markers are missing. */
export function readSection(doc: string, name = 'commands'): string | null {
  const a = doc.indexOf(startMarker(name));
  const b = doc.indexOf(endMarker(name));
  if (a < 0 || b < a) return null;
  return doc.slice(a + startMarker(name).length, b).trim();
}

/** `doc` with section `name` replaced by `text`. Throws if its markers are missing. */
export function replaceSection(doc: string, text: string, name = 'commands'): string {
  const a = doc.indexOf(startMarker(name));
  const b = doc.indexOf(endMarker(name));
  if (a < 0 || b < a) throw new Error(`no ${startMarker(name)} … ${endMarker(name)} section`);
  return `${doc.slice(0, a + startMarker(name).length)}\n${text}\n${doc.slice(b)}`;
}
