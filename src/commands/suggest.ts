/**
 * "Did you mean …?" for mistyped command names, option names and fixed choices, and clipping of echoed
 * input. Typos are found by edit distance (adjacent swaps count once, so `stauts` is one step from
 * `status`), by a unique prefix (`coal` → `coalition`) and, for option names, by a few synonyms people
 * reach for (`message:` where the option is `msg`, `price:` where it is `pay`).
 */

/** Option names people write for the same thing; a word suggests the member of its group that is valid. */
const SYNONYMS: readonly (readonly string[])[] = [
  ['msg', 'message', 'text', 'note', 'purpose'],
  ['pay', 'payment', 'price', 'credits', 'money'],
  ['to', 'target', 'recipient'],
  ['with', 'labs', 'members', 'invite'],
  ['rounds', 'duration'],
  ['offer', 'offer_id', 'id'],
];

/** Edit distance with adjacent transpositions (optimal string alignment), case-sensitive. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The candidate `word` most likely meant, or null: the closest by edit distance (at most 1 for words of up
 * to 4 letters, else 2; ties go to the earlier candidate), else the only candidate it is a prefix of (3+
 * letters), else (with `synonyms`) a candidate of the word's synonym group.
 */
export function suggest(word: string, candidates: readonly string[], opts: { synonyms?: boolean } = {}): string | null {
  const w = word.trim().toLowerCase();
  if (w === '' || w.length > 64 || candidates.includes(w)) return null;
  const limit = w.length <= 4 ? 1 : 2;
  let best: string | null = null;
  let bestDistance = limit + 1;
  for (const c of candidates) {
    const dist = editDistance(w, c);
    // A one-letter candidate is one step from every one-letter word: only suggest what shares something.
    if (dist < bestDistance && dist < c.length) {
      best = c;
      bestDistance = dist;
    }
  }
  if (best) return best;
  if (w.length >= 3) {
    const prefixed = candidates.filter((c) => c.startsWith(w));
    if (prefixed.length === 1) return prefixed[0]!;
  }
  if (opts.synonyms) {
    const group = SYNONYMS.find((g) => g.includes(w));
    const hit = group?.find((s) => candidates.includes(s));
    if (hit) return hit;
  }
  return null;
}

/** Longest piece of a user's value that an error message repeats. */
export const ECHO_MAX = 40;

/** `1,200` (thousands grouped, as in the messages). */
export const count = (n: number): string => n.toLocaleString('en-US');

/**
 * A user's value as an error message repeats it: whole when short, else its first {@link ECHO_MAX}
 * characters and `…(5,000 characters; at most 1,200)` (`max` when the value has a limit), so a refused
 * 5,000-character pitch is not printed back in full.
 */
export function clip(value: string, max?: number): string {
  const chars = [...value];
  if (chars.length <= ECHO_MAX) return value;
  const limit = max !== undefined ? `; at most ${count(max)}` : '';
  return `${chars.slice(0, ECHO_MAX).join('')}…(${count(chars.length)} characters${limit})`;
}
