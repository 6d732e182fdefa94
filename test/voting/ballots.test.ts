/** Pure ballot logic: which pitches a ballot holds, its pairs, per-voter order, eligibility, choices. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  allPairs,
  ballotPitches,
  buildBallot,
  canonicalChoice,
  checkPair,
  eligiblePairs,
  nextPair,
  shownChoice,
  shownPair,
  swappedFor,
  type Ballot,
  type BallotPitch,
  type VoteChoice,
} from '../../src/voting/ballots/index.js';
import { applyAction, createMatch } from '../../src/engine/index.js';
import type { MatchState } from '../../src/engine/types.js';

const pitch = (lab: string, round = 2): BallotPitch => ({
  id: `p${round}_${lab}`,
  lab,
  kind: 'pitch',
  text: `text of ${lab}`,
  jobIds: [],
  replyTo: null,
});

function ballotOf(labs: string[], extra: Partial<Ballot> = {}): Ballot {
  const pitches = labs.map((l) => pitch(l));
  const blind = Object.fromEntries(pitches.map((p) => [p.id, { text: p.text, leaks: [] }]));
  return {
    id: 'v_3',
    round: 2,
    pitches,
    pairs: allPairs(pitches),
    openedAt: 0,
    closesAt: null,
    closed: null,
    judge: null,
    blind,
    ...extra,
  };
}

/** A market_round state with a pitch by each of `labs` (on their first job) in round 0. */
function pitched(labs: string[], finish: string[] = []): MatchState {
  let s = createMatch({ task: 'coalition_market', seed: 5 });
  for (const lab of labs) {
    const job = Object.values(s.jobs).find((j) => j.owner === lab)!;
    const out = applyAction(s, lab, {
      action_type: 'make_pitch',
      message: `${job.id} needs GPU-hours before its deadline, ${lab}`,
      job_ids: [job.id],
    });
    assert.equal(out.result.ok, true, out.result.code);
    s = out.state;
  }
  for (const lab of finish) s = applyAction(s, lab, { action_type: 'finish' }).state;
  return s;
}

describe('building a ballot', () => {
  test('one pitch per unfinished seat that pitched, in seat order; a later pitch replaces the earlier one', () => {
    let s = pitched(['lab_2', 'lab_0', 'lab_1'], ['lab_1']);
    const job = Object.values(s.jobs).find((j) => j.owner === 'lab_0')!;
    s = applyAction(s, 'lab_0', {
      action_type: 'counter_pitch',
      target_lab_id: 'lab_2',
      message: `${job.id} is more urgent than theirs`,
      job_ids: [job.id],
    }).state;
    const got = ballotPitches(s);
    assert.deepEqual(
      got.map((p) => p.id),
      ['p0_lab_0', 'p0_lab_2'],
      'lab_1 finished; seat order',
    );
    assert.deepEqual(got[0], {
      id: 'p0_lab_0',
      lab: 'lab_0',
      kind: 'counter_pitch',
      text: `${job.id} is more urgent than theirs`,
      jobIds: [job.id],
      replyTo: 'lab_2',
    });
    assert.equal(got[1]!.kind, 'pitch');
  });

  test('no ballot with fewer than two pitches; otherwise every pair once, canonical', () => {
    assert.equal(buildBallot(pitched(['lab_1'])), null);
    const b = buildBallot(pitched(['lab_0', 'lab_1', 'lab_3']));
    assert.ok(b);
    assert.equal(b.ballotId, 'v_1');
    assert.deepEqual(b.pairs, [
      ['p0_lab_0', 'p0_lab_1'],
      ['p0_lab_0', 'p0_lab_3'],
      ['p0_lab_1', 'p0_lab_3'],
    ]);
  });

  test('property: n pitches give n(n−1)/2 distinct canonical pairs covering every two pitches', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 12 }), { minLength: 0, maxLength: 9 }), (idx) => {
        const pitches = idx.map((i) => pitch(`lab_${i}`));
        const pairs = allPairs(pitches);
        assert.equal(pairs.length, (idx.length * Math.max(0, idx.length - 1)) / 2);
        assert.ok(pairs.every(([a, b]) => a < b));
        assert.equal(new Set(pairs.map((p) => p.join('|'))).size, pairs.length);
      }),
    );
  });
});

describe('serving pairs to a voter', () => {
  const b = ballotOf(['lab_0', 'lab_1', 'lab_2']);

  test("a seated voter never gets a pair with their own seat's pitch; a spectator gets every pair", () => {
    assert.deepEqual(eligiblePairs(b, 'lab_1'), [2]);
    assert.deepEqual(eligiblePairs(b, null), [1, 2, 3]);
    assert.deepEqual(eligiblePairs(b, 'lab_9'), [1, 2, 3], 'a seat without a pitch on the ballot');
    assert.equal(checkPair(b, 1, 'lab_1', 0), 'own_pitch');
    assert.equal(checkPair(b, 2, 'lab_1', 0), null);
    assert.equal(checkPair(b, 4, null, 0), 'unknown_pair');
    assert.equal(checkPair(b, 0, null, 0), 'unknown_pair');
  });

  test('the next pair is the first eligible one not judged yet', () => {
    assert.equal(nextPair(b, null, new Set()), 1);
    assert.equal(nextPair(b, null, new Set([1, 3])), 2);
    assert.equal(nextPair(b, 'lab_0', new Set([3])), null);
  });

  test('a closed ballot, or one past its clock, takes no vote', () => {
    assert.equal(
      checkPair(ballotOf(['lab_0', 'lab_1'], { closed: { reason: 'timer', at: 5 } }), 1, null, 0),
      'ballot_closed',
    );
    const timed = ballotOf(['lab_0', 'lab_1'], { closesAt: 1000 });
    assert.equal(checkPair(timed, 1, null, 999), null);
    assert.equal(checkPair(timed, 1, null, 1000), 'ballot_closed');
  });

  test('the order a voter sees is deterministic per (match, ballot, pair, voter) and differs across voters', () => {
    const first = shownPair('m_1', b, 1, 'discord:1');
    assert.deepEqual(shownPair('m_1', b, 1, 'discord:1'), first);
    const orders = new Set<string>();
    let swapped = 0;
    for (let i = 0; i < 400; i++) {
      const s = shownPair('m_1', b, 1, `slack:U${i}`);
      orders.add(s.shownA.id);
      assert.deepEqual(new Set([s.shownA.id, s.shownB.id]), new Set(b.pairs[0]));
      if (swappedFor('m_1', 'v_3', 1, `slack:U${i}`)) swapped++;
    }
    assert.equal(orders.size, 2, 'both orders occur');
    assert.ok(swapped > 150 && swapped < 250, `about half of the voters see the pair swapped (${swapped}/400)`);
  });

  test('property: a choice on what was shown maps to the canonical choice and back', () => {
    fc.assert(
      fc.property(fc.constantFrom<VoteChoice>('a', 'b', 'tie', 'both_bad'), fc.boolean(), (choice, swap) => {
        const [pa, pb] = ['p1_lab_0', 'p1_lab_1'];
        const shownFirst = swap ? pb : pa;
        const canonical = canonicalChoice(choice, shownFirst, pa);
        assert.equal(shownChoice(canonical, shownFirst, pa), choice);
        // The pitch the voter preferred is the same pitch in canonical terms.
        const preferredShown = choice === 'a' ? shownFirst : choice === 'b' ? (shownFirst === pa ? pb : pa) : null;
        const preferredCanonical = canonical === 'a' ? pa : canonical === 'b' ? pb : null;
        assert.equal(preferredCanonical, preferredShown);
      }),
    );
  });
});
