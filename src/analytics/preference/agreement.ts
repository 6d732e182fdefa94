/**
 * Agreement statistics over labelled pairs (pure; the method docs/PREFERENCE-DATA.md states):
 * - a label is `a` (the pair's first pitch is better), `b`, or `tie` (a voter's tie and both-bad, or equal
 *   judge scores);
 * - a pair's human majority is the label with strictly more votes than each other label (else none);
 * - order agreement: among items where both labels are `a`/`b`, the share where they are equal;
 * - Cohen's kappa over the three classes: (p_o − p_e) / (1 − p_e), p_e from the two raters' marginals;
 *   null when p_e = 1 (one class only: kappa undefined).
 * Intervals are in stats.ts (Clopper–Pearson for shares, a Dirichlet posterior for kappa).
 */

export type Label = 'a' | 'b' | 'tie';
const LABELS: readonly Label[] = ['a', 'b', 'tie'];

/** Two raters' labels of one pair. */
export interface Rated {
  x: Label;
  y: Label;
}

/** The strict plurality label of `labels`, or null (no labels, or two labels share the top count). */
export function majority(labels: readonly Label[]): Label | null {
  const n = { a: 0, b: 0, tie: 0 };
  for (const l of labels) n[l] += 1;
  const top = Math.max(n.a, n.b, n.tie);
  const at = LABELS.filter((l) => n[l] === top);
  return top > 0 && at.length === 1 ? at[0]! : null;
}

/** Order agreement (ties excluded): items where both labels are decisive, how many match, and the share (null when none). */
export function orderAgreement(items: readonly Rated[]): { decisive: number; agree: number; share: number | null } {
  let decisive = 0;
  let agree = 0;
  for (const { x, y } of items) {
    if (x === 'tie' || y === 'tie') continue;
    decisive += 1;
    if (x === y) agree += 1;
  }
  return { decisive, agree, share: decisive ? agree / decisive : null };
}

/** Cohen's kappa with three classes (a, b, tie); null for no items or when chance agreement is 1. */
export function cohensKappa(items: readonly Rated[]): number | null {
  const n = items.length;
  if (n === 0) return null;
  const px = { a: 0, b: 0, tie: 0 };
  const py = { a: 0, b: 0, tie: 0 };
  let same = 0;
  for (const { x, y } of items) {
    px[x] += 1;
    py[y] += 1;
    if (x === y) same += 1;
  }
  const po = same / n;
  const pe = LABELS.reduce((acc, l) => acc + (px[l] / n) * (py[l] / n), 0);
  return pe >= 1 ? null : (po - pe) / (1 - pe);
}

/** The 3 × 3 table of counts of (x, y) labels, rows x and columns y in the order a, b, tie. */
export function labelTable(items: readonly Rated[]): number[][] {
  const t = LABELS.map(() => LABELS.map(() => 0));
  for (const { x, y } of items) t[LABELS.indexOf(x)]![LABELS.indexOf(y)]! += 1;
  return t;
}

/**
 * Human–human agreement on pairs with two or more voters: over every unordered pair of voters on the
 * same pitch pair, the share who gave the same label (three classes), and the same with ties excluded
 * (voter pairs where both were decisive).
 */
export function pairwiseAgreement(perPair: readonly (readonly Label[])[]): {
  pairs: number;
  voterPairs: number;
  agree: number;
  agreement: number | null;
  decisiveVoterPairs: number;
  decisiveAgree: number;
  agreementNoTies: number | null;
} {
  let pairs = 0;
  let voterPairs = 0;
  let agree = 0;
  let decisive = 0;
  let decisiveAgree = 0;
  for (const labels of perPair) {
    if (labels.length < 2) continue;
    pairs += 1;
    for (let i = 0; i < labels.length; i++)
      for (let j = i + 1; j < labels.length; j++) {
        const same = labels[i] === labels[j];
        voterPairs += 1;
        if (same) agree += 1;
        if (labels[i] !== 'tie' && labels[j] !== 'tie') {
          decisive += 1;
          if (same) decisiveAgree += 1;
        }
      }
  }
  return {
    pairs,
    voterPairs,
    agree,
    agreement: voterPairs ? agree / voterPairs : null,
    decisiveVoterPairs: decisive,
    decisiveAgree,
    agreementNoTies: decisive ? decisiveAgree / decisive : null,
  };
}
