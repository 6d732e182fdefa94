/**
 * The public reason strings of the rule judge (docs/RULES.md §6): counts only, never a private value.
 * The same few recur round after round (a handful of lab names, small counts), so each is built once
 * and remembered; strings are values, so sharing one never changes a result. Counts below
 * COUNT_LIMIT are remembered, for at most NAME_LIMIT names (then the memo starts over).
 */
const COUNT_LIMIT = 16;
const NAME_LIMIT = 256;
const seatReasons = new Map<string, string[]>();
const countReasons: string[] = [];

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const seatText = (name: string, nV: number, nF: number, nU: number) =>
  `${name}: ${plural(nV, 'verified claim')}, ${nF} fabricated, ${nU} unsupported`;
const countsText = (nV: number, nF: number) => `${plural(nV, 'verified claim')}, ${nF} fabricated`;

/** A seat's reason: `Lab A: 2 verified claims, 0 fabricated, 1 unsupported`. */
export function seatReason(name: string, nV: number, nF: number, nU: number): string {
  if (nV >= COUNT_LIMIT || nF >= COUNT_LIMIT || nU >= COUNT_LIMIT) return seatText(name, nV, nF, nU);
  let byCounts = seatReasons.get(name);
  if (byCounts === undefined) {
    if (seatReasons.size >= NAME_LIMIT) seatReasons.clear();
    seatReasons.set(name, (byCounts = []));
  }
  return (byCounts[(nV * COUNT_LIMIT + nF) * COUNT_LIMIT + nU] ??= seatText(name, nV, nF, nU));
}

/** A seat's counts in a decision's reason: `2 verified claims, 0 fabricated`. */
export function countsReason(nV: number, nF: number): string {
  if (nV >= COUNT_LIMIT || nF >= COUNT_LIMIT) return countsText(nV, nF);
  return (countReasons[nV * COUNT_LIMIT + nF] ??= countsText(nV, nF));
}
