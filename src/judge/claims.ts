/**
 * Checkable claims in a pitch's text (docs/RULES.md §6). The extractor reads only facts that can be
 * checked against the state — ids, GPU-hour numbers, deadlines, reliability needs — in many phrasings
 * and a few languages (English, French, Spanish, German, Italian). Everything else in a pitch
 * (keywords, capitals, instructions, JSON verdicts, padding) is ignored: it is text, never a command,
 * which is how the judge avoids the reference's keyword counter (Ref §6.5). Pure.
 */

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

/** Longest text read (a pitch is at most 1,200 characters: PITCH_MAX in src/env/actions.ts). */
export const MAX_PITCH_SCAN = 4000;

// Unicode-aware word boundaries (\b only knows ASCII letters, so "zwölf" or "Around" would misfire).
const L = '(?<![\\p{L}\\p{N}_])';
const R = '(?![\\p{L}\\p{N}_])';

/** Number words 1–12 (en, fr, es, de, it). */
const NUMBER_WORDS: Record<string, number> = {};
const WORD_LISTS = [
  'one two three four five six seven eight nine ten eleven twelve',
  'un deux trois quatre cinq six sept huit neuf dix onze douze',
  'uno dos tres cuatro cinco seis siete ocho nueve diez once doce',
  'eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf',
  'uno due tre quattro cinque sei sette otto nove dieci undici dodici',
];
/** Words that are also common words elsewhere ("due", "once") are not numbers. */
const NOT_NUMBERS = new Set(['due', 'once']);
for (const list of WORD_LISTS) {
  list.split(' ').forEach((w, i) => {
    if (!NOT_NUMBERS.has(w)) NUMBER_WORDS[w] ??= i + 1;
  });
}
NUMBER_WORDS.une = 1;
NUMBER_WORDS.una = 1;

const NUM = `(\\d+(?:\\.\\d+)?|${Object.keys(NUMBER_WORDS).sort((a, b) => b.length - a.length).join('|')})`;
const ROUND_WORD = '(?:rounds?|rnds?|tours?|rondas?|runden?|manches?|turnos?|turni)';

const parseNum = (s: string): number => NUMBER_WORDS[s] ?? Number(s);

const re = (source: string) => new RegExp(source, 'gu');

/** `pre`: a substring every match contains (patterns are skipped when the text lacks it). */
const ID_PATTERNS: { kind: 'job' | 'block' | 'offer' | 'coalition' | null; pre: string; rx: RegExp }[] = [
  { kind: 'job', pre: 'j_', rx: re(`${L}j_\\d+_(?:surge_)?\\d+${R}`) },
  { kind: 'block', pre: 'b_', rx: re(`${L}b_s?\\d+_\\d+${R}`) },
  { kind: 'offer', pre: 'o_', rx: re(`${L}o_\\d+${R}`) },
  { kind: 'coalition', pre: 'c_', rx: re(`${L}c_\\d+${R}`) },
  // Lab ids are not claims, but their digits must not be read as numbers.
  { kind: null, pre: 'lab_', rx: re(`${L}lab_\\d+${R}`) },
];

const EXTRA = '(?:(?:more|additional|extra|further|remaining|missing|de plus|supplémentaires?|más|weitere|altre)[\\s-]+)?';
const HOUR_UNIT =
  '(?:(?:gpu|accelerator|accel|compute|gpu-?compute)s?[\\s\\-·⋅.]*)?(?:hours?|hrs?|h|heures?|horas?|stunden|ore)' +
  `(?:[\\s-]+(?:de[\\s-]+|of[\\s-]+|di[\\s-]+)?(?:gpus?|calcul|cómputo|compute|accelerators?)${R})?`;
const HOURS_AFTER = re(`${L}${NUM}[\\s-]*${EXTRA}${HOUR_UNIT}${R}`);
const HOURS_BEFORE = re(`${L}(?:gpu|accelerator)[\\s_\\-·]*(?:hours?|h)(?:[\\s_]*(?:required|needed|unmet))?["']?\\s*[:=]\\s*${NUM}${R}`);

const REL_AFTER = `(?:[\\s-]+(?:more|additional|remaining|left|to go|away|restants?|restantes?|übrig|rimanenti))`;
const DEADLINE_IN = [
  re(`${L}(?:in|within|dans|en|d'ici|entro|innerhalb von|in den nächsten)\\s+${NUM}\\s+(?:more\\s+)?${ROUND_WORD}${R}`),
  re(`${L}${NUM}\\s+(?:more\\s+)?${ROUND_WORD}${REL_AFTER}${R}`),
];
const THIS_NEXT = re(
  `${L}(?:(this|current|ce|esta|este|diese[rm]?|questo)|(next|prochain|próxim[ao]|nächste[nr]?|prossimo))\\s+${ROUND_WORD}${R}`,
);
const ROUND_MENTION = re(`${L}(?:${ROUND_WORD}\\s*(?:#|no\\.?|n°|nr\\.?)?\\s*${NUM}|r(\\d+))${R}`);
const DEADLINE_NUM = re(
  `${L}(?:deadline|due|échéance|fecha límite|frist|scadenza)\\s*(?:is|est|es|ist|è|:|=|of|at|in|en)?\\s*(\\d+)${R}`,
);
/** Words that make a following round number a deadline (searched in the 28 characters before it). */
const DEADLINE_BEFORE =
  /(?:deadline|due|by|before|until|till|later than|settles?|avant|d'ici|jusqu'(?:au|à)|pour le|antes|hasta|para la|bis|vor|spätestens|entro|prima|échéance|fällig|límite|limite)(?![\p{L}\p{N}_])[^.;!?\n\d]{0,18}$/u;
const DEADLINE_AFTER = /^\s*(?:deadline|at the latest|au plus tard|como máximo|a más tardar|spätestens|al più tardi)/u;

const PERCENT = re(`${L}(\\d{1,3}(?:\\.\\d+)?)\\s*(?:%|percent${R}|per cent${R}|pour cent${R}|por ciento${R}|prozent${R}|per cento${R})`);
const DECIMAL = re(`${L}(0?\\.\\d+|1\\.0+)${R}`);
/** Words that make a number in the same sentence possibly about capacity rather than need. */
const CAPACITY_WORD =
  /(?<![\p{L}\p{N}_])(?:b_s?\d+_\d+|blocks?|blocs?|bloques?|blöcke|blocchi|blocco|spare|offers?|offre|oferta|angebot|sell|give|trade|swap|échange|intercambio|tausch)(?![\p{L}\p{N}_])/u;
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
const SENTENCE_STOPS = ['. ', ';', '!', '?', '\n'];
/** Substrings every CAPACITY_WORD match contains (a cheap test first). */
const CAPACITY_ANY = /b_|bloc|bloq|blöcke|spare|offer|offre|oferta|angebot|sell|give|trade|swap|échange|intercambio|tausch/;
const RELIABILITY_WORD = /reliab|dependab|uptime|availab|fiab|confiab|zuverl|affidab|(?<![\p{L}_])sla(?![\p{L}_])|(?<![\p{L}_])min_?rel(?![\p{L}_])|(?<![\p{L}_])rel(?![\p{L}_])|≥|>=/gu;
const SENTENCE_BREAK = /[.;!?\n]\s/;
/** How far (characters) a reliability word reaches to bind a number. */
const RELIABILITY_REACH = 30;

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

/**
 * Cheap necessary conditions (plain substring tests) for the expensive Unicode patterns: a pattern
 * whose condition fails cannot match, so skipping it changes nothing.
 */
const HAS_DIGIT = /\d/;
const ROUND_ANY = /r(?:ound|nd|onda|unde)|tour|manche|turn[oi]/;
const NUM_WORD_ANY = new RegExp(Object.keys(NUMBER_WORDS).join('|'));
const HOUR_ANY = /h|stunden|ore/;
const R_DIGIT = /r\d/;
const DEADLINE_WORD_ANY = /deadline|due|échéance|fecha límite|frist|scadenza/;
const PERCENT_ANY = /%|cent|ciento|prozent/;
const DECIMAL_ANY = /\.\d/;

const ROUND_G = /r(?:ound|nd|onda|unde)|tour|manche|turn[oi]/g;
const WS = /\s/;
const NUMBER_WORD_LIST = Object.keys(NUMBER_WORDS);
/** The words THIS_NEXT accepts before a round word. */
const THIS_NEXT_WORDS = 'this current ce esta este diese dieser diesem questo next prochain próximo próxima nächste nächsten nächster prossimo'.split(' ');

/** Whether a round word starts at some `p` of `s` where `test(s, p)` holds (every ROUND_WORD starts a ROUND_G match). */
function someRoundWord(s: string, test: (s: string, p: number) => boolean): boolean {
  ROUND_G.lastIndex = 0;
  for (let m = ROUND_G.exec(s); m !== null; m = ROUND_G.exec(s)) {
    if (test(s, m.index)) {
      ROUND_G.lastIndex = 0;
      return true;
    }
  }
  return false;
}

/** Index of the last non-space character before the whitespace run that ends at `p` (−1 if none or no run). */
function beforeSpaces(s: string, p: number): number {
  let i = p - 1;
  if (i < 0 || !WS.test(s[i]!)) return -1;
  while (i >= 0 && WS.test(s[i]!)) i -= 1;
  return i;
}

function endsWithAny(s: string, end: number, words: readonly string[]): boolean {
  for (const w of words) if (end >= w.length && s.startsWith(w, end - w.length)) return true;
  return false;
}

/** Whether the text before `end` ends like NUM: a digit or a number word. */
function endsWithNum(s: string, end: number): boolean {
  const c = s.charCodeAt(end - 1);
  return (c >= 48 && c <= 57) || endsWithAny(s, end, NUMBER_WORD_LIST);
}

/** Necessary condition of DEADLINE_IN at a round word at `p`: NUM, whitespace, optional "more ", then `p`. */
function numberBefore(s: string, p: number): boolean {
  const i = beforeSpaces(s, p);
  if (i < 0) return false;
  if (endsWithNum(s, i + 1)) return true;
  if (i < 3 || !s.startsWith('more', i - 3)) return false;
  const k = beforeSpaces(s, i - 3);
  return k >= 0 && endsWithNum(s, k + 1);
}

/** Necessary condition of THIS_NEXT at a round word at `p`: one of its words, whitespace, then `p`. */
function thisOrNextBefore(s: string, p: number): boolean {
  const i = beforeSpaces(s, p);
  return i >= 0 && endsWithAny(s, i + 1, THIS_NEXT_WORDS);
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
  else if ((prev.kind === 'hours' || prev.kind === 'reliability') && 'capacity' in c && c.capacity) prev.capacity = true;
}

/** The number words of a sentence about blocks or trades may be about capacity (see CAPACITY_WORD). */
function aboutCapacity(norm: string, start: number, end: number): boolean {
  const sentence = sentenceAt(norm, start, end);
  return CAPACITY_ANY.test(sentence) && CAPACITY_WORD.test(sentence);
}

/** Whether a round mention at `m` is said as a deadline (a deadline word shortly before or after it). */
function saidAsDeadline(s: string, m: RegExpExecArray): boolean {
  const end = m.index + m[0].length;
  return DEADLINE_BEFORE.test(s.slice(Math.max(0, m.index - 28), m.index)) || DEADLINE_AFTER.test(s.slice(end, end + 24));
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
    if (Number.isInteger(v)) add(found, `deadline:${v}`, { kind: 'deadline', round: v, explicit: saidAsDeadline(s, m) });
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
  for (const m of matches(pct, DECIMAL, DECIMAL_ANY.test(pct))) nums.push({ start: m.index, end: m.index + m[0].length, value: Number(m[1]) });
  if (nums.length === 0) return [];
  const out: Extract<Claim, { kind: 'reliability' }>[] = [];
  for (const w of matches(s, RELIABILITY_WORD)) {
    const wEnd = w.index + w[0].length;
    let best: { gap: number; value: number; start: number; end: number } | null = null;
    for (const n of nums) {
      const between = n.start >= wEnd ? s.slice(wEnd, n.start) : n.end <= w.index ? s.slice(n.end, w.index) : null;
      if (between === null || between.length > RELIABILITY_REACH || SENTENCE_BREAK.test(between)) continue;
      if (!best || between.length < best.gap) best = { gap: between.length, value: n.value, start: n.start, end: n.end };
    }
    if (best && best.value >= 0 && best.value <= 1) {
      const value = Math.round(best.value * 1000) / 1000;
      out.push({ kind: 'reliability', value, capacity: aboutCapacity(norm, best.start, best.end) });
    }
  }
  return out;
}
