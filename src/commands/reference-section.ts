/** The generated command reference inside a Markdown file (docs/COMMANDS.md): reading and replacing the section between its markers. */

/** The Markdown file (relative to the repository root) that holds the generated command reference. */
export const COMMANDS_DOC = 'docs/COMMANDS.md';

/** HTML comment in {@link COMMANDS_DOC} that opens the generated command reference. */
export const START_MARKER = '<!-- commands:start -->';
/** HTML comment in {@link COMMANDS_DOC} that closes the generated command reference. */
export const END_MARKER = '<!-- commands:end -->';

/** The text between the markers (trimmed), or null when the markers are missing. */
export function readSection(doc: string): string | null {
  const a = doc.indexOf(START_MARKER);
  const b = doc.indexOf(END_MARKER);
  if (a < 0 || b < a) return null;
  return doc.slice(a + START_MARKER.length, b).trim();
}

/** `doc` with the section replaced by `reference`. Throws if the markers are missing. */
export function replaceSection(doc: string, reference: string): string {
  const a = doc.indexOf(START_MARKER);
  const b = doc.indexOf(END_MARKER);
  if (a < 0 || b < a) throw new Error(`${COMMANDS_DOC} has no ${START_MARKER} … ${END_MARKER} section`);
  return `${doc.slice(0, a + START_MARKER.length)}\n${reference}\n${doc.slice(b)}`;
}
