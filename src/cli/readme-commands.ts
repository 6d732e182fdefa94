/**
 * Regenerate the command reference in docs/COMMANDS.md from the catalogue:
 *
 *     npx tsx src/cli/readme-commands.ts          # rewrite the section in docs/COMMANDS.md
 *     npx tsx src/cli/readme-commands.ts --check  # exit 1 if it is out of date
 *
 * Only the text between `<!-- commands:start -->` and `<!-- commands:end -->` is touched
 * (src/commands/reference-section.ts); test/commands/reference.test.ts fails when it is out of date.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { renderCommandReference } from '../commands/help.js';
import { COMMANDS_DOC, readSection, replaceSection } from '../commands/reference-section.js';

const isMain =
  process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop() ?? '');
if (isMain) {
  const doc = readFileSync(COMMANDS_DOC, 'utf8');
  const reference = renderCommandReference();
  if (process.argv.includes('--check')) {
    const ok = readSection(doc) === reference;
    process.stdout.write(
      ok
        ? `${COMMANDS_DOC}: command reference is up to date.\n`
        : `${COMMANDS_DOC}: command reference is out of date: run npx tsx src/cli/readme-commands.ts\n`,
    );
    process.exit(ok ? 0 : 1);
  }
  writeFileSync(COMMANDS_DOC, replaceSection(doc, reference));
  process.stdout.write(`${COMMANDS_DOC}: command reference updated.\n`);
}
