/**
 * Zod schemas of every exported row (one JSON object per line). Each row is parsed with its schema
 * before it is written, so a file never holds a row its trainer would reject.
 *
 * - `trl`: TRL's conversational preference type (`prompt`, `chosen`, `rejected`, each a list of
 *   `{role, content}` messages; huggingface.co/docs/trl dataset_formats). TRL trainers read only those
 *   columns and tolerate others (TRL's own "trl-style" datasets carry extra columns), so rows add `source`.
 * - `openai-dpo`: OpenAI preference fine-tuning (`input.messages`, `preferred_output`,
 *   `non_preferred_output`; developers.openai.com direct-preference-optimization). No extra keys: the
 *   documented line has none, so the source is the file's.
 * - `jsonl`: every vote (or judge label) with all fields.
 * - SFT `trl`: TRL conversational language modelling (`messages`, plus `author`); SFT `openai`: OpenAI chat
 *   fine-tuning (`messages` only).
 */
import { z } from 'zod';

const message = (role: 'system' | 'user' | 'assistant') =>
  z.object({ role: z.literal(role), content: z.string().min(1) }).strict();
const userTurn = z.tuple([message('user')]);
const assistantTurn = z.tuple([message('assistant')]);

/** Who labelled a pair: people's votes, or the round's judge (AI feedback). */
export const SourceSchema = z.enum(['human', 'judge']);
export type Source = z.infer<typeof SourceSchema>;

/** `trl` preference row. */
export const TrlPreferenceRowSchema = z
  .object({ prompt: userTurn, chosen: assistantTurn, rejected: assistantTurn, source: SourceSchema })
  .strict();
/** `openai-dpo` preference row. */
export const OpenAiDpoRowSchema = z
  .object({
    input: z.object({ messages: userTurn }).strict(),
    preferred_output: assistantTurn,
    non_preferred_output: assistantTurn,
  })
  .strict();

const author = z.string().regex(/^(person|llm:.+|scripted:.+)$/);
/** A stable pseudonym (src/analytics/preference/pseudonym.ts): `u_` + 16 hex digits of an HMAC, never a platform id. */
const pseudonym = z.string().regex(/^u_[0-9a-f]{16}$/);
const unit = z.number().min(0).max(1);
const order = z.enum(['a', 'b', 'tie']);

const PitchSchema = z
  .object({
    id: z.string().regex(/^p\d+_\S+$/),
    lab: z.string(),
    kind: z.enum(['pitch', 'counter_pitch']),
    text: z.string(),
    job_ids: z.array(z.string()),
    reply_to: z.string().nullable(),
    /** The text as the ballot showed it to voters (seat names, ids and player names replaced). */
    shown_text: z.string(),
    author,
    /** The person's pseudonym when `author` is `person`, else null. */
    author_id: pseudonym.nullable(),
  })
  .strict();

const ClaimsSchema = z.object({ verified_claims: unit, fabricated_claims: unit, reason: z.string() }).strict();
const JudgeSchema = z
  .object({
    judge_id: z.string(),
    model: z.string().nullable(),
    prompt_version: z.string().nullable(),
    fallback: z.string().nullable(),
    /** The pair's winner by the judge's scores: pitch_a's or pitch_b's lab; null for equal scores or an unscored pitch. */
    winner: z.string().nullable(),
    /** The round's winner among all its pitches (may be neither lab of the pair). */
    round_winner: z.string().nullable(),
    score_a: unit.nullable(),
    score_b: unit.nullable(),
    parts_a: z.record(z.string(), unit).nullable(),
    parts_b: z.record(z.string(), unit).nullable(),
    order: order.nullable(),
  })
  .strict();
const RuleJudgeSchema = z
  .object({
    judge_id: z.string(),
    score_a: unit.nullable(),
    score_b: unit.nullable(),
    order: order.nullable(),
    claims_a: ClaimsSchema.nullable(),
    claims_b: ClaimsSchema.nullable(),
  })
  .strict();

const common = {
  match_id: z.string(),
  task: z.string(),
  round: z.number().int().nonnegative(),
  ballot_id: z.string().nullable(),
  pair: z.number().int().positive().nullable(),
  pitch_a: PitchSchema,
  pitch_b: PitchSchema,
  judge: JudgeSchema.nullable(),
  rule_judge: RuleJudgeSchema.nullable(),
};

/** `jsonl` row: one vote (`source: human`) or one judge label (`source: judge`). `choice` is relative to the canonical pair order (a = pitch_a better). */
export const JsonlPreferenceRowSchema = z.discriminatedUnion('source', [
  z
    .object({
      source: z.literal('human'),
      ...common,
      choice: z.enum(['a', 'b', 'tie', 'both_bad']),
      shown_first: z.enum(['a', 'b']),
      voter: pseudonym,
      voter_role: z.enum(['seated', 'spectator']),
      /** Whether neither pitch of the pair, as shown, still identified its author (src/voting/ballots/blind.ts). */
      anonymous: z.boolean(),
      created_at: z.string(),
    })
    .strict(),
  z.object({ source: z.literal('judge'), ...common, choice: order }).strict(),
]);
export type JsonlPreferenceRow = z.infer<typeof JsonlPreferenceRowSchema>;

/** SFT `trl` row (conversational language modelling). */
export const TrlSftRowSchema = z
  .object({
    messages: z.tuple([message('system'), message('user'), message('assistant')]),
    author,
    author_id: pseudonym.nullable(),
  })
  .strict();
/** SFT `openai` row (chat fine-tuning). */
export const OpenAiSftRowSchema = z
  .object({ messages: z.tuple([message('system'), message('user'), message('assistant')]) })
  .strict();

/** Preference export formats. */
export const PreferenceFormatSchema = z.enum(['trl', 'openai-dpo', 'jsonl']);
export type PreferenceFormat = z.infer<typeof PreferenceFormatSchema>;
/** Demonstration export formats. */
export const SftFormatSchema = z.enum(['trl', 'openai']);
export type SftFormat = z.infer<typeof SftFormatSchema>;
