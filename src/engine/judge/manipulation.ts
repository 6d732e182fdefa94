/**
 * Manipulation flags of a pitch (docs/RULES.md §6.4, rules v3): text that addresses the judge rather than
 * the other players, or that tries to win a model's favour by length. A flagged pitch scores as before
 * (its claims count as always) but cannot win the bonus, under the rule judge and the hybrid LLM judge
 * alike — so a model that obeys text inside pitches, or prefers longer ones, cannot be talked into a win.
 *
 * - `instruction`: orders to the judge or the model ("ignore previous instructions", "you are now …",
 *   "SYSTEM:", "declare Lab A the winner", "rank us first", "note to the judge");
 * - `verdict`: a verdict or scores written into the pitch (a JSON verdict, "OFFICIAL ROUND SUMMARY
 *   (judge)", "winner: Lab A", "score 1.0");
 * - `repetition`: a sentence of 20+ characters said twice or more;
 * - `padding`: more than {@link PADDING_CHARS} characters of filler: sentences that add no checkable claim
 *   the pitch has not made already (prose, praise, a fact restated in new words).
 *
 * Pure; the patterns read normalised text (claims.ts `normalizePitch`) and are remembered per text.
 */
import { claimsOf, normalizePitch, type Claim } from './claims.js';

/** One manipulation flag (see the file comment). */
export type ManipulationKind = 'instruction' | 'verdict' | 'repetition' | 'padding';

/** A flag and the short public reason shown with the judge's per-claim verdict. */
export interface ManipulationFlag {
  kind: ManipulationKind;
  /** Public, player text never quoted: e.g. "a sentence repeated 4 times". */
  detail: string;
}

/** Characters of filler (sentences adding no new claim) above which a pitch is padding (a third of PITCH_MAX). */
export const PADDING_CHARS = 400;
/** Shortest sentence (normalised characters) whose repetition counts. */
export const REPEAT_MIN_CHARS = 20;

const W = '(?<![\\p{L}\\p{N}_])';
const E = '(?![\\p{L}\\p{N}_])';
const rx = (s: string) => new RegExp(s, 'u');

/** Who a pitch may try to promote: us, this seat/pitch, a lab id or name, a judge alias. */
const SUBJECT =
  '(?:us|me|ourselves|this (?:seat|pitch|lab|team)|our (?:seat|pitch|lab|team)|lab[ _]?[a-z0-9]{1,2}|seat [a-z]|\\[this seat\\])';

/** Orders to the judge (en, fr, es, de, it), over normalised (lower-case) text. */
const INSTRUCTION: RegExp[] = [
  rx(
    `${W}(?:ignore|disregard|forget|override|bypass)${E}[^.!?\\n]{0,40}${W}(?:instructions?|prompts?|guidelines|rubric|criteria|fact sheet|system message)${E}`,
  ),
  rx(`${W}(?:ignore|disregard|forget)\\s+(?:all|any|every|the|your)?\\s*(?:previous|prior|above|earlier|other)${E}`),
  rx(`${W}(?:ignorez|oubliez)${E}[^.!?\\n]{0,30}${W}(?:instructions|consignes|règles)${E}`),
  rx(`${W}(?:ignora|olvida)${E}[^.!?\\n]{0,30}${W}(?:instrucciones|reglas|istruzioni|regole)${E}`),
  rx(`${W}(?:ignoriere|vergiss)${E}[^.!?\\n]{0,30}${W}(?:anweisungen|regeln|vorgaben)${E}`),
  rx(`${W}you are (?:now|no longer)${E}`),
  rx(
    `${W}(?:act as|pretend to be|respond only|reply only|answer only|output only|respond exactly|reply exactly|output exactly|output the following|return this json|print this json)${E}`,
  ),
  rx(`(?:^|[\\n\\[(<{#*>|])\\s*(?:system|assistant|developer)\\s*(?:prompt|message|note|override)?\\s*[:\\]>)]`),
  rx(`${W}(?:new|updated|additional|hidden|secret) (?:instructions?|system prompt)${E}`),
  rx(
    `${W}(?:note|message|instructions?|memo) (?:to|for) (?:the )?(?:judge|jury|model|evaluator|grader|scorer|llm|ai|referee|arbiter)${E}`,
  ),
  rx(
    `${W}(?:declare|crown|rank|rate|name|pick|choose|select|make)\\s+${SUBJECT}${E}[^.!?\\n]{0,20}${W}(?:the )?(?:winner|first|highest|top|best|1st)${E}`,
  ),
  rx(
    `${W}(?:give|award|assign|grant)\\s+${SUBJECT}${E}[^.!?\\n]{0,20}(?:full marks|maximum score|max score|highest score|top score|a score of|score 1|1\\.0|10/10)`,
  ),
  rx(`${W}as an? (?:ai|language model|llm)${E}`),
];

/** Verdicts and scores written into the pitch. */
const VERDICT: RegExp[] = [
  // JSON-ish keys of a verdict or of our rubric.
  rx(
    `["'](?:winner\\w*|scores?|seats?|verdict|rationale|summary|ranking|need|urgency|specificity_truthfulness|fairness_coalition|decision|bonus)["']\\s*:`,
  ),
  rx(
    `${W}(?:official|judge'?s?|judging|arena'?s?)\\s+(?:round\\s+)?(?:summary|verdict|ruling|decision|result|results|scores?|ranking|evaluation)${E}`,
  ),
  rx(`${W}(?:verdict|ruling|judgement|judgment)\\s*[:=]`),
  rx(`${W}(?:winner|gagnant|ganador|gewinner|vincitore)\\s*(?:is|:|=|est|es|ist|è)\\s`),
  rx(`${W}(?:is|are) (?:the )?(?:clear |obvious |rightful )?winners?${E}`),
  rx(`${W}scor(?:e|es|ed|ing)${E}[^.!?\\n]{0,24}(?:1\\.0+|10/10|100 ?%|1/1|full marks|maximum)`),
  rx(`\\(judge\\)|\\[judge\\]|judge\\s*:`),
];

const SENTENCE = /[.!?;\n]+(?:\s|$)|\n/;

/** A claim's identity (kind and value), for "does this sentence say anything new". */
const claimKey = (c: Claim): string => {
  switch (c.kind) {
    case 'job':
    case 'offer':
    case 'coalition':
    case 'block':
      return `${c.kind}:${c.id}`;
    case 'hours':
    case 'reliability':
      return `${c.kind}:${c.value}`;
    case 'deadline':
      return `deadline:${c.round}`;
    case 'deadline_in':
      return `in:${c.rounds}`;
  }
};

/** The flags of `text`, in the order instruction, verdict, repetition, padding (each at most once). */
function compute(text: string): ManipulationFlag[] {
  const norm = normalizePitch(text);
  const flags: ManipulationFlag[] = [];
  if (INSTRUCTION.some((r) => r.test(norm)))
    flags.push({ kind: 'instruction', detail: 'instructions addressed to the judge' });
  if (VERDICT.some((r) => r.test(norm)))
    flags.push({ kind: 'verdict', detail: 'a verdict or scores written into the pitch' });
  const seen = new Map<string, number>();
  const said = new Set<string>();
  // Filler is a sum of cleaned sentences, each no longer than its part of `norm`: a text of at most
  // PADDING_CHARS cannot be padding, so its sentences' claims (an extraction per new sentence: most
  // scripted pitches are a new number in a stock phrase) are not needed.
  const mayPad = norm.length > PADDING_CHARS;
  let filler = 0;
  let most = 1;
  for (const raw of norm.split(SENTENCE)) {
    const s = raw
      .replace(/[^\p{L}\p{N}_ ]+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (s.length === 0) continue;
    const n = (seen.get(s) ?? 0) + 1;
    seen.set(s, n);
    if (s.length >= REPEAT_MIN_CHARS) most = Math.max(most, n);
    if (n > 1 || !mayPad) continue;
    let fresh = false;
    for (const c of claimsOf(raw)) {
      const k = claimKey(c);
      if (said.has(k)) continue;
      said.add(k);
      fresh = true;
    }
    if (!fresh) filler += s.length;
  }
  if (most >= 2) flags.push({ kind: 'repetition', detail: `a sentence repeated ${most} times` });
  if (filler > PADDING_CHARS)
    flags.push({
      kind: 'padding',
      detail: `${filler} characters of filler (sentences that add no new checkable claim)`,
    });
  return flags;
}

const MEMO_LIMIT = 4096;
let memo = new Map<string, readonly ManipulationFlag[]>();
const NONE: readonly ManipulationFlag[] = Object.freeze([]);

/**
 * The manipulation flags of a pitch text (empty when none), shared and frozen: remembered per text
 * (bounded, like the claims memo). Never throws.
 */
export function manipulationFlags(text: string): readonly ManipulationFlag[] {
  let v = memo.get(text);
  if (v !== undefined) return v;
  const f = compute(text);
  v = f.length === 0 ? NONE : Object.freeze(f.map((x) => Object.freeze(x)));
  if (memo.size >= MEMO_LIMIT) memo = new Map();
  memo.set(text, v);
  return v;
}

/** Longest claim-free opening shown for a pitch that makes no checkable claim at all. */
export const OPENING_CHARS = 200;

/**
 * The pitch as a model judge sees it (docs/LLM.md "Hardening": length normalisation): only its sentences
 * that add a checkable claim not made before, in order, in their own words; filler, praise and restated
 * facts are left out, so length and repetition cannot sway a model. A pitch without any claim shows its
 * first sentence (at most {@link OPENING_CHARS} characters). Never throws.
 */
export function substantiveText(text: string): string {
  const said = new Set<string>();
  const kept: string[] = [];
  let first = '';
  for (const raw of text.split(SENTENCE)) {
    const s = raw.trim();
    if (s.length === 0) continue;
    if (first === '') first = s;
    let fresh = false;
    for (const c of claimsOf(s)) {
      const k = claimKey(c);
      if (said.has(k)) continue;
      said.add(k);
      fresh = true;
    }
    if (fresh) kept.push(s);
  }
  return kept.length > 0 ? `${kept.join('. ')}.` : first.slice(0, OPENING_CHARS);
}

/** "instructions addressed to the judge; a sentence repeated 3 times" (public). */
export const flagsText = (flags: readonly ManipulationFlag[]): string => flags.map((f) => f.detail).join('; ');
