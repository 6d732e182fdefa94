#!/usr/bin/env node
// Runs a compiled entry point of src/cli in this process: `node scripts/run.mjs <entry> [args…]`
// (e.g. `main` for npm start). Rebuilds dist/ first when a source file is newer than the last build, so a
// fresh clone and an edited tree both just work; deployments run `node dist/bin/<entry>.js` directly.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = process.argv[2];
if (!entry || !/^[a-z][a-z-]*$/.test(entry)) {
  process.stderr.write('usage: node scripts/run.mjs <entry of src/cli> [args…]\n');
  process.exit(2);
}
const target = join(root, 'dist', 'bin', `${entry}.js`);

/** Newest modification time (ms) of the sources the build reads. */
function newestSource(dir = join(root, 'src')) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    const t = e.isDirectory() ? newestSource(p) : e.name.endsWith('.ts') ? statSync(p).mtimeMs : 0;
    if (t > newest) newest = t;
  }
  return newest;
}

function stale() {
  if (!existsSync(target)) return true;
  // Every build rewrites dist/bin, so an entry's time is the time of the last complete build.
  const built = statSync(target).mtimeMs;
  const configs = ['tsconfig.json', 'tsconfig.build.json'].map((f) => statSync(join(root, f)).mtimeMs);
  return Math.max(newestSource(), ...configs) > built;
}

let tsc = null;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  // A production install without dev tools runs whatever dist/ holds.
}
if (tsc && existsSync(join(root, 'src')) && stale()) {
  process.stderr.write('Building dist/ from src/ (once after a change; `npm run build` does it ahead)…\n');
  for (const step of [[tsc, '-p', join(root, 'tsconfig.build.json')], [join(root, 'scripts', 'bundle.mjs')]]) {
    // The build's own output goes to stderr: stdout is the entry's (`npm run -s export … > file`).
    const r = spawnSync(process.execPath, step, { stdio: ['inherit', process.stderr, 'inherit'] });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}
if (!existsSync(target)) {
  process.stderr.write(`No ${target}: run \`npm run build\` first (unknown entry "${entry}"?).\n`);
  process.exit(2);
}
// The entry sees its own path and arguments, as if run as `node dist/bin/<entry>.js args…`.
process.argv.splice(1, 2, target);
await import(pathToFileURL(target).href);
