/**
 * Vote quality per voter (docs/PREFERENCE-DATA.md#vote-quality), two measures:
 * - **Gold accuracy:** on gold pairs, pairs whose answer the grounded judge knows (one pitch carries claims
 *   the claim check found fabricated, the other none), the share of a voter's decisive votes for the truthful
 *   pitch, with its Clopper–Pearson 95 % interval. A voter clicking at random scores about ½.
 * - **Style-controlled agreement:** a Bradley–Terry (logistic) fit per voter of P(votes A) =
 *   σ(β_judge·j + β_len·ℓ), j = +1 when the judge prefers A and −1 when it prefers B, ℓ = ln(length A /
 *   length B) in characters, with a N(0, 2.5²) prior on each β (so one voter's few votes give finite
 *   estimates); fitted by Newton's method. Style-controlled agreement is σ(β_judge), the probability of
 *   agreeing with the judge between pitches of equal length, with the 95 % interval σ(β̂ ± 1.96·se) from the
 *   observed information (Laplace); `lengthPull` is σ(β_len·ln 2), the probability of picking a pitch twice
 *   as long as the other when the judge is indifferent. As LMArena's style control, but one fit per voter.
 * Raw agreement (the share of decisive votes agreeing with the judge) is reported beside both: a
 * length-biased voter can look attentive by it when the judge also favours longer pitches. Pure.
 */
import { clopperPearson, type Proportion } from '../stats/proportion.js';
import type { MatchData } from './dataset.js';
import { scoreOrder } from './judge-view.js';

/** One decisive vote (A or B) as the measures read it. */
export interface VoteObservation {
  voter: string;
  /** The voter chose pitch A. */
  choseA: boolean;
  /** The judge's order: true = A, false = B, null = a tie or no decision. */
  judgeA: boolean | null;
  /** On a gold pair, whether A is the truthful pitch; null when the pair is not gold. */
  goldA: boolean | null;
  lenA: number;
  lenB: number;
}

/** The measures of one voter. */
export interface VoterQuality {
  voter: string;
  votes: number;
  gold: Proportion | null;
  /** Share of votes agreeing with the judge, over votes where it has an order. */
  rawAgreement: Proportion | null;
  styleControlled: { agreement: number; lo: number; hi: number; lengthPull: number } | null;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
const PRIOR_VAR = 2.5 ** 2;

/** MAP fit of P(A) = σ(b·x) with a N(0, PRIOR_VAR) prior per coefficient; b and the inverse Hessian. */
function fitLogistic(
  xs: readonly [number, number][],
  ys: readonly boolean[],
): { b: [number, number]; cov: [[number, number], [number, number]] } {
  let b: [number, number] = [0, 0];
  let cov: [[number, number], [number, number]] = [
    [PRIOR_VAR, 0],
    [0, PRIOR_VAR],
  ];
  for (let it = 0; it < 50; it++) {
    const g = [-b[0] / PRIOR_VAR, -b[1] / PRIOR_VAR];
    const h = [
      [1 / PRIOR_VAR, 0],
      [0, 1 / PRIOR_VAR],
    ];
    xs.forEach((x, i) => {
      const p = sigmoid(b[0] * x[0] + b[1] * x[1]);
      const r = (ys[i] ? 1 : 0) - p;
      const w = p * (1 - p);
      g[0]! += r * x[0];
      g[1]! += r * x[1];
      h[0]![0]! += w * x[0] * x[0];
      h[0]![1]! += w * x[0] * x[1];
      h[1]![0]! += w * x[1] * x[0];
      h[1]![1]! += w * x[1] * x[1];
    });
    const det = h[0]![0]! * h[1]![1]! - h[0]![1]! * h[1]![0]!;
    cov = [
      [h[1]![1]! / det, -h[0]![1]! / det],
      [-h[1]![0]! / det, h[0]![0]! / det],
    ];
    const step: [number, number] = [cov[0][0] * g[0]! + cov[0][1] * g[1]!, cov[1][0] * g[0]! + cov[1][1] * g[1]!];
    b = [b[0] + step[0], b[1] + step[1]];
    if (Math.abs(step[0]) + Math.abs(step[1]) < 1e-9) break;
  }
  return { b, cov };
}

/** The measures of every voter in `obs`, by voter id. */
export function voterQuality(obs: readonly VoteObservation[]): VoterQuality[] {
  const byVoter = new Map<string, VoteObservation[]>();
  for (const o of obs) byVoter.set(o.voter, [...(byVoter.get(o.voter) ?? []), o]);
  return [...byVoter].map(([voter, vs]) => {
    const gold = vs.filter((v) => v.goldA !== null);
    const judged = vs.filter((v) => v.judgeA !== null);
    let styleControlled: VoterQuality['styleControlled'] = null;
    if (judged.length > 0) {
      const { b, cov } = fitLogistic(
        judged.map((v) => [v.judgeA ? 1 : -1, Math.log(Math.max(1, v.lenA) / Math.max(1, v.lenB))]),
        judged.map((v) => v.choseA),
      );
      const se = Math.sqrt(cov[0][0]);
      styleControlled = {
        agreement: sigmoid(b[0]),
        lo: sigmoid(b[0] - 1.96 * se),
        hi: sigmoid(b[0] + 1.96 * se),
        lengthPull: sigmoid(b[1] * Math.LN2),
      };
    }
    return {
      voter,
      votes: vs.length,
      gold: clopperPearson(gold.filter((v) => v.choseA === v.goldA).length, gold.length),
      rawAgreement: clopperPearson(judged.filter((v) => v.choseA === v.judgeA).length, judged.length),
      styleControlled,
    };
  });
}

/**
 * The decisive votes of `matches` as observations: the judge's order from the round's stored decision, the
 * gold answer from the grounded (rule) judge's claim check, lengths of the texts as shown.
 */
export function voteObservations(matches: readonly MatchData[]): VoteObservation[] {
  const out: VoteObservation[] = [];
  for (const m of matches) {
    for (const v of m.votes) {
      if (v.choice !== 'a' && v.choice !== 'b') continue;
      const r = m.rounds.find((x) => x.round === v.round);
      const pair = r?.pairs.find((p) => p.a.id === v.pitchA && p.b.id === v.pitchB);
      if (!r || !pair) continue;
      const order = r.judge ? scoreOrder(r.judge, pair.a.lab, pair.b.lab) : null;
      const fab = (lab: string) => r.rule?.scores.find((s) => s.lab === lab)?.parts.fabricatedClaims ?? 0;
      const fa = fab(pair.a.lab);
      const fb = fab(pair.b.lab);
      out.push({
        voter: v.voterId,
        choseA: v.choice === 'a',
        judgeA: order === 'a' ? true : order === 'b' ? false : null,
        goldA: fa > 0 && fb === 0 ? false : fb > 0 && fa === 0 ? true : null,
        lenA: pair.a.shown.text.length,
        lenB: pair.b.shown.text.length,
      });
    }
  }
  return out;
}
