/**
 * A match whose host chose the seed is practice (docs/RULES.md §0, docs/PREFERENCE-DATA.md): no rating post
 * after it, left out of the leaderboard (`host_seeded`), the preference statistics and every research export,
 * unless config `data.includeSeeded` (ARENA_INCLUDE_SEEDED) counts it. Played through the console; the command
 * lines are run as a user runs them.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { runConsole } from '../../src/adapters/console/session.js';
import {
  loadMatchData,
  preferenceRows,
  sftRows,
  statsForMatches,
  type MatchData,
} from '../../src/analytics/preference/index.js';
import { ResultsLoader } from '../../src/analytics/ratings/load.js';
import { dataNotice, type DataPolicy } from '../../src/match/data-policy.js';
import { openStore, type EventStore } from '../../src/store/index.js';
import { spawnScript, tempDir } from '../adapters/console/spawn.js';

const INCLUDE: DataPolicy = { includeSeeded: true, notice: dataNotice() };
const pseudonymize = (id: string) => `p_${id.length}`;

/** Play one coalition_market console match (scripted seats pitch, so the judge labels pairs) to the end (the person types `done` each round); its output. */
async function play(store: EventStore, seed: number | undefined, data?: DataPolicy): Promise<string> {
  const input = new PassThrough();
  let out = '';
  const output = new Writable({ write: (c: Buffer, _e, cb) => ((out += String(c)), cb()) });
  input.end('done\n'.repeat(12));
  const code = await runConsole({
    store,
    input,
    output,
    interactive: false,
    color: false,
    task: 'coalition_market',
    ...(seed === undefined ? {} : { seed }),
    roundSeconds: 0,
    chartsDir: null, // the final charts are not written: the test leaves the checkout as it found it
    ...(data ? { data } : {}),
  });
  assert.equal(code, 0, out.slice(-1500));
  return out;
}

const all = async (store: EventStore): Promise<MatchData[]> =>
  (await Promise.all((await store.listMatches({})).map((r) => loadMatchData(store, r.id)))).filter(
    (d): d is MatchData => d !== null,
  );

const matchIds = (rows: unknown[]): string[] =>
  [...new Set(rows.map((r) => JSON.stringify(r).match(/"match_id":"([^"]+)"/)?.[1] ?? '?'))].sort();

/** The match ids of a JSON-lines export (an empty export has none). */
const jsonlIds = (out: string): string[] =>
  matchIds(
    out
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as unknown),
  );

describe('host-seeded matches are practice unless data.includeSeeded', () => {
  const dir = tempDir();
  const db = join(dir, 'arena.db');
  let store: EventStore;
  let seededOut = '';
  let secretOut = '';
  let seededId = '';
  let secretId = '';
  /** Whether the secret-seeded match has judge-labelled pairs (its world is random). */
  let secretJudged = false;

  before(async () => {
    store = await openStore({ sqlitePath: db });
    seededOut = await play(store, 5);
    seededId = (await store.listMatches({}))[0]!.id;
    secretOut = await play(store, undefined);
    secretId = (await store.listMatches({})).find((r) => r.id !== seededId)!.id;
  });
  after(async () => store.close());

  test('the console says so, and no rating post follows a seeded match; a secret-seeded one gets its post', () => {
    assert.match(seededOut, /seed 5, chosen by you: practice, left out of ratings and research exports/);
    assert.match(seededOut, /Match over: final leaderboard/);
    assert.doesNotMatch(seededOut, /Rating changes/);
    assert.match(secretOut, /Rating changes/);
  });

  test('ratings: the seeded match is excluded as host_seeded, and counted with includeSeeded', async () => {
    const off = await new ResultsLoader(store).load({}, { includeSeeded: false });
    assert.deepEqual(
      off.results.map((r) => r.matchId),
      [secretId],
    );
    assert.deepEqual(off.excluded, { host_seeded: 1 });
    const on = await new ResultsLoader(store).load({}, { includeSeeded: true });
    assert.deepEqual(on.results.map((r) => r.matchId).sort(), [seededId, secretId].sort());
    assert.deepEqual(on.excluded, {});
  });

  test('exports and statistics leave the seeded match out by default and keep it with includeSeeded', async () => {
    const data = await all(store);
    const judge = (includeSeeded: boolean) =>
      preferenceRows(data, {
        format: 'jsonl',
        source: 'judge',
        pseudonymize,
        selection: { includeIdentifying: false, includeSeeded },
      });
    const sft = (includeSeeded: boolean) =>
      sftRows(data, { format: 'openai', pseudonymize, selection: { includeIdentifying: false, includeSeeded } });
    // The seeded world (seed 5) has judged pitch pairs; the secret world is drawn afresh each run and may have none.
    assert.ok(matchIds(judge(true)).includes(seededId) && sft(true).length > 0, 'the seeded match gives rows');
    secretJudged = matchIds(judge(true)).includes(secretId);
    assert.deepEqual(matchIds(judge(false)), secretJudged ? [secretId] : []);
    assert.deepEqual(matchIds(judge(true)), (secretJudged ? [seededId, secretId] : [seededId]).sort());
    // The SFT rows carry no match id: the seeded match's rows are the difference.
    const own = sftRows(
      data.filter((d) => d.matchId === seededId),
      { format: 'openai', pseudonymize, selection: { includeIdentifying: false, includeSeeded: true } },
    ).length;
    assert.ok(own > 0);
    assert.equal(sft(false).length, sft(true).length - own);
    const stats = await statsForMatches(store, {});
    assert.equal(stats.matches, 1);
    assert.equal(stats.selection.seededMatches, 1);
    const withSeeded = await statsForMatches(store, {}, { includeIdentifying: false, includeSeeded: true });
    assert.equal(withSeeded.matches, 2);
    assert.equal(withSeeded.selection.seededMatches, 0);
  });

  test('a seeded match played with includeSeeded gets its rating post, and the console says it counts', async () => {
    const other = await openStore({ sqlitePath: ':memory:' });
    try {
      const out = await play(other, 5, INCLUDE);
      assert.match(
        out,
        /chosen by you: practice, yet counted in ratings and research exports \(config data\.includeSeeded is on\)/,
      );
      assert.match(out, /Rating changes/);
    } finally {
      await other.close();
    }
  });

  test('npm run leaderboard and npm run export honour ARENA_INCLUDE_SEEDED', async () => {
    const run = async (script: string, args: string[], env: NodeJS.ProcessEnv) => {
      const p = spawnScript(script, args, env);
      const { code } = await p.exited;
      assert.equal(code, 0, p.err());
      return { out: p.out(), err: p.err() };
    };
    const lbOff = await run('src/cli/leaderboard.ts', ['--db', db, '--format', 'csv'], {});
    assert.match(lbOff.err, /^1 counted match\(es\); not counted: 1 host_seeded\.$/m);
    const lbOn = await run('src/cli/leaderboard.ts', ['--db', db, '--format', 'csv'], { ARENA_INCLUDE_SEEDED: 'true' });
    assert.match(lbOn.err, /^2 counted match\(es\)\.$/m);
    const exOff = await run('src/cli/export.ts', ['--db', db, '--votes', '--source', 'judge', '--format', 'jsonl'], {});
    assert.match(exOff.err, /rows from 1 match; 1 match seeded by the host \(practice\) left out/);
    assert.deepEqual(jsonlIds(exOff.out), secretJudged ? [secretId] : []);
    const exOn = await run('src/cli/export.ts', ['--db', db, '--votes', '--source', 'judge', '--format', 'jsonl'], {
      ARENA_INCLUDE_SEEDED: 'true',
    });
    assert.match(exOn.err, /rows from 2 matches\n/);
    assert.deepEqual(jsonlIds(exOn.out), (secretJudged ? [seededId, secretId] : [seededId]).sort());
  });
});
