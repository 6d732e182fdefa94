/** The generated command reference inside a Markdown file: reading and replacing the section between its markers. */

export const START_MARKER = '<!-- commands:start -->';
/** HTML comment in README.md that closes the generated command reference. */
export const END_MARKER = '<!-- commands:end -->';

/** The text between the markers (trimmed), or null when the markers are missing. */
export function readSection(readme: string): string | null {
  const a = readme.indexOf(START_MARKER);
  const b = readme.indexOf(END_MARKER);
  if (a < 0 || b < a) return null;
  return readme.slice(a + START_MARKER.length, b).trim();
}

/** `readme` with the section replaced by `reference`. Throws if the markers are missing. */
export function replaceSection(readme: string, reference: string): string {
  const a = readme.indexOf(START_MARKER);
  const b = readme.indexOf(END_MARKER);
  if (a < 0 || b < a) throw new Error(`README.md has no ${START_MARKER} … ${END_MARKER} section`);
  return `${readme.slice(0, a + START_MARKER.length)}\n${reference}\n${readme.slice(b)}`;
}
