/**
 * Checkable claims in a pitch's text (docs/RULES.md §6). The extractor reads only facts that can be
 * checked against the state — ids, GPU-hour numbers, deadlines, reliability needs — in many phrasings
 * and a few languages (English, French, Spanish, German, Italian). Everything else in a pitch
 * (keywords, capitals, instructions, JSON verdicts, padding) is ignored: it is text, never a command,
 * which is how the judge avoids the original's keyword counter (docs/RULES.md §A.3). Pure.
 */

import {
  parseNum,
  ID_PATTERNS,
  HOURS_AFTER,
  HOURS_BEFORE,
  DEADLINE_IN,
  THIS_NEXT,
  ROUND_MENTION,
  DEADLINE_NUM,
  DEADLINE_BEFORE,
  DEADLINE_AFTER,
  PERCENT,
  DECIMAL,
  CAPACITY_WORD,
  CAPACITY_ANY,
  RELIABILITY_WORD,
  SENTENCE_BREAK,
  RELIABILITY_REACH,
  HAS_DIGIT,
  ROUND_ANY,
  NUM_WORD_ANY,
  HOUR_ANY,
  R_DIGIT,
  DEADLINE_WORD_ANY,
  PERCENT_ANY,
  DECIMAL_ANY,
  someRoundWord,
  numberBefore,
  thisOrNextBefore,
} from './claim-patterns.js';

/** One checkable claim. Values are as written (hours in GPU-hours, rounds 0-based, reliability in [0, 1]). */
export type Claim =
  | { kind: 'job'; id: string }
  | { kind: 'offer'; id: string }
  | { kind: 'coalition'; id: string }
  | { kind: 'block'; id: string }
  /** `capacity`: said about blocks (a block id or word, an offer, a trade in the same sentence). */
  | { kind: 'hours'; value: number; capacity: boolean }
  /** A round number. `explicit`: said as a deadline ("by round 3", "deadline 3"); else a bare "round 3". */
  | { kind: 'deadline'; round: number; explicit: boolean }
  /** A deadline relative to now: "due in 2 rounds", "2 rounds left", "this round" (0). */
  | { kind: 'deadline_in'; rounds: number }
  | { kind: 'reliability'; value: number; capacity: boolean };

/** Longest text read (a pitch is at most 1,200 characters: PITCH_MAX in src/engine/actions.ts). */
export const MAX_PITCH_SCAN = 4000;

const NON_ASCII = /[^\p{ASCII}]/u;
/** In ASCII text, whitespace other than single spaces (what the \s+ → ' ' step changes). */
const ODD_SPACE = /[\t\n\v\f\r]| {2}/;

/** Lower-case, compatibility-normalise, unify dashes, and read "0,85" as 0.85. */
export function normalizePitch(text: string): string {
  const t = text.slice(0, MAX_PITCH_SCAN);
  // ASCII text is NFKC-stable and has no typographic dashes or quotes: only case, spaces and commas.
  if (!NON_ASCII.test(t)) {
    const lower = t.toLowerCase();
    const out = ODD_SPACE.test(lower) ? lower.replace(/\s+/g, ' ') : lower;
    return out.includes('0,') ? out.replace(/(?<![\d.,])0,(\d+)/g, '0.$1') : out;
  }
  return t
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/\s+/g, ' ')
    .replace(/(?<![\d.,])0,(\d+)/g, '0.$1');
}

const NONE: readonly RegExpExecArray[] = [];

/**
 * Every match of the global pattern `rx` in `s`, in order (as `s.matchAll(rx)`, without its costly
 * RegExp clone; none of the patterns can match the empty string). `may` false: none, without searching.
 */
function matches(s: string, rx: RegExp, may = true): readonly RegExpExecArray[] {
  if (!may) return NONE;
  let out: RegExpExecArray[] | null = null;
  rx.lastIndex = 0;
  for (let m = rx.exec(s); m !== null; m = rx.exec(s)) {
    (out ??= []).push(m);
    if (m[0].length === 0) rx.lastIndex += 1;
  }
  rx.lastIndex = 0;
  return out ?? NONE;
}

/** `s` with every match's span blanked, so later patterns cannot read its digits again (keeps offsets). */
function blanked(s: string, ms: readonly RegExpExecArray[]): string {
  if (ms.length === 0) return s;
  let out = '';
  let at = 0;
  for (const m of ms) {
    out += s.slice(at, m.index) + ' '.repeat(m[0].length);
    at = m.index + m[0].length;
  }
  return out + s.slice(at);
}

/**
 * Remembered claims of recent texts (pitch texts repeat a lot across rounds and matches), in two
 * generations: a text is looked up in both, new ones go to the young one, and when it holds
 * MEMO_GENERATION texts it becomes the old one (the previous old one is dropped). At most
 * 2 × MEMO_GENERATION texts are kept, and recently used ones survive.
 */
const MEMO_GENERATION = 4096;
let young = new Map<string, readonly Claim[]>();
let old = new Map<string, readonly Claim[]>();

/**
 * The claims of `text`, shared and frozen: the extraction is a pure function of the text, so it is
 * remembered (bounded, see above). For the judge's hot path.
 */
export function claimsOf(text: string): readonly Claim[] {
  let v = young.get(text);
  if (v !== undefined) return v;
  v = old.get(text) ?? Object.freeze(extract(text).map((c) => Object.freeze(c)));
  if (young.size >= MEMO_GENERATION) {
    old = young;
    young = new Map();
  }
  young.set(text, v);
  return v;
}

/**
 * All checkable claims of a pitch, deduplicated (same kind and value once; a deadline is explicit if
 * any of its mentions is), in order of first appearance. Never throws. Returns fresh objects.
 */
export function extractClaims(text: string): Claim[] {
  return claimsOf(text).map((c) => ({ ...c }));
}

/** Record a claim under `key`; a repeat only upgrades explicit (deadline) and capacity (hours, reliability). */
function add(found: Map<string, Claim>, key: string, c: Claim): void {
  const prev = found.get(key);
  if (!prev) found.set(key, c);
  else if (prev.kind === 'deadline' && c.kind === 'deadline' && c.explicit) prev.explicit = true;
  else if ((prev.kind === 'hours' || prev.kind === 'reliability') && 'capacity' in c && c.capacity)
    prev.capacity = true;
}

const SENTENCE_STOPS = ['. ', ';', '!', '?', '\n'];
/** The sentence around [start, end) of the normalised text. */
function sentenceAt(s: string, start: number, end: number): string {
  let from = -1;
  let to = s.length;
  for (const c of SENTENCE_STOPS) {
    from = Math.max(from, s.lastIndexOf(c, start - 1));
    const i = s.indexOf(c, end);
    if (i >= 0 && i < to) to = i;
  }
  return s.slice(from + 1, to);
}

/** The number words of a sentence about blocks or trades may be about capacity (see CAPACITY_WORD). */
function aboutCapacity(norm: string, start: number, end: number): boolean {
  const sentence = sentenceAt(norm, start, end);
  return CAPACITY_ANY.test(sentence) && CAPACITY_WORD.test(sentence);
}

/** Whether a round mention at `m` is said as a deadline (a deadline word shortly before or after it). */
function saidAsDeadline(s: string, m: RegExpExecArray): boolean {
  const end = m.index + m[0].length;
  return (
    DEADLINE_BEFORE.test(s.slice(Math.max(0, m.index - 28), m.index)) || DEADLINE_AFTER.test(s.slice(end, end + 24))
  );
}

function extract(text: string): Claim[] {
  const found = new Map<string, Claim>();
  const norm = normalizePitch(text);
  let s = norm;
  let ms: readonly RegExpExecArray[];
  // Tested once on the whole text: blanking only removes text, so these stay necessary conditions.
  const digit = HAS_DIGIT.test(norm);
  const num = digit || NUM_WORD_ANY.test(norm);

  if (s.includes('_')) {
    for (const { kind, pre, rx } of ID_PATTERNS) {
      ms = matches(s, rx, s.includes(pre));
      if (kind) for (const m of ms) add(found, `${kind}:${m[0]}`, { kind, id: m[0] });
      s = blanked(s, ms);
    }
  }
  for (const rx of [HOURS_AFTER, HOURS_BEFORE]) {
    const may =
      rx === HOURS_AFTER
        ? num && HOUR_ANY.test(s)
        : num && (s.includes(':') || s.includes('=')) && (s.includes('gpu') || s.includes('accelerator'));
    ms = matches(s, rx, may);
    for (const m of ms) {
      const v = parseNum(m[1] ?? '');
      const capacity = aboutCapacity(norm, m.index, m.index + m[0].length);
      if (Number.isFinite(v) && v > 0) add(found, `hours:${v}`, { kind: 'hours', value: v, capacity });
    }
    s = blanked(s, ms);
  }

  const rounds = ROUND_ANY.test(s);
  const numRound = rounds && num && someRoundWord(s, numberBefore);
  for (const rx of DEADLINE_IN) {
    ms = matches(s, rx, numRound);
    for (const m of ms) {
      const v = parseNum(m[1] ?? '');
      if (Number.isInteger(v)) add(found, `in:${v}`, { kind: 'deadline_in', rounds: v });
    }
    s = blanked(s, ms);
  }
  ms = matches(s, THIS_NEXT, rounds && someRoundWord(s, thisOrNextBefore));
  for (const m of ms) {
    // "this round" is only a deadline when said as one ("due this round"); "next round" likewise.
    if (!saidAsDeadline(s, m)) continue;
    const v = m[1] ? 0 : 1;
    add(found, `in:${v}`, { kind: 'deadline_in', rounds: v });
  }
  s = blanked(s, ms);
  ms = matches(s, ROUND_MENTION, (rounds && num) || (digit && R_DIGIT.test(s)));
  for (const m of ms) {
    const v = parseNum(m[1] ?? m[2] ?? '');
    if (Number.isInteger(v))
      add(found, `deadline:${v}`, { kind: 'deadline', round: v, explicit: saidAsDeadline(s, m) });
  }
  s = blanked(s, ms);
  ms = matches(s, DEADLINE_NUM, digit && DEADLINE_WORD_ANY.test(s));
  for (const m of ms) {
    const v = parseNum(m[1] ?? '');
    if (Number.isInteger(v)) add(found, `deadline:${v}`, { kind: 'deadline', round: v, explicit: true });
  }
  s = blanked(s, ms);

  if (digit) for (const c of reliabilityClaims(s, norm)) add(found, `rel:${c.value}`, c);
  return [...found.values()];
}

/**
 * Each reliability word binds the nearest percentage or decimal within reach, in the same sentence.
 * (Called only for a text with a digit: percentages and decimals need one.)
 */
function reliabilityClaims(s: string, norm: string): Extract<Claim, { kind: 'reliability' }>[] {
  const nums: { start: number; end: number; value: number }[] = [];
  const percents = matches(s, PERCENT, PERCENT_ANY.test(s));
  for (const m of percents) nums.push({ start: m.index, end: m.index + m[0].length, value: Number(m[1]) / 100 });
  const pct = blanked(s, percents);
  for (const m of matches(pct, DECIMAL, DECIMAL_ANY.test(pct)))
    nums.push({ start: m.index, end: m.index + m[0].length, value: Number(m[1]) });
  if (nums.length === 0) return [];
  const out: Extract<Claim, { kind: 'reliability' }>[] = [];
  for (const w of matches(s, RELIABILITY_WORD)) {
    const wEnd = w.index + w[0].length;
    let best: { gap: number; value: number; start: number; end: number } | null = null;
    for (const n of nums) {
      const between = n.start >= wEnd ? s.slice(wEnd, n.start) : n.end <= w.index ? s.slice(n.end, w.index) : null;
      if (between === null || between.length > RELIABILITY_REACH || SENTENCE_BREAK.test(between)) continue;
      if (!best || between.length < best.gap)
        best = { gap: between.length, value: n.value, start: n.start, end: n.end };
    }
    if (best && best.value >= 0 && best.value <= 1) {
      const value = Math.round(best.value * 1000) / 1000;
      out.push({ kind: 'reliability', value, capacity: aboutCapacity(norm, best.start, best.end) });
    }
  }
  return out;
}
