/**
 * Vote quality on a synthetic set of voters (docs/PREFERENCE-DATA.md#vote-quality): three who click at
 * random, three attentive ones (who side with the grounded answer 90 % of the time) and three length-biased
 * ones (who pick the longer pitch 90 % of the time), on pairs where the judge favours the longer pitch 70 % of
 * the time and 40 % of pairs are gold (one pitch fabricated beyond doubt; lengths independent of the truth).
 * Gold accuracy and style-controlled agreement each separate the three kinds; raw agreement alone makes the
 * length-biased voters look better than chance. Seeded, so the figures are fixed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import seedrandom from 'seedrandom';
import { voterQuality, type VoteObservation } from '../../../src/analytics/preference/quality.js';

type Kind = 'random' | 'attentive' | 'length';

function synthetic(seed: string, votesEach = 400): VoteObservation[] {
  const rng = seedrandom(seed);
  const voters: [string, Kind][] = (['random', 'attentive', 'length'] as Kind[]).flatMap((k) =>
    [1, 2, 3].map((i) => [`${k}_${i}`, k] as [string, Kind]),
  );
  const out: VoteObservation[] = [];
  for (const [voter, kind] of voters) {
    for (let n = 0; n < votesEach; n++) {
      const lenA = 60 + Math.floor(rng() * 340);
      const lenB = 60 + Math.floor(rng() * 340);
      const gold = rng() < 0.4;
      const longerA = lenA >= lenB;
      // Gold pairs: the truthful pitch is the judge's, whatever its length; otherwise the judge favours the longer pitch 70 % of the time.
      const judgeA = gold ? rng() < 0.5 : rng() < 0.7 ? longerA : !longerA;
      const choseA =
        kind === 'random'
          ? rng() < 0.5
          : kind === 'attentive'
            ? rng() < 0.9
              ? judgeA
              : !judgeA
            : rng() < 0.9
              ? longerA
              : !longerA;
      out.push({ voter, choseA, judgeA, goldA: gold ? judgeA : null, lenA, lenB });
    }
  }
  return out;
}

test('gold accuracy and style-controlled agreement separate random, attentive and length-biased voters', () => {
  const q = voterQuality(synthetic('vote-quality'));
  assert.equal(q.length, 9);
  const of = (k: Kind) => q.filter((x) => x.voter.startsWith(k));
  for (const v of of('attentive')) {
    assert.ok(v.gold!.lo > 0.75, `${v.voter}: gold ${v.gold!.share}`);
    assert.ok(v.styleControlled!.lo > 0.75, `${v.voter}: style-controlled ${v.styleControlled!.agreement}`);
    assert.ok(Math.abs(v.styleControlled!.lengthPull - 0.5) < 0.12, `${v.voter}: no length pull`);
  }
  for (const v of of('random')) {
    assert.ok(v.gold!.lo < 0.5 && v.gold!.hi > 0.5, `${v.voter}: gold interval holds ½`);
    assert.ok(
      v.styleControlled!.lo < 0.5 && v.styleControlled!.hi > 0.5,
      `${v.voter}: style-controlled interval holds ½`,
    );
  }
  for (const v of of('length')) {
    assert.ok(v.gold!.hi < 0.75, `${v.voter}: gold ${v.gold!.share} below every attentive voter's lower bound`);
    assert.ok(v.styleControlled!.hi < 0.7, `${v.voter}: style-controlled ${v.styleControlled!.agreement}`);
    assert.ok(v.styleControlled!.lengthPull > 0.75, `${v.voter}: length pull ${v.styleControlled!.lengthPull}`);
    // Raw agreement flatters them: above chance with its interval clear of ½.
    assert.ok(v.rawAgreement!.lo > 0.5, `${v.voter}: raw agreement ${v.rawAgreement!.share}`);
  }
  // Each measure orders the kinds: attentive above both others, on every voter.
  const minAttentive = Math.min(...of('attentive').map((v) => v.gold!.share));
  assert.ok([...of('random'), ...of('length')].every((v) => v.gold!.share < minAttentive));
  const minStyle = Math.min(...of('attentive').map((v) => v.styleControlled!.agreement));
  assert.ok([...of('random'), ...of('length')].every((v) => v.styleControlled!.agreement < minStyle));
});

test('a voter with one vote gets finite estimates and wide intervals', () => {
  const [v] = voterQuality([{ voter: 'x', choseA: true, judgeA: true, goldA: true, lenA: 100, lenB: 100 }]);
  assert.ok(v!.gold!.lo < 0.1 && v!.gold!.hi === 1);
  assert.ok(Number.isFinite(v!.styleControlled!.agreement) && v!.styleControlled!.hi - v!.styleControlled!.lo > 0.5);
});
