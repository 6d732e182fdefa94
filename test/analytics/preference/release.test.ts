/**
 * `npm run export -- --dataset <dir>` on a played database (docs/PREFERENCE-DATA.md#dataset-release): the
 * JSON lines load with pandas, the card's YAML header parses (PyYAML) and names the files, the checksums
 * verify, free text is scrubbed and counted, a person who declined is absent, and pseudonyms are stable
 * within a release and differ across releases unless the key is kept.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Caller } from '../../../src/chat/types.js';
import { runText } from '../../../src/commands/index.js';
import { RoundHost } from '../../../src/host/index.js';
import { dataNotice } from '../../../src/match/data-policy.js';
import { openSqliteStore, type EventStore } from '../../../src/store/index.js';
import { tempDir } from '../../adapters/console/spawn.js';

const CH = 'test:release';
const alice: Caller = { userId: 'test:alice', displayName: 'Alice', isAdmin: false };
const bob: Caller = { userId: 'test:bob', displayName: 'Bob', isAdmin: false };
const dave: Caller = { userId: 'test:dave', displayName: 'Dave', isAdmin: false };
const carol: Caller = { userId: 'test:carol', displayName: 'Carol', isAdmin: false };
/** Debian's python3 (python3-pandas, python3-yaml) when present, else the one on PATH. */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
/** Whether that python3 has pandas and PyYAML: without them the load test is skipped, except under CI (.ci/run installs them). */
const HAS_PANDAS = spawnSync(PYTHON, ['-c', 'import pandas, yaml'], { encoding: 'utf8' }).status === 0;

const LOAD = `
import hashlib, json, sys, pandas as pd, yaml
d = sys.argv[1]
card = open(d + '/README.md', encoding='utf-8').read()
assert card.startswith('---\\n')
header = yaml.safe_load(card.split('---\\n')[1])
out = {'header': header, 'rows': {}}
for c in header['configs']:
    df = pd.read_json(d + '/' + c['data_files'], lines=True)
    out['rows'][c['config_name']] = {'n': len(df), 'columns': sorted(df.columns)}
for line in open(d + '/SHA256SUMS'):
    digest, name = line.split()
    assert hashlib.sha256(open(d + '/' + name, 'rb').read()).hexdigest() == digest, name
print(json.dumps(out))
`;

describe('dataset release', () => {
  const dir = tempDir();
  const db = join(dir, 'arena.db');
  let store: EventStore;

  before(async () => {
    store = await openSqliteStore(db);
    const host = new RoundHost({
      store,
      publish: async () => {},
      votes: { ballotSeconds: 0 },
      data: { includeSeeded: true, notice: dataNotice() },
    });
    const run = async (who: Caller, text: string) => {
      const r = await runText(host, CH, who, text);
      assert.equal(r.error, undefined, `${text}: ${JSON.stringify(r.error)}`);
    };
    for (const [who, text] of [
      [alice, 'new task:market_round seed:7 round_seconds:0 votes:on'],
      [alice, 'join lab:lab_0'],
      [bob, 'join lab:lab_1'],
      [dave, 'join lab:lab_2'],
      [alice, 'start'],
      [
        alice,
        'pitch text:"Write to ann.lee@example.org or see https://example.org/jobs: our training job needs a block"',
      ],
      [bob, 'pitch text:"Bob-secret-words: call +1 (555) 123-4567, our inference job is late"'],
      [dave, 'pitch text:"Ask <@123456789012345678> or @dave_ops: our eval job needs capacity now"'],
    ] as [Caller, string][])
      await run(who, text);
    for (const who of [alice, bob, dave]) await run(who, 'done');
    // Carol votes on alice's and dave's pitches (pair 2 of p0_lab_0, p0_lab_1, p0_lab_2).
    await run(carol, 'vote pair:2 choice:a');
    for (let i = 0; i < 10 && (await host.current(CH)); i++)
      for (const who of [alice, bob, dave]) await runText(host, CH, who, 'done');
    assert.equal(await host.current(CH), null);
    for (const who of [alice, dave, carol]) await run(who, 'privacy consent:on');
    await run(bob, 'privacy consent:off');
    await host.stop();
  });
  after(() => store.close());

  const release = (out: string, extra: string[] = []) => {
    const p = spawnSync(
      process.execPath,
      ['--import', import.meta.resolve('tsx'), 'src/cli/export.ts', '--db', db, '--dataset', out, ...extra],
      { encoding: 'utf8', env: { ...process.env, ARENA_INCLUDE_SEEDED: 'true', ARENA_CONFIG: '' } },
    );
    assert.equal(p.status, 0, p.stderr);
    return p.stderr;
  };

  test('pandas loads every file, the card header parses, the checksums verify', (t) => {
    if (!HAS_PANDAS && !process.env.CI)
      return t.skip('python3 without pandas and PyYAML (apt-get install python3-pandas python3-yaml)');
    const out = join(dir, 'release-1');
    const log = release(out);
    const said =
      /^Release \d{4}-\d\d-\d\d-[0-9a-f]{8} in .*: 1 people's votes, \d+ judge-labelled pairs, \d+ demonstrations from 1 match; replaced (\d+) e-mail addresses, (\d+) URLs, (\d+) mentions, (\d+) phone numbers\.$/m.exec(
        log,
      );
    assert.ok(said, log);
    assert.match(log, /Pseudonym key of this release \(not stored; .*\): [0-9a-f]{64}/);
    const py = spawnSync(PYTHON, ['-c', LOAD, out], { encoding: 'utf8' });
    assert.equal(py.status, 0, py.stderr);
    const loaded = JSON.parse(py.stdout) as {
      header: Record<string, unknown>;
      rows: Record<string, { n: number; columns: string[] }>;
    };
    assert.equal(loaded.header['license'], 'cc-by-4.0');
    assert.deepEqual(loaded.header['language'], ['en']);
    assert.deepEqual(loaded.header['size_categories'], ['n<1K']);
    assert.deepEqual(Object.keys(loaded.rows), ['human_preferences', 'judge_preferences', 'sft']);
    assert.equal(loaded.rows['human_preferences']!.n, 1);
    assert.ok(loaded.rows['human_preferences']!.columns.includes('voter'));
    assert.ok(loaded.rows['judge_preferences']!.n >= 1 && loaded.rows['sft']!.n >= 1);

    const card = readFileSync(join(out, 'README.md'), 'utf8');
    const all = ['human_preferences.jsonl', 'judge_preferences.jsonl', 'sft.jsonl']
      .map((f) => readFileSync(join(out, f), 'utf8'))
      .join('\n');
    // Each count is the number of replacements the files hold.
    const [email, url, mention, phone] = said.slice(1).map(Number);
    const inFiles = (tag: string) => all.split(tag).length - 1;
    assert.deepEqual(
      [email, url, mention, phone],
      [inFiles('[email]'), inFiles('[url]'), inFiles('[mention]'), inFiles('[phone]')],
    );
    assert.ok(
      email! > 0 && url! > 0 && mention! >= 2 && phone === 0,
      "bob's phone number is not in the release at all (he declined)",
    );
    assert.match(card, new RegExp(`\\| e-mail addresses → \\[email\\] \\| ${email} \\|`));
    assert.match(card, new RegExp(`\\| URLs → \\[url\\] \\| ${url} \\|`));
    assert.match(card, new RegExp(`\\| platform mentions → \\[mention\\] \\| ${mention} \\|`));
    assert.match(card, /Rules version 4 of the engine/);
    assert.match(card, /> This bot collects research data/);
    assert.match(card, /Matches: 1\. Voters: 1\./);
    assert.ok(!/ann\.lee@example\.org|https:\/\/example\.org|<@1234|@dave_ops/.test(all), 'scrubbed');
    assert.ok(all.includes('[email]') && all.includes('[url]') && all.includes('[mention]'));
    assert.ok(!all.includes('Bob-secret-words') && !all.includes('555'), 'bob declined: none of his words');
  });

  test('pseudonyms: stable within a release, unlinkable across releases unless the key is kept', () => {
    const voterOf = (out: string) =>
      (JSON.parse(readFileSync(join(out, 'human_preferences.jsonl'), 'utf8')) as { voter: string }).voter;
    const key = 'ab'.repeat(32);
    release(join(dir, 'r-a'), ['--pseudonym-key', key]);
    release(join(dir, 'r-b'), ['--pseudonym-key', key]);
    release(join(dir, 'r-c'));
    assert.equal(voterOf(join(dir, 'r-a')), voterOf(join(dir, 'r-b')), 'the kept key links releases');
    assert.notEqual(voterOf(join(dir, 'r-a')), voterOf(join(dir, 'r-c')), 'a fresh key does not');
    assert.match(voterOf(join(dir, 'r-c')), /^u_[0-9a-f]{16}$/);
  });

  test('a release goes into a new or empty directory only', () => {
    const p = spawnSync(
      process.execPath,
      ['--import', import.meta.resolve('tsx'), 'src/cli/export.ts', '--db', db, '--dataset', dir],
      { encoding: 'utf8' },
    );
    assert.equal(p.status, 1);
    assert.match(p.stderr, /is not empty/);
  });
});
