#!/usr/bin/env node
// Second step of `npm run build`: links tsc's output (dist/cli/*.js, one file per module) into one file per
// entry point under dist/bin/, with shared chunks. Why: resolving and reading ~450 small ESM files (ours,
// zod's, kysely's) cost ~0.5 s of CPU at every start on the 2-core reference machine; one bundle per
// entry cuts `echo quit | npm start` to about half. Heavy or native packages stay external and load
// from node_modules only when a code path imports them (discord.js, Bolt, vega, resvg, openai, pg, …).
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Small pure-JS packages every process loads: bundled. Every other package stays external. */
const BUNDLED = new Set([
  'zod',
  'kysely',
  'commander',
  'pino',
  'seedrandom',
  'p-limit',
  'yocto-queue',
  'p-queue',
  'eventemitter3',
  'p-timeout',
]);
const pkgOf = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
/** Helper modules of src/cli that are not entry points. */
const NOT_ENTRIES = new Set(['options.js', 'bench-llm-run.js']);

const entries = readdirSync(join(root, 'dist', 'cli')).filter((f) => f.endsWith('.js') && !NOT_ENTRIES.has(f));
rmSync(join(root, 'dist', 'bin'), { recursive: true, force: true });
await build({
  entryPoints: entries.map((f) => join(root, 'dist', 'cli', f)),
  outdir: join(root, 'dist', 'bin'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  chunkNames: 'chunks/[name]-[hash]',
  // Bundled CommonJS packages (pino, seedrandom) call require() for Node built-ins.
  banner: {
    js: "import { createRequire as __arenaRequire } from 'node:module'; const require = __arenaRequire(import.meta.url);",
  },
  plugins: [
    {
      name: 'external-packages',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => {
          if (args.path.startsWith('node:')) return { external: true };
          return BUNDLED.has(pkgOf(args.path)) ? undefined : { external: true };
        });
      },
    },
  ],
});
process.stdout.write(`bundled ${entries.length} entry points into dist/bin/\n`);
