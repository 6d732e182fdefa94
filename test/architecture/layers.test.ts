/**
 * The layer rule (.dependency-cruiser.cjs, `npm run lint:layers`): src/ has no violation and no cycle, and
 * the rule does fail on a planted upward import, a planted cycle, an import of an entry point and an
 * adapter importing another adapter (each planted in a scratch tree, never in src/).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';

const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as IConfiguration;

async function violations(
  files: string[],
  baseDir: string,
  withTsConfig: boolean,
): Promise<{ rule: string; from: string; to: string }[]> {
  const options = { ...config.options, ...(withTsConfig ? {} : { tsConfig: undefined }) };
  const r = await cruise(files, { ...options, baseDir, ruleSet: { forbidden: config.forbidden }, validate: true });
  const out = r.output as ICruiseResult;
  return out.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
}

/** A scratch tree under a temp dir: { 'src/engine/a.ts': "import '../host/b';" , … }. */
async function planted(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'arena-layers-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, dirname(path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return await violations(['src'], dir, false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('src/ keeps every layer rule and has no import cycle', async () => {
  assert.deepEqual(await violations(['src'], process.cwd(), true), []);
});

test('an upward import fails the rule that names the layer', async () => {
  const v = await planted({
    'src/engine/step.ts': "import { host } from '../host/host';\nexport const step = host;\n",
    'src/host/host.ts': 'export const host = 1;\n',
  });
  assert.deepEqual(v, [{ rule: 'layer-engine', from: 'src/engine/step.ts', to: 'src/host/host.ts' }]);
});

test('a cycle fails no-circular, even inside one layer', async () => {
  const v = await planted({
    'src/store/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
    'src/store/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
  });
  assert.deepEqual(
    v.map((x) => x.rule),
    ['no-circular'],
  );
  assert.match(v[0]!.from, /^src\/store\/[ab]\.ts$/);
});

test('entry points are leaves, adapters are siblings, and every folder is a declared layer', async () => {
  const v = await planted({
    'src/commands/x.ts': "import { main } from '../cli/main';\nexport const x = main;\n",
    'src/cli/main.ts': 'export const main = 1;\n',
    'src/adapters/slack/y.ts': "import { d } from '../discord/d';\nexport const y = d;\n",
    'src/adapters/discord/d.ts': 'export const d = 1;\n',
    'src/widgets/w.ts': "import { d } from '../adapters/discord/d';\nexport const w = d;\n",
  });
  const rules = v.map((x) => `${x.rule}: ${x.from}`).sort();
  assert.deepEqual(rules, [
    'adapters-are-siblings: src/adapters/slack/y.ts',
    'cli-is-a-leaf: src/commands/x.ts',
    'layer-adapters-slack: src/adapters/slack/y.ts',
    'layer-commands: src/commands/x.ts',
    'no-unlisted-folder: src/widgets/w.ts',
  ]);
});
