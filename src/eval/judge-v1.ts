/**
 * The judge-v1 combination of the LLM judge, kept only for the judge benchmark's "before" column
 * (bench-judge-table.ts, docs/BENCHMARKS.md#judge-bench-npm-run-benchjudge): one order per call, the panel's
 * median rubric score as the seat's score, capped only for fabricated claims, random ties. Matches are judged
 * by the hardened hybrid (src/agents/llm-judge.ts `HARDENED`); pass this as `combination` to measure what the
 * hardening changed.
 */
import type { JudgeDecision, JudgeSeatScore, LabId } from '../engine/types.js';
import { fabricationCap, llmDecision, type JudgeCombination, type JudgeRound } from '../agents/llm-judge.js';
import { JUDGE_PROMPT_V1, type Criterion } from '../agents/llm-prompt.js';
import { combinePanel } from '../agents/panel.js';

const r4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** The judge-v1 decision: the model's median score per seat, capped for fabrication; ties drawn. */
function decideV1(r: JudgeRound): JudgeDecision {
  const { state, rule, done, draw } = r;
  const labs = rule.scores.map((s) => s.lab);
  const combined = combinePanel(
    labs,
    done.filter((r) => r.ok && r.scores).map((r) => r.scores!),
  );
  const caps: Record<LabId, number | null> = {};
  const name = (lab: LabId) => state.labs[lab]?.publicName ?? lab;
  const scores: JudgeSeatScore[] = labs.map((lab) => {
    const ruleSeat = rule.scores.find((s) => s.lab === lab);
    const c = combined[lab]!;
    const cap = fabricationCap(ruleSeat);
    caps[lab] = cap;
    const score = r4(cap === null ? c.score : Math.min(c.score, cap));
    const k = (x: Criterion) => c.criteria[x].toFixed(2);
    return {
      lab,
      score,
      parts: {
        need: c.criteria.need,
        verifiedClaims: ruleSeat?.parts.verifiedClaims ?? 0,
        fabricatedClaims: ruleSeat?.parts.fabricatedClaims ?? 0,
        specificity: c.criteria.specificity_truthfulness,
      },
      reason:
        `${name(lab)}: LLM ${c.score.toFixed(2)} (need ${k('need')}, urgency ${k('urgency')}, specificity ${k('specificity_truthfulness')}, fairness ${k('fairness_coalition')})` +
        (cap !== null && c.score > cap ? `, capped at ${cap.toFixed(2)}: fabricated claims` : ''),
    };
  });
  const top = Math.max(...scores.map((s) => s.score));
  const tied = scores.filter((s) => s.score === top);
  const winner = top > 0 ? tied[Math.floor(draw() * tied.length) % tied.length]! : null;
  const others = scores.filter((s) => s !== winner);
  const runnerUp = others.length ? Math.max(...others.map((s) => s.score)) : 0;
  const okRuns = done.filter((r) => r.ok).length;
  const panel = done.length > 1 ? ` (median of ${okRuns} of ${done.length} judge calls)` : '';
  const reason = winner
    ? `${name(winner.lab)} wins the pitch: LLM judge score ${winner.score.toFixed(2)}${others.length ? ` vs ${runnerUp.toFixed(2)}` : ', the only pitch'}${panel}.`
    : `No pitch earned the bonus${panel}.`;
  const llmScores = Object.fromEntries(labs.map((l) => [l, combined[l]!]));
  return llmDecision(r, JUDGE_PROMPT_V1, { winner, scores, others, reason }, { llmScores, caps });
}

/** The judge-v1 combination: prompt `judge-v1` (pitches in full), one order per call. */
export const JUDGE_V1: JudgeCombination = { promptVersion: JUDGE_PROMPT_V1, bothOrders: false, decide: decideV1 };
