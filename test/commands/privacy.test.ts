/**
 * Consent and erasure through the command layer (docs/PREFERENCE-DATA.md#consent-and-erasure), on SQLite
 * and PostgreSQL: the data notice once after a person's first pitch or vote, `privacy consent:on|off`,
 * exports that carry only consenting people's words and votes, `privacy` showing what is stored, and
 * `privacy erase` replacing a person's words with a tombstone and deleting their votes, after which an
 * export no longer contains them and the match still replays to the same standings.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { grantedIds, withConsent } from '../../src/analytics/preference/consent.js';
import { pseudonymizer } from '../../src/analytics/preference/pseudonym.js';
import { loadMatchData, preferenceRows, sftRows } from '../../src/analytics/preference/index.js';
import type { Caller, Reply } from '../../src/chat/types.js';
import { runText } from '../../src/commands/index.js';
import { RoundHost } from '../../src/host/index.js';
import { dataNotice } from '../../src/match/data-policy.js';
import { TOMBSTONE } from '../../src/match/erase.js';
import { replay } from '../../src/match/replay.js';
import { openPostgresStore, openSqliteStore, type EventStore } from '../../src/store/index.js';
import { pgAdmin, withPostgres } from '../support/postgres.js';

const CH = 'test:privacy';
const alice: Caller = { userId: 'test:alice', displayName: 'Alice Zephyrine', isAdmin: false };
const bob: Caller = { userId: 'test:bob', displayName: 'Bob Quillfeather', isAdmin: false };
const carol: Caller = { userId: 'test:carol', displayName: 'Carol', isAdmin: false };
const dave: Caller = { userId: 'test:dave', displayName: 'Dave', isAdmin: false };
const ALICE_WORDS = 'Alice-unique-phrase: our training job needs one more block';
const BOB_WORDS = 'Bob-unique-phrase: our inference job misses its deadline';

const texts = (r: Reply) =>
  [...r.public, ...r.private]
    .map((p) => `${p.title ?? ''}\n${p.text}\n${(p.fields ?? []).map((f) => `${f.name}\n${f.value}`).join('\n')}`)
    .join('\n');
const noticeOf = (r: Reply, who: Caller) =>
  r.private.find((p) => p.userId === who.userId && /may we use your words and votes/.test(p.title ?? ''));

function suite(name: string, open: () => Promise<{ store: EventStore; close: () => Promise<void> }>): void {
  describe(`privacy: consent and erasure (${name})`, () => {
    let store: EventStore;
    let close: () => Promise<void>;
    let host: RoundHost;
    let matchId = '';
    const run = async (who: Caller, text: string) => runText(host, CH, who, text);
    /** Every export row (judge and people's labels, demonstrations) of the stored matches, as text. */
    const exported = async () => {
      const data = [];
      for (const rec of await store.listMatches()) data.push((await loadMatchData(store, rec.id))!);
      const sel = { includeIdentifying: true, includeSeeded: true };
      const pseudonymize = await pseudonymizer(store, null);
      const kept = withConsent(data, grantedIds(await store.listConsents()));
      const rows = [
        ...preferenceRows(kept, { format: 'jsonl', source: 'judge', pseudonymize, selection: sel }),
        ...preferenceRows(kept, { format: 'jsonl', source: 'human', pseudonymize, selection: sel }),
        ...sftRows(kept, { format: 'openai', pseudonymize, selection: sel }),
      ];
      return { rows, text: JSON.stringify(rows) };
    };

    before(async () => {
      ({ store, close } = await open());
      host = new RoundHost({
        store,
        publish: async () => {},
        votes: { ballotSeconds: 0 },
        data: { includeSeeded: true, notice: dataNotice() },
      });
      for (const [who, text] of [
        [alice, 'new task:market_round seed:7 round_seconds:0 votes:on'],
        [alice, 'join lab:lab_0'],
        [bob, 'join lab:lab_1'],
        [dave, 'join lab:lab_2'],
        [alice, 'start'],
      ] as const)
        assert.equal((await run(who, text)).error, undefined, text);
      matchId = (await host.current(CH))!.id;
    });
    after(async () => {
      await host.stop();
      await close();
    });

    test('the notice follows a first pitch once, with its two buttons; consent on and off are recorded', async () => {
      const first = await run(alice, `pitch text:"${ALICE_WORDS}"`);
      assert.equal(first.error, undefined);
      const notice = noticeOf(first, alice);
      assert.ok(notice, 'the notice follows the first pitch');
      assert.match(notice.text, /Licence: CC-BY-4\.0\. Until you agree, nothing of yours is exported/);
      assert.deepEqual(
        notice.buttons?.map((b) => [b.label, b.command]),
        [
          ['I agree', 'privacy consent:on'],
          ['I decline', 'privacy consent:off'],
        ],
      );
      assert.equal((await store.getConsent(alice.userId))?.state, 'asked');
      assert.equal(noticeOf(await run(alice, `pitch text:"${ALICE_WORDS} again"`), alice), undefined, 'shown once');
      assert.ok(noticeOf(await run(bob, `pitch text:"${BOB_WORDS}"`), bob));
      assert.match(texts(await run(alice, 'privacy consent:on')), /Consent given/);
      assert.match(texts(await run(bob, 'privacy consent:off')), /Consent declined/);
      assert.equal((await store.getConsent(alice.userId))?.state, 'granted');
      assert.equal((await store.getConsent(bob.userId))?.state, 'declined');
      await run(dave, 'pitch text:"Dave pitches for his own job"');
      await run(dave, 'privacy consent:on');
    });

    test('erasing while seated in a match in play is refused and changes nothing', async () => {
      const r = await run(alice, 'privacy erase:confirm');
      assert.equal(r.error?.code, 'match_in_play');
      assert.equal((await store.listErasures()).length, 0);
    });

    test("exports carry the consenting person's words and votes only", async () => {
      for (const who of [alice, bob, dave]) await run(who, 'done');
      // Carol, a spectator, votes on a pair of round 1's ballot and agrees; her vote is exported.
      const v = await run(carol, 'vote pair:2 choice:a');
      assert.equal(v.error, undefined, JSON.stringify(v.error));
      assert.ok(noticeOf(v, carol), 'the notice follows a first vote');
      await run(carol, 'privacy consent:on');
      for (let i = 0; i < 10 && (await host.current(CH)); i++)
        for (const who of [alice, bob, dave]) await run(who, 'done');
      assert.equal(await host.current(CH), null, 'the match is over');
      const { rows, text } = await exported();
      assert.ok(rows.length > 0);
      assert.ok(text.includes('Alice-unique-phrase'), 'alice agreed: her pitch is exported');
      assert.ok(!text.includes('Bob-unique-phrase'), 'bob declined: none of his words');
      assert.ok(!text.includes('Bob Quillfeather'));
      assert.ok(text.includes((await pseudonymizer(store, null))(carol.userId)), "carol's vote is a row");
    });

    test('privacy shows what is stored and the consent state', async () => {
      const r = await run(alice, 'privacy');
      assert.equal(r.public.length, 0, 'private');
      assert.match(texts(r), /Consent: you agreed/);
      assert.match(texts(r), new RegExp(`1 match you held a seat in \\(${matchId} over\\), with 2 texts of yours`));
      assert.match(texts(r), /Data notice \(licence CC-BY-4\.0\)/);
    });

    test('erase: a confirmation first, then the words tombstoned and the votes deleted; the export no longer holds them; the match replays', async () => {
      const before = replay(await store.load(matchId))!;
      const ask = await run(carol, 'privacy erase:ask');
      assert.match(texts(ask), /deletes your 1 vote/);
      assert.equal((await store.listVotes({ voterId: carol.userId })).length, 1, 'asking changes nothing');
      const done = await run(carol, 'privacy erase:confirm');
      assert.match(texts(done), /1 vote deleted/);
      assert.equal((await store.listVotes({ voterId: carol.userId })).length, 0);

      const askAlice = await run(alice, 'privacy erase:ask');
      assert.match(texts(askAlice), /replaces \d+ texts of yours/);
      // No match in the channel now, so no button to bind: the text names the command.
      assert.match(texts(askAlice), /Confirm with `privacy erase:confirm`/);
      const erased = await run(alice, 'privacy erase:confirm');
      assert.match(texts(erased), /texts replaced with "\[erased\]"/);
      const log = await store.load(matchId);
      const raw = JSON.stringify(log);
      const left = log
        .filter((e) => /Alice-unique-phrase|Alice Zephyrine/.test(JSON.stringify(e.body)))
        .map((e) => JSON.stringify(e.body).slice(0, 300));
      assert.deepEqual(left, [], 'no word of alice is stored');
      assert.ok(raw.includes('[erased text 1]') && raw.includes(TOMBSTONE));
      assert.ok(raw.includes('Bob-unique-phrase'), "bob's words are his own");
      const after = replay(log)!;
      assert.equal(after.phase, 'over');
      assert.deepEqual(
        Object.values(after.state!.seats).map((l) => l.cumulativeReward),
        Object.values(before.state!.seats).map((l) => l.cumulativeReward),
        'the same standings',
      );
      const { text } = await exported();
      assert.ok(!text.includes('Alice-unique-phrase'));
      assert.equal((await store.getConsent(alice.userId))?.state, 'declined', 'consent withdrawn');
      const logRows = await store.listErasures();
      assert.equal(logRows.length, 2);
      assert.ok(
        logRows.every((e) => /^u_[0-9a-f]{16}$/.test(e.subject)),
        'logged by pseudonym',
      );
      assert.ok(
        !JSON.stringify(logRows).includes('alice') && !JSON.stringify(logRows).includes('Alice'),
        'nothing of the content',
      );
      assert.deepEqual(
        logRows.map((e) => e.votes),
        [1, 0],
      );
    });
  });
}

suite('sqlite', async () => {
  const store = await openSqliteStore(join(mkdtempSync(join(tmpdir(), 'arena-privacy-')), 'arena.db'));
  return { store, close: () => store.close() };
});

withPostgres('privacy: consent and erasure (postgres)', (url) => {
  suite('postgres', async () => {
    const schema = `arena_privacy_${process.pid}_${randomBytes(3).toString('hex')}`;
    const store = await openPostgresStore({ connectionString: url, schema, maxConnections: 4 });
    return {
      store,
      close: async () => {
        await store.close();
        await pgAdmin(`drop schema if exists ${schema} cascade`);
      },
    };
  });
});
