/**
 * Every export, round trip: two matches played through the real host with votes on (a coalition_market of
 * two people and scripted seats, then a market_round), several voters voting on every pair they may
 * (pairs without lab_0 included), one pitch that discloses its author; then each export written by its
 * command line (`npm run export`, `npm run leaderboard`) and every row checked against the stored events
 * and vote rows: who the pair was, who won by the judge, who voted, which round, which text.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runText } from '../../../src/commands/index.js';
import type { Caller } from '../../../src/chat/types.js';
import type { StoredEvent } from '../../../src/events/schema.js';
import { FakeClock } from '../../../src/host/index.js';
import { replay } from '../../../src/match/replay.js';
import { openStore, type EventStore, type VoteRecord } from '../../../src/store/index.js';
import { eligiblePairs } from '../../../src/voting/ballots/index.js';
import { pseudonymizer } from '../../../src/analytics/preference/pseudonym.js';
import { harness, type Harness } from '../../host/helpers.js';
import { spawnScript, tempDir } from '../../adapters/console/spawn.js';
import { grantAll } from './fixture.js';
import { dataNotice } from '../../../src/match/data-policy.js';

/** The matches here use fixed seeds for fixed worlds: practice, which this deployment counts (config data.includeSeeded). */
const SEEDED_ENV = { ARENA_INCLUDE_SEEDED: 'true' };

const CH = 'roundtrip';
const alice: Caller = { userId: 'test:alice', displayName: 'Alice', isAdmin: false };
const bob: Caller = { userId: 'test:bob', displayName: 'Bob', isAdmin: false };
const voters: Caller[] = ['carol', 'dave', 'erin'].map((n) => ({
  userId: `test:${n}`,
  displayName: n,
  isAdmin: false,
}));
const CHOICES = ['a', 'b', 'tie', 'both_bad', 'b', 'a', 'a'] as const;

type Json = Record<string, unknown>;
interface StoredBallot {
  matchId: string;
  round: number;
  pitches: Map<string, { lab: string; text: string }>;
  pairs: [string, string][];
}
interface Judge {
  winner: string | null;
  scores: { lab: string; score: number }[];
}

describe('exports round trip: every format against the stored events', () => {
  let h: Harness;
  let store: EventStore;
  let db = '';
  const ids: string[] = [];
  const events = new Map<string, StoredEvent[]>();
  const ballots = new Map<string, StoredBallot>();
  const judges = new Map<string, Judge>();
  let votes: VoteRecord[] = [];
  let pseudo: (id: string) => string;

  const run = async (who: Caller, text: string) => {
    const r = await runText(h.host, CH, who, text);
    assert.equal(r.error, undefined, `${who.displayName}: ${text}: ${JSON.stringify(r.error)}`);
    return r;
  };

  /** Every voter votes on every pair of the open ballot it may judge, with choices cycling through all four. */
  async function voteOnOpenBallot(): Promise<void> {
    const m = (await h.host.current(CH)) ?? replay(await store.load(ids.at(-1)!))!;
    const b = m.ballots.find((x) => x.closed === null);
    if (!b) return;
    let k = 0;
    for (const who of [...voters, alice, bob]) {
      const lab = Object.entries(m.drivers).find(([, d]) => d.kind === 'human' && d.userId === who.userId)?.[0] ?? null;
      for (const pair of eligiblePairs(b, lab))
        await run(who, `vote ballot:${b.id} pair:${pair} choice:${CHOICES[k++ % CHOICES.length]}`);
    }
  }

  async function play(
    task: string,
    seed: number,
    people: Caller[],
    pitch: (who: Caller, round: number, job: string | null) => string,
  ): Promise<void> {
    await run(people[0]!, `new task:${task} seed:${seed} round_seconds:0 votes:on`);
    for (const [i, who] of people.entries()) await run(who, `join lab:lab_${i}`);
    await run(people[0]!, 'start');
    ids.push((await h.host.current(CH))!.id);
    for (let round = 0; (await h.host.current(CH))?.phase === 'running'; round++) {
      const m = (await h.host.current(CH))!;
      for (const [i, who] of people.entries()) {
        const lab = `lab_${i}`;
        if (m.state!.labs[lab]!.finished) continue;
        const job = Object.values(m.state!.jobs).find((j) => j.owner === lab && j.outcome === 'pending')?.id ?? null;
        await run(who, `pitch text:"${pitch(who, round, job)}"${job ? ` job:${job}` : ''}`);
      }
      for (const who of people) if ((await h.host.current(CH))?.phase === 'running') await run(who, 'done');
      await voteOnOpenBallot();
    }
  }

  before(async () => {
    db = join(tempDir(), 'arena.db');
    store = await openStore({ sqlitePath: db });
    h = await harness({
      store,
      clock: new FakeClock(),
      votes: { ballotSeconds: 600, perMinute: 100_000 },
      data: { includeSeeded: true, notice: dataNotice() },
    });
    await play('coalition_market', 7, [alice, bob], (who, round, job) =>
      who === bob && round === 1
        ? "I'm a human, unlike the bots here: we need capacity."
        : `We at ${who === alice ? 'Lab A' : 'Lab B'} (${who.displayName}) need ${job ?? 'capacity'} covered in round ${round + 1}.`,
    );
    await h.clock.advance(601_000);
    await h.host.idle();
    await play(
      'market_round',
      3,
      [alice],
      (_who, round, job) => `Our job ${job ?? 'list'} needs capacity before round ${round + 3}.`,
    );
    await h.clock.advance(601_000);
    await h.host.idle();
    for (const id of ids) {
      const log = await store.load(id);
      events.set(id, log);
      for (const e of log) {
        if (e.body.type === 'ballot_opened')
          ballots.set(`${id}|${e.body.ballotId}`, {
            matchId: id,
            round: e.body.round,
            pitches: new Map(e.body.pitches.map((p) => [p.id, { lab: p.lab, text: p.text }])),
            pairs: e.body.pairs,
          });
        if (e.body.type === 'round_closed' && e.body.judge) judges.set(`${id}|${e.body.round}`, e.body.judge as Judge);
      }
    }
    votes = await store.listVotes();
    // Everyone here agreed to the data notice (exports carry people's words and votes only then: consent.ts).
    await grantAll(store, [...events.values()].flat(), votes);
    pseudo = await pseudonymizer(store, null);
  });
  after(async () => {
    await h.host.stop();
    await store.close();
  });

  let outputs = 0;
  /** Run `npm run export` with `args` into a file (a child's stdout may still be in the pipe when it exits) and read its JSON lines. */
  const exportLines = async (args: string[]): Promise<Json[]> => {
    const out = join(dirname(db), `export-${outputs++}.jsonl`);
    const p = spawnScript('src/cli/export.ts', ['--db', db, '--out', out, ...args], SEEDED_ENV);
    assert.equal((await p.exited).code, 0, p.err());
    const text = readFileSync(out, 'utf8').trim();
    return text ? text.split('\n').map((l) => JSON.parse(l) as Json) : [];
  };
  /** The judge's order of two labs in a round (a, b, tie) from the stored round_closed event. */
  const judgeOrder = (matchId: string, round: number, labA: string, labB: string) => {
    const j = judges.get(`${matchId}|${round}`);
    const a = j?.scores.find((s) => s.lab === labA)?.score;
    const b = j?.scores.find((s) => s.lab === labB)?.score;
    if (a === undefined || b === undefined) return null;
    return a > b ? 'a' : a < b ? 'b' : 'tie';
  };
  /** Votes as exports take them: anonymous ones (or all), in the order of the matches and the store. */
  const exported = (all = false) =>
    ids.flatMap((id) => votes.filter((v) => v.matchId === id && (all || v.anonymous === true)));

  test('the play produced what the checks need', () => {
    assert.equal(ids.length, 2);
    const third = votes.filter((v) => !v.pitchA.endsWith('_lab_0') && !v.pitchB.endsWith('_lab_0'));
    assert.ok(third.length >= 10, `votes on pairs without lab_0: ${third.length}`);
    assert.ok(new Set(votes.map((v) => v.voterId)).size >= 4, 'several voters');
    assert.ok(
      votes.some((v) => v.anonymous === false),
      'some vote on a pair that still named its author',
    );
    assert.ok(votes.every((v) => v.anonymous !== null));
    assert.deepEqual(new Set(votes.map((v) => v.choice)), new Set(['a', 'b', 'tie', 'both_bad']));
  });

  test('votes as jsonl: one row per anonymous vote, each matching its vote row, ballot and judge', async () => {
    const rows = await exportLines(['--votes', '--format', 'jsonl']);
    const want = exported();
    assert.equal(rows.length, want.length);
    let thirdParty = 0;
    rows.forEach((r, i) => {
      const v = want[i]!;
      const b = ballots.get(`${v.matchId}|${v.ballotId}`)!;
      const [pa, pb] = b.pairs[v.pair - 1]!;
      const A = r['pitch_a'] as Json;
      const B = r['pitch_b'] as Json;
      assert.deepEqual(
        [
          r['match_id'],
          r['round'],
          r['ballot_id'],
          r['pair'],
          A['id'],
          B['id'],
          r['choice'],
          r['voter'],
          r['voter_role'],
          r['anonymous'],
          r['created_at'],
        ],
        [
          v.matchId,
          b.round,
          v.ballotId,
          v.pair,
          pa,
          pb,
          v.choice,
          pseudo(v.voterId),
          v.seated ? 'seated' : 'spectator',
          true,
          v.createdAt,
        ],
        `row ${i}`,
      );
      assert.equal(r['shown_first'], v.shownFirst === pa ? 'a' : 'b');
      assert.deepEqual(
        [A['lab'], A['text'], B['lab'], B['text']],
        [b.pitches.get(pa)!.lab, b.pitches.get(pa)!.text, b.pitches.get(pb)!.lab, b.pitches.get(pb)!.text],
      );
      const j = r['judge'] as Json;
      const order = judgeOrder(v.matchId, b.round, b.pitches.get(pa)!.lab, b.pitches.get(pb)!.lab);
      assert.equal(j['order'], order);
      // The pair's winner is one of its two labs (or none on equal scores), whoever won the round.
      assert.equal(
        j['winner'],
        order === 'a' ? A['lab'] : order === 'b' ? B['lab'] : null,
        `row ${i}: winner of ${A['lab']} vs ${B['lab']}`,
      );
      assert.equal(j['round_winner'], judges.get(`${v.matchId}|${b.round}`)!.winner);
      if (A['lab'] !== 'lab_0' && B['lab'] !== 'lab_0') thirdParty += 1;
      assert.doesNotMatch(
        String(A['shown_text']) + String(B['shown_text']),
        /Lab [A-E]|Alice|Bob|\bj_\d/,
        'the shown texts name nobody',
      );
    });
    assert.ok(thirdParty >= 10, `rows of pairs without lab_0: ${thirdParty}`);
  });

  test('--include-identifying adds exactly the votes whose pair still identified an author', async () => {
    const rows = await exportLines(['--votes', '--format', 'jsonl', '--include-identifying']);
    assert.equal(rows.length, exported(true).length);
    assert.deepEqual(
      rows.filter((r) => r['anonymous'] === false).map((r) => `${r['ballot_id']}|${r['pair']}|${r['voter']}`),
      votes.filter((v) => v.anonymous === false).map((v) => `${v.ballotId}|${v.pair}|${pseudo(v.voterId)}`),
    );
  });

  test('trl and openai-dpo: one row per decisive anonymous vote, chosen = the pitch voted for, prompt = its round', async () => {
    const want = exported().filter((v) => v.choice === 'a' || v.choice === 'b');
    const texts = (v: VoteRecord) => {
      const b = ballots.get(`${v.matchId}|${v.ballotId}`)!;
      const [pa, pb] = b.pairs[v.pair - 1]!;
      const [win, lose] = v.choice === 'a' ? [pa, pb] : [pb, pa];
      return { round: b.round, chosen: b.pitches.get(win)!.text, rejected: b.pitches.get(lose)!.text };
    };
    const trl = await exportLines(['--votes', '--format', 'trl']);
    const dpo = await exportLines(['--votes', '--format', 'openai-dpo']);
    assert.equal(trl.length, want.length);
    assert.equal(dpo.length, want.length);
    want.forEach((v, i) => {
      const t = texts(v);
      const row = trl[i]!;
      assert.equal((row['chosen'] as Json[])[0]!['content'], t.chosen, `trl row ${i}`);
      assert.equal((row['rejected'] as Json[])[0]!['content'], t.rejected);
      assert.match(String((row['prompt'] as Json[])[0]!['content']), new RegExp(`Round ${t.round} of`));
      assert.equal(row['source'], 'human');
      const d = dpo[i]!;
      assert.equal((d['preferred_output'] as Json[])[0]!['content'], t.chosen, `dpo row ${i}`);
      assert.equal((d['non_preferred_output'] as Json[])[0]!['content'], t.rejected);
      assert.deepEqual((d['input'] as Json)['messages'], row['prompt']);
    });
  });

  test("judge labels: every pair of every judged round, ordered by the stored judge's scores", async () => {
    const rows = await exportLines(['--votes', '--format', 'jsonl', '--source', 'judge']);
    assert.ok(rows.length > 0);
    for (const r of rows) {
      const A = r['pitch_a'] as Json;
      const B = r['pitch_b'] as Json;
      const order = judgeOrder(String(r['match_id']), Number(r['round']), String(A['lab']), String(B['lab']));
      assert.equal(r['choice'], order);
      assert.equal((r['judge'] as Json)['winner'], order === 'a' ? A['lab'] : order === 'b' ? B['lab'] : null);
      const b = ballots.get(`${r['match_id']}|${r['ballot_id']}`);
      if (b) assert.deepEqual(b.pairs[Number(r['pair']) - 1], [A['id'], B['id']]);
    }
  });

  test("demonstrations (sft trl and openai): a person's row holds exactly that seat's actions of that round", async () => {
    const trl = await exportLines(['--sft', '--format', 'trl']);
    const openai = await exportLines(['--sft', '--format', 'openai']);
    assert.equal(trl.length, openai.length);
    assert.deepEqual(
      openai.map((r) => r['messages']),
      trl.map((r) => r['messages']),
    );
    // The stored actions of each person, per match, lab and round (between round closes).
    const acts = new Map<string, unknown[]>();
    for (const id of ids) {
      let round = 0;
      for (const e of events.get(id)!) {
        if (e.body.type === 'round_closed') round = e.body.round + 1;
        if (e.body.type === 'action')
          acts.set(`${e.body.lab}|${round}`, [...(acts.get(`${e.body.lab}|${round}`) ?? []), e.body.action]);
      }
    }
    const people = trl.filter((r) => r['author'] === 'person');
    assert.ok(people.length >= 10);
    const seen = new Map<string, number>();
    for (const r of people) {
      const [system, user, assistant] = r['messages'] as Json[];
      const lab = /\((lab_\d)\)/.exec(String(system!['content']))![1]!;
      const round = Number(/Round (\d+) of/.exec(String(user!['content']))![1]);
      const key = `${lab}|${round}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      assert.equal(r['author_id'], pseudo(lab === 'lab_0' ? alice.userId : bob.userId));
      // Two matches: the same (lab, round) may come twice; each row must be one of the stored turns.
      const stored = [...events.keys()].map((id) => {
        let rnd = 0;
        const out: unknown[] = [];
        for (const e of events.get(id)!) {
          if (e.body.type === 'round_closed') rnd = e.body.round + 1;
          if (e.body.type === 'action' && e.body.lab === lab && rnd === round) out.push(e.body.action);
        }
        return JSON.stringify(out);
      });
      assert.ok(
        stored.includes(String(assistant!['content'])),
        `${key}: the row's actions are that seat's stored actions of the round`,
      );
    }
    assert.ok([...seen.values()].every((n) => n <= 2));
    assert.ok(acts.size > 0);
  });

  test('the event log (jsonl) is the stored log; the ledger sums to each seat’s final reward and cites stored events', async () => {
    for (const id of ids) {
      const log = await exportLines(['--match', id, '--format', 'jsonl']);
      assert.deepEqual(log, JSON.parse(JSON.stringify(events.get(id))));
      const ledger = await exportLines(['--match', id, '--format', 'ledger']);
      const m = replay(events.get(id)!)!;
      const seqs = new Set(events.get(id)!.map((e) => e.seq));
      for (const lab of m.state!.labIds) {
        const sum = ledger.filter((r) => r['seat'] === lab).reduce((a, r) => a + Number(r['amount']), 0);
        assert.ok(
          Math.abs(sum - m.state!.seats[lab]!.cumulativeReward) < 1e-6,
          `${id} ${lab}: ledger ${sum} = reward ${m.state!.seats[lab]!.cumulativeReward}`,
        );
      }
      for (const r of ledger) {
        assert.equal(r['matchId'], id);
        assert.ok(seqs.has(Number(r['seq'])), `ledger row cites event ${r['seq']}`);
      }
    }
  });

  test('ratings json and csv: the players and match counts of the stored matches, in one order', async () => {
    const jsonFile = join(dirname(db), 'ratings.json');
    const p = spawnScript('src/cli/leaderboard.ts', ['--db', db, '--format', 'json', '--out', jsonFile], SEEDED_ENV);
    assert.equal((await p.exited).code, 0, p.err());
    const t = JSON.parse(readFileSync(jsonFile, 'utf8')) as {
      matches: number;
      rows: { player: string; kind: string; matches: number; rank: number }[];
      people: { matches: number; persons: number } | null;
    };
    // Who played what, from the stored match_started events.
    const count = new Map<string, number>();
    for (const id of ids) {
      const started = events.get(id)!.find((e) => e.body.type === 'match_started')!.body as {
        drivers: Record<string, { kind: string; userId?: string; policy?: string; model?: string }>;
      };
      for (const name of new Set(
        Object.values(started.drivers).map((d) => (d.kind === 'human' ? pseudo(d.userId!) : (d.policy ?? d.model)!)),
      ))
        count.set(name, (count.get(name) ?? 0) + 1);
    }
    assert.equal(t.matches, 2);
    assert.deepEqual(new Map(t.rows.map((r) => [r.player, r.matches])), count);
    assert.deepEqual(t.people && [t.people.matches, t.people.persons], [2, 2]);
    const csvFile = join(dirname(db), 'ratings.csv');
    const c = spawnScript('src/cli/leaderboard.ts', ['--db', db, '--format', 'csv', '--out', csvFile], SEEDED_ENV);
    assert.equal((await c.exited).code, 0, c.err());
    const lines = readFileSync(csvFile, 'utf8').trim().split('\n').slice(1);
    assert.deepEqual(
      lines.slice(0, t.rows.length).map((l) => l.split(',')[1]),
      t.rows.map((r) => r.player),
      'the csv lists the json rows in the same order',
    );
    assert.match(lines.at(-1)!, /^,people \(all persons\),people,/);
  });
});
