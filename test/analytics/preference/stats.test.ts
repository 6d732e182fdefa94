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
import { cohensKappa, labelTable, type Rated } from '../../../src/analytics/preference/agreement.js';
import { foldMatch } from '../../../src/analytics/preference/dataset.js';
import { scoreOrder } from '../../../src/analytics/preference/judge-view.js';
import {
  agreementOf,
  computeStats,
  MIN_KAPPA_PAIRS,
  type PreferenceStats,
} from '../../../src/analytics/preference/stats.js';
import { kappaInterval } from '../../../src/analytics/stats/kappa.js';
import { formatStats } from '../../../src/analytics/preference/format-stats.js';
import type { StoredEvent } from '../../../src/events/schema.js';
import type { VoteRecord } from '../../../src/store/types.js';
import { spawnScript, tempDir } from '../../adapters/console/spawn.js';
import { ALICE, BOB, CAROL, DAVE, ERIN, recordMatch, storeWith, vote } from './fixture.js';

let matchId = '';
let events: StoredEvent[] = [];
let votes: VoteRecord[] = [];
let cli: PreferenceStats;
let withIdentifying: PreferenceStats;
let chart = '';
/** A vote on a pair whose pitches still identified an author: left out unless --include-identifying. */
const FRANK = 'discord:700000000000000006';

const close = (actual: number | null, expected: number, what: string) => {
  assert.ok(actual !== null && Math.abs(actual - expected) < 1e-9, `${what}: ${actual} ≠ ${expected}`);
};

describe('preference stats', () => {
  before(async () => {
    ({ matchId, events } = await recordMatch());
    const P1 = ['lab_0', 'lab_1', 1] as const;
    const P2 = ['lab_0', 'lab_2', 2] as const;
    const P3 = ['lab_1', 'lab_2', 3] as const;
    const v = (
      round: number,
      [x, y, pair]: readonly [string, string, number],
      choice: VoteRecord['choice'],
      shown: 'a' | 'b',
      who: string,
      seated: boolean,
    ) => vote(matchId, round, x, y, choice, shown, who, seated, pair);
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
    const identifying = vote(matchId, 0, 'lab_0', 'lab_1', 'b', 'a', FRANK, false, 1, false);
    const dir = tempDir();
    const db = join(dir, 'arena.db');
    await (await storeWith(matchId, events, [...votes, identifying], db)).close();
    chart = join(dir, 'stats.png');
    const p = spawnScript('src/cli/stats.ts', ['--db', db, '--match', matchId, '--json', '--chart', chart]);
    const { code } = await p.exited;
    assert.equal(code, 0, p.err());
    cli = JSON.parse(p.out()) as PreferenceStats;
    const all = spawnScript('src/cli/stats.ts', ['--db', db, '--match', matchId, '--json', '--include-identifying']);
    assert.equal((await all.exited).code, 0, all.err());
    withIdentifying = JSON.parse(all.out()) as PreferenceStats;
  });

  test('only votes on anonymous pairs count unless --include-identifying', () => {
    assert.deepEqual(cli.selection, {
      includeIdentifying: false,
      includeSeeded: false,
      seededMatches: 0,
      votes: 16,
      identifying: 1,
      kept: 15,
    });
    assert.equal(cli.all.votes, 15);
    assert.deepEqual(withIdentifying.selection, {
      includeIdentifying: true,
      includeSeeded: false,
      seededMatches: 0,
      votes: 16,
      identifying: 1,
      kept: 16,
    });
    assert.equal(withIdentifying.all.votes, 16);
    assert.equal(withIdentifying.all.voters, 6, 'frank counted');
    assert.match(
      formatStats(cli),
      /Anonymous votes only: 15 of 16; 1 on pairs that still identified an author after redaction are left out/,
    );
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
    // Clopper–Pearson of 4 in 5: hi = Beta(5, 1) quantile 0.975 = 0.975^(1/5); lo = the 0.025 quantile of
    // Beta(4, 2), whose CDF is 5t⁴ − 4t⁵.
    assert.ok(j.agreementCI);
    close(j.agreementCI[1], 0.975 ** (1 / 5), 'upper bound');
    const lo = j.agreementCI[0];
    assert.ok(Math.abs(5 * lo ** 4 - 4 * lo ** 5 - 0.025) < 1e-9, `lower bound ${lo}`);
    // Kappa: human a4 b2 tie1, judge a5 b1 tie1; p_o = 4/7; p_e = (4·5 + 2·1 + 1·1)/49 = 23/49;
    // kappa = (28/49 − 23/49) / (26/49) = 5/26, but over 5 decisive pairs it is not reported.
    const items: Rated[] = [
      { x: 'a', y: 'a' },
      { x: 'a', y: 'tie' },
      { x: 'b', y: 'b' },
      { x: 'a', y: 'a' },
      { x: 'b', y: 'a' },
      { x: 'a', y: 'a' },
      { x: 'tie', y: 'a' },
    ];
    close(cohensKappa(items), 5 / 26, 'kappa of the items');
    assert.deepEqual([j.kappa, j.kappaCI, j.kappaNote], [null, null, 'too_few_pairs']);
  });

  test('per judge model', () => {
    // model-x (rounds 0–2): (a,a) (a,tie) (a,a) (b,a) (a,a): decisive 4, agree 3 → 0.75; kappa: human a4 b1,
    // judge a4 tie1; p_o = 3/5; p_e = 16/25 → (15/25 − 16/25)/(9/25) = −1/9.
    const x = cli.all.byJudge['llm_judge_v1 (model-x)']!;
    assert.deepEqual([x.pairs, x.decisivePairs, x.agree], [5, 4, 3]);
    close(x.agreement, 0.75, 'model-x agreement');
    assert.equal(x.kappaNote, 'too_few_pairs', 'kappa −1/9 over 4 decisive pairs is not reported');
    // model-y (rounds 3–4): (b,b) (tie,a): decisive 1, agree 1 → 1; kappa: human b1 tie1, judge b1 a1;
    // p_o = 1/2, p_e = 1/4 → (1/4)/(3/4) = 1/3.
    const y = cli.all.byJudge['llm_judge_v1 (model-y)']!;
    close(y.agreement, 1, 'model-y agreement');
    assert.equal(y.kappaNote, 'too_few_pairs');
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
    assert.ok(
      cli.all.positionBias.ci && cli.all.positionBias.ci[0] < 7 / 12 && 7 / 12 < cli.all.positionBias.ci[1],
      'Clopper–Pearson around the share',
    );
  });

  test('seated and spectator votes apart', () => {
    // Seated: 4 votes, 4 pairs, 2 voters; items (a,a) (b,a) (a,a) (tie,a): decisive 3, agree 2;
    // kappa: human a2 b1 tie1, judge a4: p_o = 2/4, p_e = 8/16 → 0. Position bias 2 of 3.
    const s = cli.seated;
    assert.deepEqual([s.votes, s.pairs, s.voters], [4, 4, 2]);
    close(s.judgeHuman.agreement, 2 / 3, 'seated agreement');
    assert.equal(s.judgeHuman.kappaNote, 'too_few_pairs');
    close(s.positionBias.share, 2 / 3, 'seated position bias');
    // Spectators: 11 votes, 5 pairs, 3 voters; items (a,a) (a,tie) (b,b): decisive 2, agree 2 → 1;
    // kappa: human a2 b1, judge a1 b1 tie1: p_o = 2/3, p_e = (2 + 1)/9 → (6/9 − 3/9)/(6/9) = 0.5. Position bias 5/9.
    const p = cli.spectator;
    assert.deepEqual([p.votes, p.pairs, p.voters], [11, 5, 3]);
    close(p.judgeHuman.agreement, 1, 'spectator agreement');
    assert.equal(p.judgeHuman.kappaNote, 'too_few_pairs');
    close(p.positionBias.share, 5 / 9, 'spectator position bias');
  });

  test('LLM judge vs rule judge on every judged pair', () => {
    // (LLM, rule) over 15 pairs: r0 (a,b) (a,b) (a,a); r1 (b,b) (a,b) (a,b); r2 (tie,a) (a,b) (a,b); r3 (a,a) (a,b)
    // (a,b); r4 (b,a) (a,b) (a,b). Decisive 14, agree 3 → 3/14. Kappa: LLM a12 b2 tie1, rule a4 b11 tie0;
    // p_o = 3/15 = 45/225; p_e = (12·4 + 2·11 + 1·0)/225 = 70/225 → (45 − 70)/(225 − 70) = −5/31.
    const r = cli.judgeVsRule;
    assert.deepEqual([r.pairs, r.decisivePairs, r.agree], [15, 14, 3]);
    close(r.agreement, 3 / 14, 'LLM vs rule agreement');
    assert.deepEqual(
      [r.kappa, r.kappaNote],
      [null, 'too_few_pairs'],
      `kappa −5/31 over ${r.decisivePairs} < ${MIN_KAPPA_PAIRS} decisive pairs is not reported`,
    );
    assert.deepEqual(r.judges, ['llm_judge_v1 (model-x)', 'llm_judge_v1 (model-y)']);
  });

  test('the CLI and the library agree; the intervals are reproducible; the text names the numbers', () => {
    const again = computeStats([
      foldMatch(events, [...votes, vote(matchId, 0, 'lab_0', 'lab_1', 'b', 'a', FRANK, false, 1, false)])!,
    ]);
    assert.deepEqual(JSON.parse(JSON.stringify(again)), cli, 'same seed, same intervals');
    const text = formatStats(cli);
    assert.match(text, /15 votes on 9 pairs by 5 voters/);
    assert.match(text, /order agreement 80% \(95% CI 28%–99%\) on 5 decisive of 7 pairs; kappa: too few pairs \(5\)/);
    assert.match(text, /58% \(95% CI 28%–85%\) of 12 decisive votes went to the pitch shown first/);
    assert.match(text, /Spectators: 11 votes/);
  });

  test('--chart writes a PNG of the rates', () => {
    const png = readFileSync(chart);
    assert.deepEqual([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join(''), 'PNG');
    assert.ok(png.length > 2000);
  });
});

describe('agreement math', () => {
  const perfect = (n: number): Rated[] =>
    [...Array(n)].map((_, i) => (i % 2 ? { x: 'a', y: 'a' } : { x: 'b', y: 'b' }));
  test('kappa is reported from MIN_KAPPA_PAIRS decisive pairs on, never with a zero-width interval', () => {
    assert.equal(MIN_KAPPA_PAIRS, 20);
    const below = agreementOf(perfect(19), { draws: 500, seed: 's' });
    assert.deepEqual([below.kappa, below.kappaCI, below.kappaNote], [null, null, 'too_few_pairs']);
    const at = agreementOf(perfect(20), { draws: 500, seed: 's' });
    assert.equal(at.kappa, 1);
    // A percentile bootstrap of these pairs gives [1, 1]; the posterior interval stays below 1 at its low end.
    assert.ok(
      at.kappaCI && at.kappaCI[0] < at.kappaCI[1] && at.kappaCI[1] <= 1 && at.kappaCI[0] > 0.5,
      JSON.stringify(at.kappaCI),
    );
    assert.equal(cohensKappa([{ x: 'a', y: 'a' }]), null, 'one class: chance agreement 1, kappa undefined');
    const one = agreementOf(
      [...Array(25)].map(() => ({ x: 'a' as const, y: 'a' as const })),
      { draws: 200, seed: 's' },
    );
    assert.deepEqual([one.kappa, one.kappaNote], [null, 'undefined']);
  });
  test('the kappa interval is seeded: same table and seed, same interval; it holds the estimate', () => {
    const table = labelTable([
      ...perfect(18),
      { x: 'a', y: 'b' },
      { x: 'b', y: 'a' },
      { x: 'tie', y: 'a' },
      { x: 'a', y: 'tie' },
      { x: 'tie', y: 'tie' },
    ]);
    assert.deepEqual(table, [
      [9, 1, 1],
      [1, 9, 0],
      [1, 0, 1],
    ]);
    const a = kappaInterval(table, { seed: 'x', draws: 500 });
    assert.deepEqual(kappaInterval(table, { seed: 'x', draws: 500 }), a);
    assert.notDeepEqual(kappaInterval(table, { seed: 'y', draws: 500 }), a);
    // p_o = 19/23, p_e = (11² + 10² + 2²)/23² = 225/529 → kappa = (437 − 225)/(529 − 225) = 212/304.
    assert.ok(a[0] < 212 / 304 && 212 / 304 < a[1], `${JSON.stringify(a)} around kappa 212/304`);
  });
});
