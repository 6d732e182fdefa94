/**
 * The conformance suite on SQLite (one temporary file per test), plus what only the SQLite backend does:
 * ':memory:', creating the folder on first run, WAL, and openStore's choice of backend.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { openSqliteStore, openStore, StoreError } from '../../src/store/index.js';
import { runConformance } from './conformance.js';

const root = mkdtempSync(join(tmpdir(), 'arena-store-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

runConformance('sqlite', {
  create: async () => join(root, `db${n++}`, 'arena.db'),
  open: (path) => openSqliteStore(path),
  destroy: async (path) => rmSync(join(path, '..'), { recursive: true, force: true }),
});

test('sqlite: first run creates the folder and file, in WAL mode with a busy timeout', async () => {
  const path = join(root, 'fresh', 'nested', 'arena.db');
  assert.equal(existsSync(path), false);
  const s = await openSqliteStore(path);
  try {
    assert.equal(existsSync(path), true);
    const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(s.db);
    assert.equal(mode.rows[0]?.journal_mode, 'wal');
    const busy = await sql<{ timeout: number }>`pragma busy_timeout`.execute(s.db);
    assert.ok((busy.rows[0]?.timeout ?? 0) > 0);
    const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(s.db);
    assert.equal(fk.rows[0]?.foreign_keys, 1);
  } finally {
    await s.close();
  }
});

test('sqlite: :memory: stores are private and work end to end', async () => {
  const a = await openStore({ sqlitePath: ':memory:' });
  const b = await openStore({ sqlitePath: ':memory:' });
  try {
    assert.equal(a.dialect, 'sqlite');
    assert.ok(
      (await a.createMatch({ id: 'm', channelId: 'c', platform: 'console', createdAt: '2025-01-01T00:00:00.000Z' })).ok,
    );
    assert.ok((await a.append('m', 0, { type: 'seat_done', lab: 'x' }, '2025-01-01T00:00:01.000Z')).ok);
    assert.equal((await a.load('m')).length, 1);
    assert.equal(await b.getMatch('m'), null);
  } finally {
    await a.close();
    await b.close();
  }
});

test('openStore: no URL means SQLite at sqlitePath; a non-postgres URL is bad_config', async () => {
  const path = join(root, 'open', 'arena.db');
  const s = await openStore({ databaseUrl: '  ', sqlitePath: path });
  assert.equal(s.dialect, 'sqlite');
  await s.close();
  assert.equal(existsSync(path), true);
  await assert.rejects(
    openStore({ databaseUrl: 'mysql://u:p@127.0.0.1/x' }),
    (e: unknown) => e instanceof StoreError && e.code === 'bad_config',
  );
});

test('sqlite: two OS processes on one new file: both open it, 2×100 appends without gaps, one claim', async () => {
  const path = join(root, 'processes', 'arena.db');
  const writer = fileURLToPath(new URL('./sqlite-writer.ts', import.meta.url));
  const run = (prefix: string) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', writer, path, prefix, '100']);
  const outs = await Promise.all([run('a'), run('b')]);
  const reports = outs.map((o) => JSON.parse(o.stdout.trim()) as { conflicts: number; claimed: boolean });
  assert.equal(reports.filter((r) => r.claimed).length, 1, 'exactly one process won the claim');
  const s = await openSqliteStore(path);
  try {
    const log = await s.load('m');
    assert.deepEqual(
      log.map((e) => e.seq),
      Array.from({ length: 200 }, (_, i) => i + 1),
    );
    const labs = new Set(log.map((e) => (e.body.type === 'seat_done' ? e.body.lab : '')));
    assert.equal(labs.size, 200);
    for (let i = 0; i < 100; i++) assert.ok(labs.has(`a${i}`) && labs.has(`b${i}`));
  } finally {
    await s.close();
  }
});
