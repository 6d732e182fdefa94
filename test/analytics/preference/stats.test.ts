/**
 * `npm run stats` on the recorded fixture match (fixture.ts) with hand-chosen votes. Every expected number
 * below is computed by hand in the comments from the fixture judge's fixed scores and the votes, not by
 * the code under test.
 *
 * Fixture judge orders (scores lab_0 / lab_1 per round, lab_2 always 0.05; canonical pairs
 * P1 = lab_0 vs lab_1, P2 = lab_0 vs lab_2, P3 = lab_1 vs lab_2; "a" = the first lab scored higher):
 *   r0 0.8/0.4 → P1 a, P2 a, P3 a     r1 0.3/0.7 → P1 b, P2 a, P3 a     r2 0.6/0.6 → P1 tie, P2 a, P3 a
 *   r3 0.9/0.2 → P1 a, P2 a, P3 a     r4 0.1/0.5 → P1 b, P2 a, P3 a
 * Models: model-x in rounds 0–2, model-y in rounds 3–4.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { bootstrapInterval, cohensKappa, orderAgreement, type Rated } from '../../../src/analytics/preference/agreement.js';
import { foldMatch } from '../../../src/analytics/preference/dataset.js';
import { scoreOrder } from '../../../src/analytics/preference/judge-view.js';
import { computeStats, type PreferenceStats } from '../../../src/analytics/preference/stats.js';
import { formatStats } from '../../../src/analytics/preference/format-stats.js';
import type { StoredEvent } from '../../../src/events/schema.js';
import type { VoteRecord } from '../../../src/store/types.js';
import { spawnScript, tempDir } from '../../adapters/console/spawn.js';
import { ALICE, BOB, CAROL, DAVE, ERIN, recordMatch, storeWith, vote } from './fixture.js';

let matchId = '';
let events: StoredEvent[] = [];
let votes: VoteRecord[] = [];
let cli: PreferenceStats;
let chart = '';

const close = (actual: number | null, expected: number, what: string) => {
  assert.ok(actual !== null && Math.abs(actual - expected) < 1e-9, `${what}: ${actual} ≠ ${expected}`);
};

describe('preference stats', () => {
  before(async () => {
    ({ matchId, events } = await recordMatch());
    const P1 = ['lab_0', 'lab_1', 1] as const;
    const P2 = ['lab_0', 'lab_2', 2] as const;
    const P3 = ['lab_1', 'lab_2', 3] as const;
    const v = (round: number, [x, y, pair]: readonly [string, string, number], choice: VoteRecord['choice'], shown: 'a' | 'b', who: string, seated: boolean) =>
      vote(matchId, round, x, y, choice, shown, who, seated, pair);
    votes = [
      // Spectators on P1.
      v(0, P1, 'a', 'a', CAROL, false), // voted for the first shown: yes
      v(0, P1, 'a', 'b', DAVE, false), // no
      v(0, P1, 'b', 'b', ERIN, false), // yes
      v(1, P1, 'b', 'b', CAROL, false), // yes
      v(1, P1, 'tie', 'a', DAVE, false), // not decisive
      v(2, P1, 'a', 'a', CAROL, false), // yes
      v(3, P1, 'b', 'a', DAVE, false), // no
      v(3, P1, 'both_bad', 'b', ERIN, false), // not decisive
      v(4, P1, 'b', 'a', CAROL, false), // no
      v(4, P1, 'b', 'b', DAVE, false), // yes
      v(4, P1, 'b', 'a', ERIN, false), // no
      // Seated players, never on a pair holding their own pitch (Alice = lab_0, Bob = lab_1).
      v(0, P3, 'a', 'a', ALICE.userId, true), // yes
      v(1, P3, 'b', 'a', ALICE.userId, true), // no
      v(2, P2, 'a', 'a', BOB.userId, true), // yes
      v(3, P2, 'tie', 'b', BOB.userId, true), // not decisive
    ];
    const dir = tempDir();
    const db = join(dir, 'arena.db');
    await (await storeWith(matchId, events, votes, db)).close();
    chart = join(dir, 'stats.png');
    const p = spawnScript('src/cli/stats.ts', ['--db', db, '--match', matchId, '--json', '--chart', chart]);
    const { code } = await p.exited;
    assert.equal(code, 0, p.err());
    cli = JSON.parse(p.out()) as PreferenceStats;
  });

  test('the fixture is what the hand computation assumes', () => {
    const data = foldMatch(events, votes)!;
    const orders = data.rounds.map((r) => r.pairs.map((p) => scoreOrder(r.judge, p.a.lab, p.b.lab)).join(','));
    assert.deepEqual(orders, ['a,a,a', 'b,a,a', 'tie,a,a', 'a,a,a', 'b,a,a']);
    // The rule judge recomputed on the same states (used for LLM-vs-rule below).
    const rule = data.rounds.map((r) => r.pairs.map((p) => scoreOrder(r.rule, p.a.lab, p.b.lab)).join(','));
    // Under rules v3 the rule judge no longer ties the first pair of rounds 3–4: it prefers pitch a. Under v4
    // Bob's round-0 pitch is judged on his facts when he pitched (he allocated after it), so he wins P3 there.
    assert.deepEqual(rule, ['b,b,a', 'b,b,b', 'a,b,b', 'a,b,b', 'a,b,b']);
  });

  test('votes, pairs, voters; judge–human agreement and kappa (all votes)', () => {
    // 15 votes on 9 pairs (5 × P1, r0/r1 P3, r2/r3 P2) by 5 voters.
    assert.deepEqual([cli.all.votes, cli.all.pairs, cli.all.voters], [15, 9, 5]);
    // Majorities (tie and both-bad count as tie): r0P1 a (a,a,b); r1P1 none (b,tie); r2P1 a; r3P1 none (b,tie);
    // r4P1 b; r0P3 a; r1P3 b; r2P2 a; r3P2 tie. Items (human, judge): (a,a) (a,tie) (b,b) (a,a) (b,a) (a,a) (tie,a) → 7.
    // Decisive (no tie on either side): (a,a) (b,b) (a,a) (b,a) (a,a) → 5, agree 4 → 0.8.
    const j = cli.all.judgeHuman;
    assert.deepEqual([j.pairs, j.decisivePairs, j.agree], [7, 5, 4]);
    close(j.agreement, 0.8, 'agreement');
    // Kappa: human a4 b2 tie1, judge a5 b1 tie1; p_o = 4/7; p_e = (4·5 + 2·1 + 1·1)/49 = 23/49;
    // kappa = (28/49 − 23/49) / (26/49) = 5/26.
    close(j.kappa, 5 / 26, 'kappa');
    assert.ok(j.agreementCI && j.kappaCI, 'bootstrap intervals');
    assert.ok(j.agreementCI[0] <= j.agreementCI[1] && j.agreementCI[1] <= 1 && j.kappaCI[0] >= -1 && j.kappaCI[1] <= 1);
  });

  test('per judge model', () => {
    // model-x (rounds 0–2): (a,a) (a,tie) (a,a) (b,a) (a,a): decisive 4, agree 3 → 0.75; kappa: human a4 b1,
    // judge a4 tie1; p_o = 3/5; p_e = 16/25 → (15/25 − 16/25)/(9/25) = −1/9.
    const x = cli.all.byJudge['llm_judge_v1 (model-x)']!;
    assert.deepEqual([x.pairs, x.decisivePairs, x.agree], [5, 4, 3]);
    close(x.agreement, 0.75, 'model-x agreement');
    close(x.kappa, -1 / 9, 'model-x kappa');
    // model-y (rounds 3–4): (b,b) (tie,a): decisive 1, agree 1 → 1; kappa: human b1 tie1, judge b1 a1;
    // p_o = 1/2, p_e = 1/4 → (1/4)/(3/4) = 1/3.
    const y = cli.all.byJudge['llm_judge_v1 (model-y)']!;
    close(y.agreement, 1, 'model-y agreement');
    close(y.kappa, 1 / 3, 'model-y kappa');
  });

  test('human–human agreement and position bias', () => {
    // Pairs with ≥ 2 voters: r0P1 (a,a,b): 3 voter pairs, 1 agree; r1P1 (b,tie): 1, 0; r3P1 (b,tie): 1, 0;
    // r4P1 (b,b,b): 3, 3. → 4 pairs, 8 voter pairs, 4 agree = 0.5; without ties: 6 voter pairs, 4 agree = 2/3.
    const h = cli.all.humanHuman;
    assert.deepEqual([h.pairs, h.voterPairs, h.agree], [4, 8, 4]);
    close(h.agreement, 0.5, 'human-human');
    close(h.agreementNoTies, 2 / 3, 'human-human without ties');
    // Decisive votes 12 (15 minus 3 ties/both-bad); for the pitch shown first: 7 (the "yes" comments) → 7/12.
    assert.deepEqual([cli.all.positionBias.decisiveVotes, cli.all.positionBias.forFirst], [12, 7]);
    close(cli.all.positionBias.share, 7 / 12, 'position bias');
  });

  test('seated and spectator votes apart', () => {
    // Seated: 4 votes, 4 pairs, 2 voters; items (a,a) (b,a) (a,a) (tie,a): decisive 3, agree 2;
    // kappa: human a2 b1 tie1, judge a4: p_o = 2/4, p_e = 8/16 → 0. Position bias 2 of 3.
    const s = cli.seated;
    assert.deepEqual([s.votes, s.pairs, s.voters], [4, 4, 2]);
    close(s.judgeHuman.agreement, 2 / 3, 'seated agreement');
    close(s.judgeHuman.kappa, 0, 'seated kappa');
    close(s.positionBias.share, 2 / 3, 'seated position bias');
    // Spectators: 11 votes, 5 pairs, 3 voters; items (a,a) (a,tie) (b,b): decisive 2, agree 2 → 1;
    // kappa: human a2 b1, judge a1 b1 tie1: p_o = 2/3, p_e = (2 + 1)/9 → (6/9 − 3/9)/(6/9) = 0.5. Position bias 5/9.
    const p = cli.spectator;
    assert.deepEqual([p.votes, p.pairs, p.voters], [11, 5, 3]);
    close(p.judgeHuman.agreement, 1, 'spectator agreement');
    close(p.judgeHuman.kappa, 0.5, 'spectator kappa');
    close(p.positionBias.share, 5 / 9, 'spectator position bias');
  });

  test('LLM judge vs rule judge on every judged pair', () => {
    // (LLM, rule) over 15 pairs: r0 (a,b) (a,b) (a,a); r1 (b,b) (a,b) (a,b); r2 (tie,a) (a,b) (a,b); r3 (a,a) (a,b)
    // (a,b); r4 (b,a) (a,b) (a,b). Decisive 14, agree 3 → 3/14. Kappa: LLM a12 b2 tie1, rule a4 b11 tie0;
    // p_o = 3/15 = 45/225; p_e = (12·4 + 2·11 + 1·0)/225 = 70/225 → (45 − 70)/(225 − 70) = −5/31.
    const r = cli.judgeVsRule;
    assert.deepEqual([r.pairs, r.decisivePairs, r.agree], [15, 14, 3]);
    close(r.agreement, 3 / 14, 'LLM vs rule agreement');
    close(r.kappa, -5 / 31, 'LLM vs rule kappa');
    assert.deepEqual(r.judges, ['llm_judge_v1 (model-x)', 'llm_judge_v1 (model-y)']);
  });

  test('the CLI and the library agree; the bootstrap is reproducible; the text names the numbers', () => {
    const again = computeStats([foldMatch(events, votes)!]);
    assert.deepEqual(JSON.parse(JSON.stringify(again)), cli, 'same seed, same intervals');
    const text = formatStats(cli);
    assert.match(text, /15 votes on 9 pairs by 5 voters/);
    assert.match(text, /order agreement 80%/);
    assert.match(text, /58% of 12 decisive votes went to the pitch shown first/);
    assert.match(text, /Spectators: 11 votes/);
  });

  test('--chart writes a PNG of the rates', () => {
    const png = readFileSync(chart);
    assert.deepEqual([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join(''), 'PNG');
    assert.ok(png.length > 2000);
  });
});

describe('agreement math', () => {
  test('perfect agreement: share 1, kappa 1, bootstrap interval [1, 1] (resamples with one class are dropped)', () => {
    const items: Rated[] = [{ x: 'a', y: 'a' }, { x: 'b', y: 'b' }, { x: 'a', y: 'a' }];
    assert.equal(orderAgreement(items).share, 1);
    assert.equal(cohensKappa(items), 1);
    assert.deepEqual(bootstrapInterval(items, cohensKappa, { resamples: 200, seed: 's' }), [1, 1]);
    assert.equal(cohensKappa([{ x: 'a', y: 'a' }]), null, 'one class: chance agreement 1, kappa undefined');
  });
  test('different seeds give different resamples; the same seed the same ones', () => {
    const items: Rated[] = [{ x: 'a', y: 'a' }, { x: 'b', y: 'a' }, { x: 'a', y: 'b' }, { x: 'b', y: 'b' }, { x: 'a', y: 'a' }];
    /** The resamples drawn under `seed`, each as the indexes of the items it holds. */
    const drawn = (seed: string) => {
      const seen: string[] = [];
      bootstrapInterval(items, (sample) => (seen.push(sample.map((x) => items.indexOf(x)).join(',')), orderAgreement(sample).share), { resamples: 300, seed });
      return seen;
    };
    const x = drawn('x');
    assert.equal(x.length, 300);
    assert.deepEqual(drawn('x'), x, 'same seed, same resamples');
    const y = drawn('y');
    assert.ok(y.filter((r, i) => r !== x[i]).length > 250, 'another seed draws other resamples');
    assert.ok(new Set(x).size > 100, 'resamples vary within a run');
  });

  test('the interval is the 2.5 % and 97.5 % quantiles (linear interpolation) of the statistic where it is defined', () => {
    const items: Rated[] = [{ x: 'a', y: 'a' }, { x: 'b', y: 'a' }];
    // A statistic that counts its calls: values 0 … 999, whatever is drawn. Quantile p of n sorted values
    // is v[h] interpolated at h = (n − 1)·p: (999 · 0.025 = 24.975, 999 · 0.975 = 974.025).
    let k = 0;
    assert.deepEqual(bootstrapInterval(items, () => k++, { resamples: 1000, seed: 's' }), [24.975, 974.025]);
    // Undefined on every odd call: the 500 values 0, 2, …, 998 remain; h = 12.475 → 24 + 0.475·2 = 24.95,
    // h = 486.525 → 972 + 0.525·2 = 973.05.
    k = 0;
    const interval = bootstrapInterval(items, () => (k++ % 2 === 0 ? k - 1 : null), { resamples: 1000, seed: 's' });
    assert.ok(interval && Math.abs(interval[0] - 24.95) < 1e-9 && Math.abs(interval[1] - 973.05) < 1e-9, String(interval));
    assert.equal(bootstrapInterval(items, () => null, { resamples: 10, seed: 's' }), null, 'never defined: no interval');
    assert.equal(bootstrapInterval([], () => 1, { resamples: 10, seed: 's' }), null, 'no items: no interval');
  });

  test('resampling is uniform with replacement: 30 agreements in 100 give the normal-theory interval', () => {
    // Share 0.3 of n = 100: standard error √(0.3 · 0.7 / 100) = 0.0458, so the 95 % interval is about
    // 0.3 ± 1.96 · 0.0458 = [0.210, 0.390]; a percentile bootstrap of 4000 resamples lands within 0.02 of it.
    const items: Rated[] = Array.from({ length: 100 }, (_, i) => (i < 30 ? { x: 'a', y: 'a' } : { x: 'a', y: 'b' }));
    const [lo, hi] = bootstrapInterval(items, (s) => orderAgreement(s).share, { resamples: 4000, seed: 'normal' })!;
    assert.ok(Math.abs(lo - 0.21) <= 0.02 && Math.abs(hi - 0.39) <= 0.02, `[${lo}, ${hi}]`);
  });
});
