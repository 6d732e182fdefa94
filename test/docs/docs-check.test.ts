/**
 * `npm run docs:check` (docs/DEVELOPMENT.md#docs-that-cannot-drift): every relative link and #anchor of README.md and
 * docs/*.md resolves (remark-validate-links with the repository's .remarkrc.json), and the generated sections — the
 * command reference of docs/COMMANDS.md and the action table of docs/ARCHITECTURE.md — are up to date. The checker is
 * also run on planted broken links, so a configuration that stopped checking would fail here.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACTION_TYPES } from '../../src/engine/actions.js';
import {
  actionRows,
  actionSection,
  dispatchTable,
  headings,
  renderActionTable,
  ruleOf,
} from '../../src/cli/readme-actions.js';

/** remark with the repository's configuration on `files`: exit status and its report (colours off). */
function remark(files: string[]): { status: number | null; report: string } {
  const r = spawnSync(
    process.execPath,
    [
      'node_modules/remark-cli/cli.js',
      '--frail',
      '--quiet',
      '--no-stdout',
      '--no-color',
      '--rc-path',
      '.remarkrc.json',
      ...files,
    ],
    { encoding: 'utf8' },
  );
  return { status: r.status, report: `${r.stdout}${r.stderr}` };
}

describe('links and anchors', () => {
  test('README.md and docs/*.md: every relative link and #anchor resolves', () => {
    const r = remark(['README.md', 'docs']);
    assert.equal(r.status, 0, r.report);
  });

  test('a missing heading, a missing file and a missing heading in another file are each reported', () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-docs-'));
    try {
      mkdirSync(join(dir, 'docs'));
      writeFileSync(join(dir, 'docs', 'X.md'), '# X\n\n## Real part\n');
      writeFileSync(
        join(dir, 'README.md'),
        '# T\n\n## Real heading\n\n[a](#real-heading) [b](docs/X.md#real-part) [c](#no-such-heading) [d](missing.md) [e](docs/X.md#nope)\n',
      );
      const r = remark([join(dir, 'README.md'), join(dir, 'docs')]);
      assert.equal(r.status, 1, r.report);
      assert.match(r.report, /Cannot find heading for `#no-such-heading`/);
      assert.match(r.report, /Cannot find file `missing\.md`/);
      assert.match(r.report, /Cannot find heading for `#nope` in `docs\/X\.md`/);
      assert.doesNotMatch(r.report, /real-heading|real-part/, 'the links that resolve are not reported');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the action table of docs/ARCHITECTURE.md', () => {
  test('is up to date (npx tsx src/cli/readme-actions.ts rewrites it)', () => {
    const { expected, actual } = actionSection();
    assert.equal(actual, expected);
  });

  test('has one row per action type, each with its RULES.md section and the handler step.ts dispatches to', () => {
    const rows = actionRows();
    assert.deepEqual(
      rows.map((r) => r.action),
      [...ACTION_TYPES],
    );
    const row = (a: string) => rows.find((r) => r.action === a)!;
    assert.deepEqual(
      [row('send_offer').section, row('send_offer').handler, row('send_offer').file],
      ['3.1', 'sendOffer', 'offers.ts'],
    );
    assert.deepEqual([row('counter_pitch').section, row('counter_pitch').file], ['3.6', 'pitches.ts']);
    assert.deepEqual([row('bid').section, row('bid').handler, row('bid').file], ['3.14', 'bid', 'auction.ts']);
    assert.match(renderActionTable(rows), /^\| `finish` \| \[§3\.13\]\(RULES\.md#312-wait-/m);
  });

  test('reading the code: the dispatch switch, GitHub anchors, the section number nearest before the name', () => {
    assert.deepEqual(
      [
        ...dispatchTable(
          "switch (a) {\n    case 'send_offer': return sendOffer(ctx, a);\n    case 'wait': return wait();\n}",
        ),
      ],
      [
        ['send_offer', 'sendOffer'],
        ['wait', 'wait'],
      ],
    );
    const heads = headings(
      '# Rules\n\n```\n# not a heading\n```\n### 3.5 make_pitch {message} / 3.6 counter_pitch {target}\n## 9. Dup\n## 9. Dup\n',
    );
    assert.deepEqual(
      heads.map((h) => h.anchor),
      ['rules', '35-make_pitch-message--36-counter_pitch-target', '9-dup', '9-dup-1'],
    );
    assert.deepEqual(ruleOf('counter_pitch', heads), {
      section: '3.6',
      anchor: '35-make_pitch-message--36-counter_pitch-target',
    });
    assert.equal(ruleOf('make_pitch', heads)?.section, '3.5');
    assert.equal(ruleOf('pitch', heads), null, 'a name inside another name is not a match');
  });
});
