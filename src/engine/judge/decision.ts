/**
 * The judge decision as it crosses boundaries: a zod schema for decisions read back from the event log,
 * and the public subset kept in the match state (every seat's observation shows it).
 */
import { z } from 'zod';
import type { JudgeDecision } from '../types.js';

const unit = z.number().finite().min(0).max(1);

/** A stored decision (`round_closed.judge`): validated on replay so a bad row cannot corrupt a match. */
export const JudgeDecisionSchema = z.object({
  round: z.number().int().nonnegative(),
  judgeId: z.string().min(1).max(64),
  winner: z.string().nullable(),
  scores: z.array(
    z.object({
      lab: z.string(),
      score: unit,
      parts: z.object({ need: unit, verifiedClaims: unit, fabricatedClaims: unit, specificity: unit }),
      reason: z.string().max(2000),
    }),
  ),
  bonus: z.number().finite().min(0).max(1),
  reason: z.string().max(2000),
  meta: z.record(z.string(), z.unknown()).optional(),
});

/** Meta keys that may be shown to every seat: no model text (rationales, raw replies) ever. */
const PUBLIC_META = ['fallback', 'fallbackCode', 'models', 'promptVersion', 'intendedJudge', 'llmNotAsked'] as const;

/**
 * The part of a decision every seat may see: scores, winner, bonus, reason, and which judge decided (or
 * why it fell back). Model rationales and raw replies, which can quote private fact sheets, stay in the
 * event log only.
 */
export function publicDecision(d: JudgeDecision): JudgeDecision {
  const { meta, ...rest } = d;
  if (!meta) return rest;
  const kept: Record<string, unknown> = {};
  for (const k of PUBLIC_META) if (meta[k] !== undefined) kept[k] = meta[k];
  return Object.keys(kept).length ? { ...rest, meta: kept } : rest;
}
