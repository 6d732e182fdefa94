/**
 * Regenerate the README's command reference from the catalogue:
 *
 *     npx tsx src/cli/readme-commands.ts          # rewrite the section in README.md
 *     npx tsx src/cli/readme-commands.ts --check  # exit 1 if it is out of date
 *
 * Only the text between `<!-- commands:start -->` and `<!-- commands:end -->` is touched.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { renderCommandReference } from '../commands/help.js';

/** HTML comment in README.md that opens the generated command reference. */
import { readSection, replaceSection } from '../commands/reference-section.js';

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop() ?? '');
if (isMain) {
  const path = 'README.md';
  const readme = readFileSync(path, 'utf8');
  const reference = renderCommandReference();
  if (process.argv.includes('--check')) {
    const ok = readSection(readme) === reference;
    process.stdout.write(ok ? 'README command reference is up to date.\n' : 'README command reference is out of date: run npx tsx src/cli/readme-commands.ts\n');
    process.exit(ok ? 0 : 1);
  }
  writeFileSync(path, replaceSection(readme, reference));
  process.stdout.write('README command reference updated.\n');
}
