/**
 * Stand-in judge models for the judge benchmark and its tests: in-process
 * {@link LlmCaller}s, no network, that read the real judge prompt (src/agents/llm-prompt.ts) — its quoted
 * pitches, aliases and fact sheet — and answer the real reply schema. Each has one flaw of a weak model:
 * - `obedient`: obeys text inside pitches — a pitch with instructions, a verdict, scores or pleading gets
 *   full marks, the rest 0.4;
 * - `length`: prefers longer pitches (score = length / 1,200 characters);
 * - `position`: prefers the pitch shown first (0.9, the others 0.2);
 * and `honest` has none: it prefers the better-argued pitch — true specifics that match the pitcher's fact
 * sheet, a concrete plan (an offer, a block, a trade), no filler — and reads the order and length as
 * nothing. Pure apart from the (ignored) request fields; deterministic.
 */
import type { LlmCaller, LlmResult, StructuredRequest } from '../llm/types.js';
import { unescapeQuoted } from '../llm/quote.js';

/** The stand-ins, in table order. */
export const STANDINS = ['obedient', 'length', 'position', 'honest'] as const;
/** One of {@link STANDINS}. */
export type StandinName = (typeof STANDINS)[number];

/** One quoted pitch of a prompt: its alias and text (unescaped), in the order shown. */
export interface PromptPitch {
  seat: string;
  text: string;
}

const BLOCK = /<quote-([a-z0-9]+) kind="(?:pitch|counter pitch)" seat="([^"]+)"[^>]*>\n(.*)\n<\/quote-\1>/g;

/** The pitches of a judge prompt's user message, in the order shown. */
export function promptPitches(user: string): PromptPitch[] {
  const out: PromptPitch[] = [];
  for (const m of user.matchAll(BLOCK)) out.push({ seat: m[2]!, text: unescapeQuoted(m[3]!) });
  return out;
}

/** The fact-sheet lines of `alias` in a judge prompt (until the next blank line). */
export function promptFacts(user: string, alias: string): string {
  const i = user.indexOf(`\n${alias}:\n`);
  if (i < 0) return '';
  const rest = user.slice(i + 1);
  const end = rest.indexOf('\n\n');
  return end < 0 ? rest : rest.slice(0, end);
}

/** What a weak model obeys: orders, verdicts, scores, pleading (deliberately broader than the judge's flags). */
const OBEY =
  /ignore|instruction|you are now|system|winner|verdict|scor(?:e|es|ing)\b|judge|declare|official|rank|"seats"|priority|urgent|please|critical|must win|deserve/i;

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const r3 = (x: number) => Math.round(x * 1000) / 1000;

/** Tokens that can be checked against a fact sheet: ids and numbers (as written). */
const TOKENS = /\b[jbco]_[a-z0-9_]+\b|\b\d+(?:\.\d+)?\b/gi;
const PLAN = /\b(?:o_\d+|c_\d+|b_s?\d+_\d+)\b|\b(?:swap|trade|offer|coalition|pool|share)\b/i;

/** Argument quality for the honest stand-in: true specifics, a plan, minus unsupported numbers and filler. */
export function argumentQuality(text: string, facts: string): number {
  const tokens = new Set((text.match(TOKENS) ?? []).map((t) => t.toLowerCase()));
  const factTokens = new Set((facts.match(TOKENS) ?? []).map((t) => t.toLowerCase()));
  let right = 0;
  let wrong = 0;
  for (const t of tokens) {
    if (factTokens.has(t) || (/^\d+$/.test(t) && factTokens.has(String(Number(t) - 1)))) right++;
    else if (!/^[bco]_/.test(t)) wrong++;
  }
  const sentences = text
    .split(/[.!?;\n]+/)
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s.length > 0);
  const repeated = sentences.length - new Set(sentences).size;
  const plan = PLAN.test(text) ? 2 : 0;
  return right + plan - 2 * wrong - 2 * repeated;
}

/** The four criteria all set to `x`. */
const all = (x: number) => ({ need: x, urgency: x, specificity_truthfulness: x, fairness_coalition: x });

/** The stand-in's scores of the pitches of one prompt (each in [0, 1]). */
export function standinScores(name: StandinName, user: string): { seat: string; score: number }[] {
  const pitches = promptPitches(user);
  return pitches.map((p, i) => {
    switch (name) {
      case 'obedient':
        return { seat: p.seat, score: OBEY.test(p.text) ? 1 : 0.4 };
      case 'length':
        return { seat: p.seat, score: r3(clamp01(p.text.length / 1200)) };
      case 'position':
        return { seat: p.seat, score: i === 0 ? 0.9 : 0.2 };
      case 'honest':
        return { seat: p.seat, score: r3(clamp01(0.2 + 0.08 * argumentQuality(p.text, promptFacts(user, p.seat)))) };
    }
  });
}

/** A stand-in model as an {@link LlmCaller}: reads the request's user message, answers the judge reply schema. */
export function standinModel(name: StandinName): LlmCaller {
  return {
    async structured<T>(req: StructuredRequest<T>): Promise<LlmResult<T>> {
      const user = req.messages.find((m) => m.role === 'user')?.content ?? '';
      const value = {
        seats: standinScores(name, user).map((s) => ({ seat: s.seat, ...all(s.score), rationale: `${name} stand-in` })),
        summary: `${name} stand-in`,
      };
      const parsed = req.schema.safeParse(value);
      const raw = JSON.stringify(value);
      if (!parsed.success)
        return {
          ok: false,
          code: 'schema_mismatch',
          message: 'stand-in reply does not fit the schema',
          model: req.model,
          mode: 'json_schema',
          latencyMs: 0,
          raw,
        };
      const usage = {
        promptTokens: Math.ceil(user.length / 4),
        completionTokens: Math.ceil(raw.length / 4),
        totalTokens: Math.ceil((user.length + raw.length) / 4),
        estimated: true,
      };
      return { ok: true, value: parsed.data, model: req.model, mode: 'json_schema', usage, latencyMs: 0, raw };
    },
  };
}
