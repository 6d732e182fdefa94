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
  const from = Math.max(...['. ', ';', '!', '?', '\n'].map((c) => s.lastIndexOf(c, start - 1))) + 1;
  const stops = ['. ', ';', '!', '?', '\n'].map((c) => s.indexOf(c, end)).filter((i) => i >= 0);
  return s.slice(from, stops.length > 0 ? Math.min(...stops) : s.length);
}
const RELIABILITY_WORD = /reliab|dependab|uptime|availab|fiab|confiab|zuverl|affidab|(?<![\p{L}_])sla(?![\p{L}_])|(?<![\p{L}_])min_?rel(?![\p{L}_])|(?<![\p{L}_])rel(?![\p{L}_])|≥|>=/gu;
const SENTENCE_BREAK = /[.;!?\n]\s/;
/** How far (characters) a reliability word reaches to bind a number. */
const RELIABILITY_REACH = 30;

const NON_ASCII = /[^\x00-\x7f]/;

/** Lower-case, compatibility-normalise, unify dashes, and read "0,85" as 0.85. */
export function normalizePitch(text: string): string {
  const t = text.slice(0, MAX_PITCH_SCAN);
  // ASCII text is NFKC-stable and has no typographic dashes or quotes: only case, spaces and commas.
  if (!NON_ASCII.test(t)) {
    const out = t.toLowerCase().replace(/\s+/g, ' ');
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

/** Blank a span so later patterns cannot read its digits again (keeps offsets). */
const blank = (s: string, start: number, end: number) => s.slice(0, start) + ' '.repeat(end - start) + s.slice(end);

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
const hasNum = (s: string) => HAS_DIGIT.test(s) || NUM_WORD_ANY.test(s);

function scan(s: string, rx: RegExp, on: (m: RegExpExecArray) => void, may = true): string {
  if (!may) return s;
  let out = s;
  for (const m of s.matchAll(rx)) {
    on(m);
    out = blank(out, m.index, m.index + m[0].length);
  }
  return out;
}

/** Distinct texts whose claims are remembered (pitch texts repeat a lot across rounds and matches). */
const MEMO_MAX = 4096;
const memo = new Map<string, readonly Claim[]>();

/**
 * The claims of `text`, shared and frozen: remembered per text (the extraction is a pure function of
 * it), at most {@link MEMO_MAX} texts, the oldest forgotten first. For the judge's hot path.
 */
export function claimsOf(text: string): readonly Claim[] {
  let v = memo.get(text);
  if (v === undefined) {
    v = Object.freeze(extract(text).map((c) => Object.freeze(c)));
    if (memo.size >= MEMO_MAX) memo.delete(memo.keys().next().value!);
    memo.set(text, v);
  }
  return v;
}

/**
 * All checkable claims of a pitch, deduplicated (same kind and value once; a deadline is explicit if
 * any of its mentions is), in order of first appearance. Never throws. Returns fresh objects.
 */
export function extractClaims(text: string): Claim[] {
  return claimsOf(text).map((c) => ({ ...c }));
}

function extract(text: string): Claim[] {
  const found = new Map<string, Claim>();
  const add = (key: string, c: Claim) => {
    const prev = found.get(key);
    if (!prev) found.set(key, c);
    else if (prev.kind === 'deadline' && c.kind === 'deadline' && c.explicit) prev.explicit = true;
    else if ((prev.kind === 'hours' || prev.kind === 'reliability') && 'capacity' in c && c.capacity) prev.capacity = true;
  };
  const norm = normalizePitch(text);
  const aboutCapacity = (start: number, end: number) => CAPACITY_WORD.test(sentenceAt(norm, start, end));
  let s = norm;

  if (s.includes('_')) {
    for (const { kind, pre, rx } of ID_PATTERNS) {
      s = scan(s, rx, (m) => {
        if (kind) add(`${kind}:${m[0]}`, { kind, id: m[0] });
      }, s.includes(pre));
    }
  }
  const hours = (m: RegExpExecArray) => {
    const v = parseNum(m[1] ?? '');
    const capacity = aboutCapacity(m.index, m.index + m[0].length);
    if (Number.isFinite(v) && v > 0) add(`hours:${v}`, { kind: 'hours', value: v, capacity });
  };
  s = scan(s, HOURS_AFTER, hours, HOUR_ANY.test(s) && hasNum(s));
  s = scan(s, HOURS_BEFORE, hours, (s.includes(':') || s.includes('=')) && (s.includes('gpu') || s.includes('accelerator')) && hasNum(s));

  const rounds = ROUND_ANY.test(s);
  for (const rx of DEADLINE_IN) {
    s = scan(s, rx, (m) => {
      const v = parseNum(m[1] ?? '');
      if (Number.isInteger(v)) add(`in:${v}`, { kind: 'deadline_in', rounds: v });
    }, rounds && hasNum(s));
  }
  s = scan(s, THIS_NEXT, (m) => {
    const before = s.slice(Math.max(0, m.index - 28), m.index);
    const after = s.slice(m.index + m[0].length, m.index + m[0].length + 24);
    // "this round" is only a deadline when said as one ("due this round"); "next round" likewise.
    if (!DEADLINE_BEFORE.test(before) && !DEADLINE_AFTER.test(after)) return;
    const v = m[1] ? 0 : 1;
    add(`in:${v}`, { kind: 'deadline_in', rounds: v });
  }, rounds);
  s = scan(s, ROUND_MENTION, (m) => {
    const v = parseNum(m[1] ?? m[2] ?? '');
    if (!Number.isInteger(v)) return;
    const before = s.slice(Math.max(0, m.index - 28), m.index);
    const after = s.slice(m.index + m[0].length, m.index + m[0].length + 24);
    const explicit = DEADLINE_BEFORE.test(before) || DEADLINE_AFTER.test(after);
    add(`deadline:${v}`, { kind: 'deadline', round: v, explicit });
  }, (rounds && hasNum(s)) || R_DIGIT.test(s));
  s = scan(s, DEADLINE_NUM, (m) => {
    const v = parseNum(m[1] ?? '');
    if (Number.isInteger(v)) add(`deadline:${v}`, { kind: 'deadline', round: v, explicit: true });
  }, HAS_DIGIT.test(s) && DEADLINE_WORD_ANY.test(s));

  for (const c of reliabilityClaims(s, aboutCapacity)) add(`rel:${c.value}`, c);
  return [...found.values()];
}

/** Each reliability word binds the nearest percentage or decimal within reach, in the same sentence. */
function reliabilityClaims(
  s: string,
  aboutCapacity: (start: number, end: number) => boolean,
): Extract<Claim, { kind: 'reliability' }>[] {
  const nums: { start: number; end: number; value: number }[] = [];
  if (!HAS_DIGIT.test(s)) return [];
  let pct = s;
  if (PERCENT_ANY.test(s)) {
    for (const m of s.matchAll(PERCENT)) nums.push({ start: m.index, end: m.index + m[0].length, value: Number(m[1]) / 100 });
    if (nums.length > 0) pct = s.replace(PERCENT, (x) => ' '.repeat(x.length));
  }
  if (DECIMAL_ANY.test(pct)) for (const m of pct.matchAll(DECIMAL)) nums.push({ start: m.index, end: m.index + m[0].length, value: Number(m[1]) });
  // A reliability word binds only a number: with none, nothing to look for.
  if (nums.length === 0) return [];
  const out: Extract<Claim, { kind: 'reliability' }>[] = [];
  for (const w of s.matchAll(RELIABILITY_WORD)) {
    const wEnd = w.index + w[0].length;
    let best: { gap: number; value: number; start: number; end: number } | null = null;
    for (const n of nums) {
      const between = n.start >= wEnd ? s.slice(wEnd, n.start) : n.end <= w.index ? s.slice(n.end, w.index) : null;
      if (between === null || between.length > RELIABILITY_REACH || SENTENCE_BREAK.test(between)) continue;
      if (!best || between.length < best.gap) best = { gap: between.length, ...n };
    }
    if (best && best.value >= 0 && best.value <= 1) {
      const value = Math.round(best.value * 1000) / 1000;
      out.push({ kind: 'reliability', value, capacity: aboutCapacity(best.start, best.end) });
    }
  }
  return out;
}
