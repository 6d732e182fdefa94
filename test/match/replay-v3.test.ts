/**
 * Stored matches of rules v3 keep replaying (docs/RULES.md §0): three hosted matches, one per task, were
 * played through the real host under RULES_VERSION 3 (a person on lab_0 offering, accepting, pitching,
 * allocating, proposing and committing to a coalition, bidding, messaging and saying done; scripted seats
 * on the others) and their event logs stored in test/match/fixtures/v3-<task>.json with the sha256 of the
 * replayed engine state and reward ledger. Today's code must replay each log to the same two hashes.
 *
 * The fixtures were written by `npx tsx test/match/fixtures/generate-v3.ts` (it runs only under rules v3).
 * Never regenerate them to make this test pass: a different hash means a v3 match no longer replays as
 * its players saw it, which is a bug (a new rule belongs to a new RULES_VERSION that leaves v3 as it was).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { actionTypeOf } from '../../src/match/replay.js';
import { readFixture, replayHashes, V3_MATCHES } from './v3-fixtures.js';

const WHY =
  'a stored rules-v3 match no longer replays to what its players saw; v3 must replay unchanged after any rule change (a new rule goes under a new RULES_VERSION, src/engine/index.ts), so this is a bug';

for (const { task, seed } of V3_MATCHES) {
  test(`the stored v3 ${task} match (seed ${seed}) replays to its recorded state and ledger`, () => {
    const f = readFixture(task);
    assert.equal(f.task, task);
    const started = f.events.find((e) => e.body.type === 'match_started');
    assert.equal(
      started?.body.type === 'match_started' ? started.body.rulesVersion : undefined,
      3,
      'the log was recorded under rules v3',
    );
    // What the log exercises (so the pin stands for more than an idle match).
    const personActions = new Set(
      f.events.flatMap((e) =>
        e.body.type === 'action' && e.body.lab === 'lab_0' ? [actionTypeOf(e.body.action)] : [],
      ),
    );
    for (const t of ['send_offer', 'make_pitch', 'send_message', 'wait'])
      assert.ok(personActions.has(t), `the person's ${t}`);
    assert.ok(
      f.events.some((e) => e.body.type === 'seat_done'),
      'the person said done',
    );

    const { match, stateSha256, ledgerSha256 } = replayHashes(f.events);
    assert.equal(match.phase, 'over', 'the log plays to the end');
    assert.ok((match.ledger?.entries.length ?? 0) > 0, 'the ledger has entries');
    assert.equal(stateSha256, f.stateSha256, `${task}: replayed engine state changed: ${WHY}`);
    assert.equal(ledgerSha256, f.ledgerSha256, `${task}: replayed reward ledger changed: ${WHY}`);
  });
}

test('together the stored matches cover what a person does: offers, accepts, pitches, allocation, coalitions, bids, messages', () => {
  const types = new Set(
    V3_MATCHES.flatMap(({ task }) =>
      readFixture(task).events.flatMap((e) =>
        e.body.type === 'action' && e.body.lab === 'lab_0' ? [actionTypeOf(e.body.action)] : [],
      ),
    ),
  );
  for (const t of [
    'send_offer',
    'accept_offer',
    'make_pitch',
    'allocate_to_job',
    'form_coalition',
    'commit_to_coalition',
    'bid',
    'send_message',
    'release_capacity',
  ])
    assert.ok(types.has(t), t);
});
