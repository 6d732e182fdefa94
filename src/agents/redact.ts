/**
 * What an LLM seat writes for others to read (messages, offer notes, coalition notes, pitches) never carries
 * its own private figures, whatever a message asked of it: each is replaced by {@link REDACTED} before the
 * host logs the action, and counted. Private figures (docs/RULES.md §1; README "What stays private"): its
 * budget and escrow, its jobs' values (and their sum), and, of its pending jobs, deadlines (also as rounds
 * left), GPU-hours required, still needed and allocated (and the sum still needed).
 *
 * A number is a figure when it stands alone (not inside an id such as `b_0_2` or `lab_1`); decimals with a
 * point or a comma. Credit figures are distinctive and replaced wherever they appear, in every rounding
 * (2 and 1 decimals, whole credits down, up or to nearest); below 10 credits only next to a word for credits.
 * Deadlines and hours are small numbers that public facts share (round numbers, block sizes), so they are
 * replaced only next to a word that makes them a deadline ("round 4", "due 4", "Runde 4", "第4轮", "4 rounds
 * left") or an amount of hours ("12 GPU-hours", "needs 12", "12 horas", "12小时"), in the languages of
 * {@link ROUND_WORDS} and {@link HOUR_WORDS}. Numbers written as words are not recognised.
 */
import type { Observation } from '../engine/views.js';

/** What replaces a private figure. */
export const REDACTED = '[private]';

/** A seat's private figures (see the file comment). */
export interface PrivateFigures {
  /** Credits: budget, escrow, job values and their sum. */
  money: number[];
  /** Rounds: deadlines of pending jobs and the rounds left until them. */
  rounds: number[];
  /** GPU-hours of pending jobs: required, still needed, allocated; the sum still needed. */
  hours: number[];
}

const r2 = (x: number) => Math.round(x * 100) / 100;

/** The private figures of the seat whose observation this is. */
export function privateFigures(obs: Observation): PrivateFigures {
  const values = obs.self.jobs.map((j) => r2(j.baseValue * j.urgencyMultiplier));
  const pending = obs.self.jobs.filter((j) => j.outcome === 'pending');
  const unmet = pending.map((j) => Math.max(0, j.gpuHoursRequired - j.allocatedHours));
  return {
    money: [obs.self.budget, obs.self.escrow, ...values, values.reduce((a, v) => a + v, 0)].filter((x) => x > 0),
    rounds: pending.flatMap((j) => [j.deadlineRound, j.deadlineRound - obs.round]).filter((x) => x >= 0),
    hours: [
      ...pending.flatMap((j) => [j.gpuHoursRequired, j.allocatedHours]),
      ...unmet,
      unmet.reduce((a, v) => a + v, 0),
    ].filter((x) => x > 0),
  };
}

// Words that make a number next to them a deadline or an amount of hours (lower case; English, Portuguese,
// Spanish, German, French, Italian, Dutch, Polish, Russian, Chinese, Japanese, Korean, Vietnamese).
/** Deadline and round words. */
export const ROUND_WORDS = [
  'round',
  'rounds',
  'rnd',
  'deadline',
  'due',
  'turn',
  'rodada',
  'rodadas',
  'prazo',
  'ronda',
  'rondas',
  'turno',
  'turnos',
  'plazo',
  'vence',
  'runde',
  'runden',
  'frist',
  'fällig',
  'tour',
  'tours',
  'manche',
  'échéance',
  'délai',
  'scadenza',
  'ronde',
  'rondes',
  'termijn',
  'runda',
  'rundy',
  'rund',
  'termin',
  'раунд',
  'раунда',
  'раундов',
  'раунде',
  'срок',
  'ход',
  '轮',
  '回合',
  '截止',
  '期限',
  'ラウンド',
  '締め切り',
  '締切',
  '라운드',
  '마감',
  'vòng',
  'hạn',
];
/** Hour and need words. */
export const HOUR_WORDS = [
  'h',
  'hr',
  'hrs',
  'hour',
  'hours',
  'gpu-h',
  'gpu-hours',
  'gpu hours',
  'gpuh',
  'need',
  'needs',
  'needed',
  'missing',
  'short',
  'hora',
  'horas',
  'preciso',
  'precisa',
  'faltam',
  'necesito',
  'necesita',
  'faltan',
  'stunde',
  'stunden',
  'std',
  'brauche',
  'braucht',
  'fehlen',
  'heure',
  'heures',
  'besoin',
  'manque',
  'ore',
  'servono',
  'mancano',
  'uur',
  'uren',
  'nodig',
  'godzin',
  'godziny',
  'potrzeba',
  'час',
  'часа',
  'часов',
  'нужно',
  'не хватает',
  '小时',
  '需要',
  '还差',
  '時間',
  '必要',
  '시간',
  '필요',
  'giờ',
  'cần',
];
/** Credit words (context of small credit figures). */
const MONEY_WORDS = [
  'credit',
  'credits',
  'cr',
  'budget',
  '$',
  '€',
  'crédito',
  'créditos',
  'orçamento',
  'presupuesto',
  'kredit',
  'kredite',
  'crédit',
  'crédits',
  'crediti',
  'кредит',
  'кредитов',
  'бюджет',
  '积分',
  '预算',
  'クレジット',
  '予算',
  '크레딧',
  '예산',
];

const escapeRx = (s: string) => s.replace(/[.*+?^${}()|[\]\\$]/g, '\\$&');
/** A word of `words` as a whole word (scripts without spaces match inside text). */
function wordsRx(words: readonly string[]): RegExp {
  const alts = words.map((w) =>
    /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}$€]/u.test(w)
      ? escapeRx(w)
      : `(?<![\\p{L}\\p{N}])${escapeRx(w)}(?![\\p{L}\\p{N}])`,
  );
  return new RegExp(alts.join('|'), 'iu');
}
const ROUND_RX = wordsRx(ROUND_WORDS);
const HOUR_RX = wordsRx(HOUR_WORDS);
const MONEY_RX = wordsRx(MONEY_WORDS);

/** A standalone number: not after a Latin, Greek or Cyrillic letter, digit, `_`, or a decimal mark; not before a digit or `_`. */
const NUMBER =
  /(?<![\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{N}_]|\d[.,])\d+(?:[.,]\d+)?(?![\p{N}_]|[.,]\d)/gu;

/** The text around a number: up to 3 words before it and 2 after (or 12 characters of scripts without spaces). */
function around(text: string, start: number, end: number): { before: string; after: string } {
  const before = text
    .slice(Math.max(0, start - 40), start)
    .split(/\s+/)
    .slice(-4)
    .join(' ');
  const after = text
    .slice(end, end + 30)
    .split(/\s+/)
    .slice(0, 3)
    .join(' ');
  return { before: before.slice(-24), after: after.slice(0, 20) };
}

const same = (a: number, b: number) => Math.abs(a - b) < 1e-9;
/** Whether `x` as written is credit figure `f` in some rounding. */
const isMoney = (x: number, f: number) =>
  same(x, r2(f)) ||
  same(x, Math.round(f * 10) / 10) ||
  same(x, Math.floor(f)) ||
  same(x, Math.ceil(f)) ||
  same(x, Math.round(f));

/** `text` with every private figure of `f` replaced by {@link REDACTED}, and how many were replaced. */
export function redactFigures(text: string, f: PrivateFigures): { text: string; redactions: number } {
  let redactions = 0;
  const out = text.replace(NUMBER, (token, offset: number) => {
    const x = Number(token.replace(',', '.'));
    if (!Number.isFinite(x)) return token;
    const { before, after } = around(text, offset, offset + token.length);
    const near = (rx: RegExp) => rx.test(before) || rx.test(after);
    const money = f.money.some((m) => isMoney(x, m) && (m >= 10 || near(MONEY_RX)));
    const round = Number.isInteger(x) && f.rounds.some((r) => same(x, r)) && near(ROUND_RX);
    const hours = f.hours.some((hh) => same(x, hh)) && near(HOUR_RX);
    if (!money && !round && !hours) return token;
    redactions++;
    return REDACTED;
  });
  return { text: out, redactions };
}
