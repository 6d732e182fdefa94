/** Small readings of a stored judge decision shared by exports and stats. */
import type { JudgeDecision } from '../../engine/types.js';

/** The judge's order of two labs' pitches: `a` (first scored higher), `b`, `tie`; null when either was not scored. */
export function scoreOrder(d: JudgeDecision | null, labA: string, labB: string): 'a' | 'b' | 'tie' | null {
  const a = d?.scores.find((s) => s.lab === labA);
  const b = d?.scores.find((s) => s.lab === labB);
  if (!a || !b) return null;
  return a.score > b.score ? 'a' : a.score < b.score ? 'b' : 'tie';
}

/** The model(s) behind a decision (`meta.models`, joined with `+`), or null for the rule judge or a fallback. */
export function judgeModel(d: JudgeDecision): string | null {
  const models = d.meta?.models;
  if (typeof d.meta?.fallback === 'string') return null;
  return Array.isArray(models) && models.every((x) => typeof x === 'string') && models.length ? models.join('+') : null;
}

/** A label per judge for per-judge statistics: `judgeId` or `judgeId (model)`. */
export function judgeLabel(d: JudgeDecision): string {
  const model = judgeModel(d);
  return model ? `${d.judgeId} (${model})` : d.judgeId;
}
