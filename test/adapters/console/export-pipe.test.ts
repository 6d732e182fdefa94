/**
 * `npm run -s export … > file` (as README.md and docs/PREFERENCE-DATA.md show it) writes valid JSON lines:
 * npm's `-s` keeps its banner out of stdout, so the file holds the export and nothing else; `--out` writes the
 * same bytes. Run through npm itself, as a user types it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openStore } from '../../../src/store/index.js';
import { spawnArena, tempDir } from './spawn.js';

test(
  'npm run -s export -- --format jsonl piped to a file parses line by line; --out writes the same',
  { timeout: 300_000 },
  async () => {
    const dir = tempDir();
    const db = join(dir, 'arena.db');
    const play = spawnArena(['--db', db, '--task', 'market_round', '--seed', '7', '--round-seconds', '0'], dir);
    play.send('done', 'done', 'done', 'done', 'done');
    play.child.stdin.end();
    assert.equal((await play.exited).code, 0, play.err());
    const store = await openStore({ sqlitePath: db });
    const id = (await store.listMatches())[0]!.id;
    await store.close();
    const npm = (args: string[]) =>
      spawnSync('npm', ['run', '-s', 'export', '--', '--db', db, '--match', id, ...args], {
        cwd: resolve('.'),
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      });
    for (const format of ['jsonl', 'ledger']) {
      const r = npm(['--format', format]);
      assert.equal(r.status, 0, r.stderr);
      const lines = r.stdout.split('\n').filter((l) => l !== '');
      assert.ok(lines.length >= (format === 'jsonl' ? 4 : 1), `${format}: rows written`);
      for (const l of lines)
        assert.doesNotThrow(() => JSON.parse(l), `${format}: every line is JSON: ${l.slice(0, 80)}`);
      const out = join(dir, `export.${format}`);
      assert.equal(npm(['--format', format, '--out', out]).status, 0);
      assert.equal(readFileSync(out, 'utf8'), r.stdout, '--out writes what stdout gets');
    }
  },
);
