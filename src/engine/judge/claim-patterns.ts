/**
 * The patterns of checkable claims (docs/RULES.md §6) and the cheap tests that skip them: number words
 * and unit, round, deadline, percentage and reliability phrasings in English, French, Spanish, German and
 * Italian, all over normalised text (lower-case; see normalizePitch in claims.ts). Used by claims.ts.
 */

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

const NUM = `(\\d+(?:\\.\\d+)?|${Object.keys(NUMBER_WORDS)
  .sort((a, b) => b.length - a.length)
  .join('|')})`;
const ROUND_WORD = '(?:rounds?|rnds?|tours?|rondas?|runden?|manches?|turnos?|turni)';

/** A NUM capture as a number: a number word's value, else the digits'. */
export const parseNum = (s: string): number => NUMBER_WORDS[s] ?? Number(s);

const re = (source: string) => new RegExp(source, 'gu');

/** `pre`: a substring every match contains (patterns are skipped when the text lacks it). */
export const ID_PATTERNS: { kind: 'job' | 'block' | 'offer' | 'coalition' | null; pre: string; rx: RegExp }[] = [
  { kind: 'job', pre: 'j_', rx: re(`${L}j_\\d+_(?:surge_)?\\d+${R}`) },
  { kind: 'block', pre: 'b_', rx: re(`${L}b_s?\\d+_\\d+${R}`) },
  { kind: 'offer', pre: 'o_', rx: re(`${L}o_\\d+${R}`) },
  { kind: 'coalition', pre: 'c_', rx: re(`${L}c_\\d+${R}`) },
  // Lab ids are not claims, but their digits must not be read as numbers.
  { kind: null, pre: 'lab_', rx: re(`${L}lab_\\d+${R}`) },
];

const EXTRA =
  '(?:(?:more|additional|extra|further|remaining|missing|de plus|supplémentaires?|más|weitere|altre)[\\s-]+)?';
const HOUR_UNIT =
  '(?:(?:gpu|accelerator|accel|compute|gpu-?compute)s?[\\s\\-·⋅.]*)?(?:hours?|hrs?|h|heures?|horas?|stunden|ore)' +
  `(?:[\\s-]+(?:de[\\s-]+|of[\\s-]+|di[\\s-]+)?(?:gpus?|calcul|cómputo|compute|accelerators?)${R})?`;
/** "8 GPU-hours", "three more heures de calcul": NUM then an hour unit (capture 1: NUM). */
export const HOURS_AFTER = re(`${L}${NUM}[\\s-]*${EXTRA}${HOUR_UNIT}${R}`);
/** "gpu_hours_required: 8" (JSON-ish key then NUM, capture 1). */
export const HOURS_BEFORE = re(
  `${L}(?:gpu|accelerator)[\\s_\\-·]*(?:hours?|h)(?:[\\s_]*(?:required|needed|unmet))?["']?\\s*[:=]\\s*${NUM}${R}`,
);

const REL_AFTER = `(?:[\\s-]+(?:more|additional|remaining|left|to go|away|restants?|restantes?|übrig|rimanenti))`;
/** "in 2 rounds", "2 rounds left": a deadline relative to now (capture 1: NUM). */
export const DEADLINE_IN = [
  re(`${L}(?:in|within|dans|en|d'ici|entro|innerhalb von|in den nächsten)\\s+${NUM}\\s+(?:more\\s+)?${ROUND_WORD}${R}`),
  re(`${L}${NUM}\\s+(?:more\\s+)?${ROUND_WORD}${REL_AFTER}${R}`),
];
/** "this round" (capture 1) or "next round" (capture 2). */
export const THIS_NEXT = re(
  `${L}(?:(this|current|ce|esta|este|diese[rm]?|questo)|(next|prochain|próxim[ao]|nächste[nr]?|prossimo))\\s+${ROUND_WORD}${R}`,
);
/** "round 3", "manche #3", "r3" (capture 1: NUM, or capture 2: the digits after r). */
export const ROUND_MENTION = re(`${L}(?:${ROUND_WORD}\\s*(?:#|no\\.?|n°|nr\\.?)?\\s*${NUM}|r(\\d+))${R}`);
/** "deadline 3", "due: 3" (capture 1: digits). */
export const DEADLINE_NUM = re(
  `${L}(?:deadline|due|échéance|fecha límite|frist|scadenza)\\s*(?:is|est|es|ist|è|:|=|of|at|in|en)?\\s*(\\d+)${R}`,
);
/** Words that make a following round number a deadline (searched in the 28 characters before it). */
export const DEADLINE_BEFORE =
  /(?:deadline|due|by|before|until|till|later than|settles?|avant|d'ici|jusqu'(?:au|à)|pour le|antes|hasta|para la|bis|vor|spätestens|entro|prima|échéance|fällig|límite|limite)(?![\p{L}\p{N}_])[^.;!?\n\d]{0,18}$/u;
/** Words that make a preceding round number a deadline ("round 3 at the latest"). */
export const DEADLINE_AFTER =
  /^\s*(?:deadline|at the latest|au plus tard|como máximo|a más tardar|spätestens|al più tardi)/u;

/** "85%", "85 percent" (capture 1: the number). */
export const PERCENT = re(
  `${L}(\\d{1,3}(?:\\.\\d+)?)\\s*(?:%|percent${R}|per cent${R}|pour cent${R}|por ciento${R}|prozent${R}|per cento${R})`,
);
/** "0.85", ".85", "1.0" (capture 1). */
export const DECIMAL = re(`${L}(0?\\.\\d+|1\\.0+)${R}`);
/** Words that make a number in the same sentence possibly about capacity rather than need. */
export const CAPACITY_WORD =
  /(?<![\p{L}\p{N}_])(?:b_s?\d+_\d+|blocks?|blocs?|bloques?|blöcke|blocchi|blocco|spare|offers?|offre|oferta|angebot|sell|give|trade|swap|échange|intercambio|tausch)(?![\p{L}\p{N}_])/u;
/** Substrings every CAPACITY_WORD match contains (a cheap test first). */
export const CAPACITY_ANY =
  /b_|bloc|bloq|blöcke|spare|offer|offre|oferta|angebot|sell|give|trade|swap|échange|intercambio|tausch/;
/** Words (and ≥) that bind a nearby percentage or decimal as a reliability. */
export const RELIABILITY_WORD =
  /reliab|dependab|uptime|availab|fiab|confiab|zuverl|affidab|(?<![\p{L}_])sla(?![\p{L}_])|(?<![\p{L}_])min_?rel(?![\p{L}_])|(?<![\p{L}_])rel(?![\p{L}_])|≥|>=/gu;
/** A sentence end inside the text between a reliability word and a number. */
export const SENTENCE_BREAK = /[.;!?\n]\s/;
/** How far (characters) a reliability word reaches to bind a number. */
export const RELIABILITY_REACH = 30;

/**
 * Cheap necessary conditions (plain substring tests) for the expensive Unicode patterns: a pattern
 * whose condition fails cannot match, so skipping it changes nothing.
 */
export const HAS_DIGIT = /\d/;
export const ROUND_ANY = /r(?:ound|nd|onda|unde)|tour|manche|turn[oi]/;
export const NUM_WORD_ANY = new RegExp(Object.keys(NUMBER_WORDS).join('|'));
export const HOUR_ANY = /h|stunden|ore/;
export const R_DIGIT = /r\d/;
export const DEADLINE_WORD_ANY = /deadline|due|échéance|fecha límite|frist|scadenza/;
export const PERCENT_ANY = /%|cent|ciento|prozent/;
export const DECIMAL_ANY = /\.\d/;

const ROUND_G = /r(?:ound|nd|onda|unde)|tour|manche|turn[oi]/g;
const WS = /\s/;
const NUMBER_WORD_LIST = Object.keys(NUMBER_WORDS);
/** The words THIS_NEXT accepts before a round word. */
const THIS_NEXT_WORDS =
  'this current ce esta este diese dieser diesem questo next prochain próximo próxima nächste nächsten nächster prossimo'.split(
    ' ',
  );

/** Whether a round word starts at some `p` of `s` where `test(s, p)` holds (every ROUND_WORD starts a ROUND_G match). */
export function someRoundWord(s: string, test: (s: string, p: number) => boolean): boolean {
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
export function numberBefore(s: string, p: number): boolean {
  const i = beforeSpaces(s, p);
  if (i < 0) return false;
  if (endsWithNum(s, i + 1)) return true;
  if (i < 3 || !s.startsWith('more', i - 3)) return false;
  const k = beforeSpaces(s, i - 3);
  return k >= 0 && endsWithNum(s, k + 1);
}

/** Necessary condition of THIS_NEXT at a round word at `p`: one of its words, whitespace, then `p`. */
export function thisOrNextBefore(s: string, p: number): boolean {
  const i = beforeSpaces(s, p);
  return i >= 0 && endsWithAny(s, i + 1, THIS_NEXT_WORDS);
}
