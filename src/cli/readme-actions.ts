/**
 * The action table of docs/ARCHITECTURE.md ("Engine actions → rules → handlers"), generated from the code:
 *
 *     npx tsx src/cli/readme-actions.ts          # rewrite the table in docs/ARCHITECTURE.md
 *     npx tsx src/cli/readme-actions.ts --check  # exit 1 if it is out of date (npm run docs:check)
 *
 * One row per action type of `ACTION_TYPES` (src/engine/actions.ts): the section of docs/RULES.md whose
 * heading names the action (linked by its GitHub anchor, github-slugger), and the handler the `dispatch`
 * switch of src/engine/step.ts calls, with the file under src/engine/handlers that exports it. An action
 * with no `case` in the switch, no exporting handler file or no RULES.md heading is an error, so a new
 * action cannot ship without its rule and its handler. Only the text between `<!-- actions:start -->` and
 * `<!-- actions:end -->` is touched; test/docs/actions-table.test.ts fails when it is out of date.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import GithubSlugger from 'github-slugger';
import { ACTION_TYPES } from '../engine/actions.js';
import { readSection, replaceSection } from '../commands/reference-section.js';

/** The file that holds the generated table, relative to the repository root. */
export const ARCHITECTURE_DOC = 'docs/ARCHITECTURE.md';
const RULES_DOC = 'docs/RULES.md';
const STEP = 'src/engine/step.ts';
const HANDLERS = 'src/engine/handlers';
const SECTION = 'actions';

/** One row of the table. */
export interface ActionRow {
  action: string;
  /** RULES.md section number (`3.1`) and its anchor. */
  section: string;
  anchor: string;
  /** The handler function and its file name under src/engine/handlers. */
  handler: string;
  file: string;
}

const word = (name: string) => new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`);

/** action type → handler function, from the `case '<type>': return <fn>(` lines of step.ts's switch. */
export function dispatchTable(stepSource: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of stepSource.matchAll(/case '([a-z_]+)':\s*return\s+([A-Za-z0-9_]+)\(/g)) out.set(m[1]!, m[2]!);
  return out;
}

/** Headings of a Markdown file with their GitHub anchors (in order, duplicates numbered as GitHub does). */
export function headings(markdown: string): { text: string; anchor: string }[] {
  const slugger = new GithubSlugger();
  const out: { text: string; anchor: string }[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = fenced ? null : /^#{1,6} (.*)$/.exec(line);
    if (m) out.push({ text: m[1]!.trim(), anchor: slugger.slug(m[1]!.trim()) });
  }
  return out;
}

/**
 * The RULES.md section of `action`: the first heading that names it; its number is the last `n.m` before
 * the name in that heading (`### 3.5 make_pitch … / 3.6 counter_pitch …` gives counter_pitch 3.6).
 */
export function ruleOf(
  action: string,
  heads: readonly { text: string; anchor: string }[],
): { section: string; anchor: string } | null {
  for (const h of heads) {
    const at = h.text.search(word(action));
    if (at < 0) continue;
    const numbers = [...h.text.slice(0, at).matchAll(/(\d+(?:\.\d+)+)/g)];
    const section = numbers.at(-1)?.[1];
    if (section) return { section, anchor: h.anchor };
  }
  return null;
}

/** The rows, read from the repository at `root`. Throws, naming the action, when one has no rule, case or handler. */
export function actionRows(root = '.'): ActionRow[] {
  const dispatch = dispatchTable(readFileSync(join(root, STEP), 'utf8'));
  const heads = headings(readFileSync(join(root, RULES_DOC), 'utf8'));
  const files = readdirSync(join(root, HANDLERS))
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => ({ f, source: readFileSync(join(root, HANDLERS, f), 'utf8') }));
  return ACTION_TYPES.map((action) => {
    const handler = dispatch.get(action);
    if (!handler) throw new Error(`${STEP}: no \`case '${action}': return <handler>(…)\` in dispatch`);
    const file = files.find((x) =>
      new RegExp(`export (?:async )?function ${handler}\\b|export const ${handler}\\b`).test(x.source),
    )?.f;
    if (!file) throw new Error(`${HANDLERS}: no file exports ${handler} (the handler of ${action})`);
    const rule = ruleOf(action, heads);
    if (!rule) throw new Error(`${RULES_DOC}: no numbered heading names ${action}`);
    return { action, ...rule, handler, file };
  });
}

/** The Markdown table of {@link actionRows}. */
export function renderActionTable(rows: readonly ActionRow[]): string {
  const lines = ['| action | rule | handler |', '|---|---|---|'];
  for (const r of rows) {
    lines.push(
      `| \`${r.action}\` | [§${r.section}](RULES.md#${r.anchor}) | [\`handlers/${r.file}\`](../src/engine/handlers/${r.file}) \`${r.handler}\` |`,
    );
  }
  return lines.join('\n');
}

/** The generated section as it should be, and as docs/ARCHITECTURE.md has it (null: markers missing). */
export function actionSection(root = '.'): { expected: string; actual: string | null } {
  return {
    expected: renderActionTable(actionRows(root)),
    actual: readSection(readFileSync(join(root, ARCHITECTURE_DOC), 'utf8'), SECTION),
  };
}

const isMain =
  process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop() ?? '');
if (isMain) {
  const { expected, actual } = actionSection();
  if (process.argv.includes('--check')) {
    const ok = actual === expected;
    process.stdout.write(
      ok
        ? `${ARCHITECTURE_DOC}: action table is up to date.\n`
        : `${ARCHITECTURE_DOC}: action table is out of date: run npx tsx src/cli/readme-actions.ts\n`,
    );
    process.exit(ok ? 0 : 1);
  }
  writeFileSync(ARCHITECTURE_DOC, replaceSection(readFileSync(ARCHITECTURE_DOC, 'utf8'), expected, SECTION));
  process.stdout.write(`${ARCHITECTURE_DOC}: action table updated.\n`);
}
