/**
 * A database that cannot be reached ends every entry point that opens one with ONE clear line — what failed,
 * where (the URL without its password) and which setting chose it — and exit code 1, never a driver's stack
 * trace: `npm start` (the console), the Discord and Slack bots (`npm start -- --platform …`, which open the
 * store before logging in), `npm run web`, `stats`, `export` and `leaderboard`. The PostgreSQL URL points at a
 * port nothing listens on (connection refused); the SQLite path cannot be created (a file is in the way).
 * `npm run serve` opens no database.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnScript, tempDir } from '../adapters/console/spawn.js';

const SECRET = 'S3cretPassw0rd';

/** A port nothing listens on (taken from the kernel, then released). */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

const ENTRIES: { name: string; script: string; args: string[]; env?: NodeJS.ProcessEnv }[] = [
  { name: 'npm start (console)', script: 'src/cli/main.ts', args: [] },
  {
    name: 'npm start -- --platform discord',
    script: 'src/cli/main.ts',
    args: ['--platform', 'discord'],
    env: { DISCORD_TOKEN: 'MTIz.fake.SECRET' },
  },
  {
    name: 'npm start -- --platform slack',
    script: 'src/cli/main.ts',
    args: ['--platform', 'slack'],
    env: { SLACK_BOT_TOKEN: 'xoxb-fake', SLACK_SIGNING_SECRET: 'fake-signing-secret' },
  },
  { name: 'npm run web', script: 'src/cli/web.ts', args: ['--port', '0'] },
  { name: 'npm run stats', script: 'src/cli/stats.ts', args: [] },
  { name: 'npm run export', script: 'src/cli/export.ts', args: ['--match', 'm_000000000000', '--format', 'jsonl'] },
  { name: 'npm run leaderboard', script: 'src/cli/leaderboard.ts', args: [] },
];

async function run(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; err: string; out: string }> {
  const p = spawnScript(script, args, env);
  p.child.stdin.end();
  const { code } = await p.exited;
  return { code, err: p.err(), out: p.out() };
}

describe('entry points when the database cannot be reached', () => {
  test(
    'PostgreSQL refusing connections: one line naming the URL without its password and DATABASE_URL, exit 1',
    { timeout: 180_000 },
    async () => {
      const port = await closedPort();
      const url = `postgres://arena:${SECRET}@127.0.0.1:${port}/arena`;
      for (const e of ENTRIES) {
        const r = await run(e.script, e.args, { ...e.env, DATABASE_URL: url });
        const lines = r.err.trimEnd().split('\n');
        assert.equal(r.code, 1, `${e.name}: exit code 1; stderr:\n${r.err}`);
        assert.equal(lines.length, 1, `${e.name}: one line, no stack trace:\n${r.err}`);
        assert.match(
          lines[0]!,
          new RegExp(
            `cannot open the database postgres://arena:\\*\\*\\*@127\\.0\\.0\\.1:${port}/arena \\(setting database\\.url / DATABASE_URL\\): .*ECONNREFUSED`,
          ),
          e.name,
        );
        assert.ok(!`${r.err}${r.out}`.includes(SECRET), `${e.name}: the password is never printed`);
      }
    },
  );

  test(
    'a SQLite file that cannot be created: one line naming the file and ARENA_DB, exit 1',
    { timeout: 60_000 },
    async () => {
      const dir = tempDir();
      const blocker = join(dir, 'not-a-dir');
      writeFileSync(blocker, 'x');
      const path = join(blocker, 'arena.db');
      for (const e of [ENTRIES[0]!, ENTRIES[4]!]) {
        const r = await run(e.script, e.args, { ARENA_DB: path });
        assert.equal(r.code, 1, `${e.name}: ${r.err}`);
        assert.equal(r.err.trimEnd().split('\n').length, 1, r.err);
        assert.match(
          r.err,
          new RegExp(
            `cannot open the SQLite file ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(setting database\\.sqlitePath / ARENA_DB\\): (EEXIST|ENOTDIR)`,
          ),
        );
      }
      const viaOption = await run('src/cli/stats.ts', ['--db', path], {});
      assert.match(viaOption.err, /\(setting the --db option\): (EEXIST|ENOTDIR)/);
    },
  );
});
