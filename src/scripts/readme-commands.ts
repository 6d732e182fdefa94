/**
 * Regenerate the README's command reference from the catalogue:
 *
 *     npx tsx src/scripts/readme-commands.ts          # rewrite the section in README.md
 *     npx tsx src/scripts/readme-commands.ts --check  # exit 1 if it is out of date
 *
 * Only the text between `<!-- commands:start -->` and `<!-- commands:end -->` is touched.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { renderCommandReference } from '../commands/help';

/** HTML comment in README.md that opens the generated command reference. */
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

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop() ?? '');
if (isMain) {
  const path = 'README.md';
  const readme = readFileSync(path, 'utf8');
  const reference = renderCommandReference();
  if (process.argv.includes('--check')) {
    const ok = readSection(readme) === reference;
    process.stdout.write(ok ? 'README command reference is up to date.\n' : 'README command reference is out of date: run npx tsx src/scripts/readme-commands.ts\n');
    process.exit(ok ? 0 : 1);
  }
  writeFileSync(path, replaceSection(readme, reference));
  process.stdout.write('README command reference updated.\n');
}
