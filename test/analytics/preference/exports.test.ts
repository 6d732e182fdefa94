/**
 * Every export format from a recorded match (RoundHost, two people + a scripted seat, ballots and votes),
 * through the real CLI: parsed back, validated with the format's schema, and scanned for platform user
 * ids, display names and other seats' private values.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { MatchState } from '../../../src/engine/types.js';
import { foldMatch } from '../../../src/analytics/preference/dataset.js';
import {
  JsonlPreferenceRowSchema,
  OpenAiDpoRowSchema,
  OpenAiSftRowSchema,
  TrlPreferenceRowSchema,
  TrlSftRowSchema,
} from '../../../src/analytics/preference/formats.js';
import { preferenceRows } from '../../../src/analytics/preference/export-votes.js';
import { sftRows } from '../../../src/analytics/preference/export-sft.js';
import { pseudonym } from '../../../src/analytics/preference/pseudonym.js';
import { runScripted } from '../../../src/engine/index.js';
import { scriptedTurns } from '../../../src/analytics/preference/scripted-turn.js';
import { replay } from '../../../src/host/index.js';
import type { StoredEvent } from '../../../src/events/schema.js';
import type { VoteRecord } from '../../../src/store/types.js';
import { spawnScript, tempDir } from '../../adapters/console/spawn.js';
import { ALICE, BOB, CAROL, DAVE, ERIN, recordMatch, storeWith, vote } from './fixture.js';
import { assertNoLeak, secretJobIds } from './privacy-scan.js';

let matchId = '';
let events: StoredEvent[] = [];
let votes: VoteRecord[] = [];
let db = '';
let dir = '';

const outputs = new Map<string, Promise<string>>();
/** The CLI's stdout for `args` (each distinct command is spawned once). */
function run(args: string[]): Promise<string> {
  const key = args.join(' ');
  let p = outputs.get(key);
  if (!p) outputs.set(key, (p = spawnExport(args)));
  return p;
}

async function spawnExport(args: string[]): Promise<string> {
  const p = spawnScript('src/cli/export.ts', ['--db', db, ...args]);
  const { code } = await p.exited;
  assert.equal(code, 0, `export ${args.join(' ')} exits 0: ${p.err()}`);
  return p.out();
}

const lines = (text: string): unknown[] =>
  text
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as unknown);

/** Every state of the match (after each event), for the scanner's job-id sets. */
function states(): MatchState[] {
  const out: MatchState[] = [];
  for (let i = 1; i <= events.length; i++) {
    const m = replay(
      events
        .slice(0, i)
        .filter((e) => e.body.type !== 'ballot_opened' && e.body.type !== 'ballot_closed')
        .map((e, k) => ({ ...e, seq: k + 1 })),
    );
    if (m?.state) out.push(m.state);
  }
  return out;
}

const FORBIDDEN = [
  ALICE.userId,
  BOB.userId,
  CAROL,
  DAVE,
  ERIN,
  '700000000000000001',
  'U0BOBPRIV1',
  'U0DAVEPRIV4',
  ALICE.displayName,
  BOB.displayName,
  'Quartermain',
  'Vantablack',
  'private working',
];

describe('preference exports', () => {
  before(async () => {
    ({ matchId, events } = await recordMatch());
    votes = [
      vote(matchId, 0, 'lab_0', 'lab_1', 'a', 'a', CAROL, false),
      vote(matchId, 0, 'lab_0', 'lab_1', 'tie', 'b', DAVE, false),
      vote(matchId, 0, 'lab_1', 'lab_2', 'b', 'a', ALICE.userId, true, 3),
      vote(matchId, 1, 'lab_0', 'lab_1', 'both_bad', 'a', ERIN, false),
      vote(matchId, 2, 'lab_0', 'lab_2', 'a', 'b', BOB.userId, true, 2),
    ];
    dir = tempDir();
    db = join(dir, 'arena.db');
    const store = await storeWith(matchId, events, votes, db);
    await store.close();
  });

  test('the scripted turn replays runScripted exactly (the state after it is the same)', () => {
    const data = foldMatch(events);
    assert.ok(data && data.rounds.length === 5);
    for (const r of data.rounds)
      assert.deepEqual(scriptedTurns(r.openState).after, runScripted(r.openState), `round ${r.round}`);
  });

  test('votes jsonl (people): one row per vote, all fields, pseudonyms, judge scores and the claim check', async () => {
    const rows = lines(await run(['--votes', '--format', 'jsonl', '--source', 'human'])).map((r) =>
      JsonlPreferenceRowSchema.parse(r),
    );
    assert.equal(rows.length, votes.length, 'ties and both-bad included');
    const first = rows.find((r) => r.round === 0 && r.pair === 1 && r.source === 'human' && r.choice === 'a');
    assert.ok(first && first.source === 'human');
    assert.equal(first.pitch_a.id, 'p0_lab_0');
    assert.equal(first.pitch_a.author, 'person');
    assert.match(first.pitch_a.author_id ?? '', /^u_[0-9a-f]{16}$/);
    assert.equal(first.shown_first, 'a');
    assert.equal(first.voter_role, 'spectator');
    assert.equal(first.judge?.score_a, 0.8, 'the fixture judge scored lab_0 0.8 in round 0');
    assert.equal(first.judge?.model, 'model-x');
    assert.equal(first.judge?.order, 'a');
    assert.equal(first.rule_judge?.judge_id, 'rule_judge_v2');
    assert.match(first.rule_judge?.claims_a?.reason ?? '', /verified claim/);
    const scripted = rows.find((r) => r.pitch_b.lab === 'lab_2');
    assert.equal(scripted?.pitch_b.author, 'scripted:rule_based_expert');
    assert.equal(scripted?.pitch_b.author_id, null);
    const seated = rows.filter((r) => r.source === 'human' && r.voter_role === 'seated');
    assert.equal(seated.length, 2);
    // Pseudonyms are stable and differ per person.
    const voters = new Set(rows.map((r) => (r.source === 'human' ? r.voter : '')));
    assert.equal(voters.size, 5);
  });

  test('votes trl / openai-dpo (people): decisive votes only, chosen = the voted pitch, public prompt', async () => {
    const trl = lines(await run(['--votes', '--format', 'trl', '--source', 'human'])).map((r) =>
      TrlPreferenceRowSchema.parse(r),
    );
    const dpo = lines(await run(['--votes', '--format', 'openai-dpo', '--source', 'human'])).map((r) =>
      OpenAiDpoRowSchema.parse(r),
    );
    assert.equal(trl.length, 3, 'three votes are a or b');
    assert.equal(dpo.length, 3);
    const data = foldMatch(events)!;
    const text = (round: number, lab: string) => data.rounds[round]!.pitches.find((p) => p.lab === lab)!.text;
    // Carol chose a (lab_0) over lab_1 in round 0; Alice chose b (lab_2) over lab_1; Bob a (lab_0) over lab_2 in round 2.
    const pairs = trl.map((r) => [r.chosen[0].content, r.rejected[0].content]);
    assert.deepEqual(
      pairs.sort(),
      [
        [text(0, 'lab_0'), text(0, 'lab_1')],
        [text(0, 'lab_2'), text(0, 'lab_1')],
        [text(2, 'lab_0'), text(2, 'lab_2')],
      ].sort(),
    );
    assert.ok(trl.every((r) => r.source === 'human'));
    assert.match(trl[0]!.prompt[0].content, /Argue for priority/);
    assert.match(trl[0]!.prompt[0].content, /Round 0 of 5/);
    assert.deepEqual(
      dpo.map((r) => [r.input.messages, r.preferred_output, r.non_preferred_output]),
      trl.map((r) => [r.prompt, r.chosen, r.rejected]),
    );
  });

  test('--source judge: every judged pair labelled by the judge, ties kept in jsonl only', async () => {
    const jl = lines(await run(['--votes', '--format', 'jsonl', '--source', 'judge'])).map((r) =>
      JsonlPreferenceRowSchema.parse(r),
    );
    assert.equal(jl.length, 15, '5 rounds × 3 pairs');
    assert.ok(jl.every((r) => r.source === 'judge'));
    // The fixture judge tied lab_0 and lab_1 in round 2 (0.6 each): one tie, written to jsonl, not to trl.
    assert.deepEqual(
      jl.filter((r) => r.choice === 'tie').map((r) => `${r.pitch_a.id}/${r.pitch_b.id}`),
      ['p2_lab_0/p2_lab_1'],
    );
    const trl = lines(await run(['--votes', '--format', 'trl', '--source', 'judge'])).map((r) =>
      TrlPreferenceRowSchema.parse(r),
    );
    assert.equal(trl.length, 14);
    assert.ok(trl.every((r) => r.source === 'judge'));
    const dpo = lines(await run(['--votes', '--format', 'openai-dpo', '--source', 'judge'])).map((r) =>
      OpenAiDpoRowSchema.parse(r),
    );
    assert.equal(dpo.length, 14);
  });

  test('--sft: one row per seat and round with accepted actions; --author filters', async () => {
    const trl = lines(await run(['--sft', '--format', 'trl'])).map((r) => TrlSftRowSchema.parse(r));
    const authors = new Set(trl.map((r) => r.author));
    assert.deepEqual([...authors].sort(), ['person', 'scripted:rule_based_expert']);
    const people = lines(await run(['--sft', '--format', 'openai', '--author', 'person'])).map((r) =>
      OpenAiSftRowSchema.parse(r),
    );
    assert.equal(people.length, trl.filter((r) => r.author === 'person').length);
    assert.equal(people.length, 10, 'two people × five rounds (each pitched every round)');
    const actions = JSON.parse(people[0]!.messages[2].content) as { action_type: string }[];
    assert.equal(actions[0]!.action_type, 'make_pitch');
    const data = foldMatch(events, votes)!;
    const scripted = sftRows([data], {
      format: 'openai',
      author: 'scripted',
      pseudonymize: (u) => pseudonym(u, 'k'),
    }).map((r) => OpenAiSftRowSchema.parse(r));
    assert.ok(scripted.length >= 1);
    assert.match(scripted[0]!.messages[0].content, /\(lab_2\)/);
  });

  test('no platform user id, display name or other seat private value in any export', async () => {
    const all = states();
    const runs: [string[], string | null][] = [];
    for (const f of ['trl', 'openai-dpo', 'jsonl'])
      for (const s of ['human', 'judge']) runs.push([['--votes', '--format', f, '--source', s], null]);
    runs.push([['--sft', '--format', 'trl'], 'sft'], [['--sft', '--format', 'openai', '--author', 'person'], 'sft']);
    let scanned = 0;
    for (const [args, kind] of runs) {
      for (const [i, row] of lines(await run(args)).entries()) {
        let own: string | null = null;
        if (kind === 'sft') {
          const m = /\((lab_\d)\) in GPU Arena/.exec(JSON.stringify(row));
          assert.ok(m, 'an SFT row names its seat');
          own = m[1]!;
        }
        assertNoLeak(
          row,
          { strings: FORBIDDEN, secretJobs: secretJobIds(all, own), ownLab: own },
          `${args.join(' ')} row ${i}`,
        );
        scanned++;
      }
    }
    assert.ok(scanned > 40, `scanned ${scanned} rows`);
  });

  test('the scanner catches a leak: another seat in an SFT row, a private key in a prompt, a user id', () => {
    const data = foldMatch(events, votes)!;
    const all = states();
    const sft = sftRows([data], { format: 'trl', pseudonymize: (u) => pseudonym(u, 'k') })[0] as {
      messages: { content: string }[];
    };
    const lab0 = /\((lab_\d)\)/.exec(sft.messages[0]!.content)![1]!;
    const other = lab0 === 'lab_0' ? 'lab_1' : 'lab_0';
    // The other seat's observation pasted into this seat's row: its jobs and budget are not this author's.
    const bad = structuredClone(sft);
    bad.messages[1]!.content = bad.messages[1]!.content.replace(/"id":"lab_\d"/, `"id":"${other}"`).replace(
      /\(JSON\): \{/,
      '(JSON): {"leak":{"budget":1},',
    );
    assert.throws(
      () => assertNoLeak(bad, { strings: FORBIDDEN, secretJobs: secretJobIds(all, lab0), ownLab: lab0 }, 'bad'),
      /private key/,
    );
    assert.throws(
      () => preferenceRows([data], { format: 'jsonl', source: 'human', pseudonymize: (u) => u }),
      /u_\[0-9a-f\]/,
      'a raw user id is not a pseudonym: the row fails its schema',
    );
    assert.throws(
      () => assertNoLeak({ voter: ALICE.userId }, { strings: FORBIDDEN, secretJobs: new Set(), ownLab: null }, 'id'),
      /contains/,
    );
    const prompt = (
      preferenceRows([data], { format: 'trl', source: 'judge', pseudonymize: (u) => pseudonym(u, 'k') })[0] as {
        prompt: { content: string }[];
      }
    ).prompt[0]!.content;
    assert.throws(
      () =>
        assertNoLeak(
          { prompt: [{ content: prompt.replace('(JSON): {', '(JSON): {"seed":7,') }] },
          { strings: [], secretJobs: new Set(), ownLab: null },
          'seed',
        ),
      /private key/,
    );
  });

  test('the transcript and event-log exports still work', async () => {
    const md = await run(['--match', matchId, '--format', 'transcript']);
    assert.match(md, /#/);
    const out = join(dir, 'log.jsonl');
    await run(['--match', matchId, '--format', 'jsonl', '--out', out]);
    assert.equal(readFileSync(out, 'utf8').trim().split('\n').length, events.length);
  });
});
