/**
 * The LLM judge, an {@link AsyncJudge} built for adversarial pitches:
 * - the prompt quotes pitches inside escaped, nonce-tagged delimiters, anonymises seats with shuffled
 *   aliases, randomises their order and gives a true fact sheet (src/agents/llm-prompt.ts);
 * - the reply is a zod-validated rubric (need, urgency, specificity_truthfulness, fairness_coalition in
 *   [0, 1] per seat + rationale); a reply that does not score every seat exactly once is a failure;
 * - hybrid, hardened against weak models (docs/LLM.md "Hardening"): the model reads each pitch in a
 *   language-neutral form (the claims the grounded checker read, src/agents/llm-prompt.ts), never the
 *   player's words; every call is asked in both orders and two orders that disagree on the best seat
 *   count as a tie (position bias); only pitches the grounded judge finds eligible can win (a verified
 *   claim, none fabricated, no manipulation flag: docs/RULES.md §6.4), and the model only orders the
 *   contenders — eligible pitches within CONTEST_BAND (0.10) of the best grounded one — moving each by
 *   its relative preference bounded by ±MODEL_MOVE_MAX (0.05), so a larger grounded lead always stands;
 *   ties are broken by the grounded score, then a draw;
 * - no call that cannot change the result ({@link modelSkip}): with fewer than two contenders, or a pitch
 *   that addresses the judge (instructions, verdicts), the grounded decision stands without a call
 *   (`withoutModel`, which the round host asks before judging off the match lock);
 * - panel: several models and/or samples, median per seat;
 * - on timeout or error of every call the rule judge's decision stands, with `meta.fallback` saying why
 *   (public: the round post shows it, src/present/render.ts `judgeText`).
 * The returned decision carries model, prompt version and raw scores in `meta`; the host stores it in
 * the round_closed event, so replay never calls the model. Never throws.
 */
import type { JudgeDecision, JudgeSeatScore, LabId, MatchState, Pitch } from '../engine/types.js';
import type { LlmCaller, LlmUsage } from '../llm/types.js';
import { rng as seededRng } from '../engine/rng.js';
import { JUDGE_BONUS_MIN, mayWin, ruleJudge } from '../engine/judge/rule-judge.js';
import { manipulationFlags } from '../engine/judge/manipulation.js';
import { JUDGE_BONUS_MAX, type AsyncJudge, type SyncJudge } from '../engine/judge/types.js';
import {
  buildJudgePrompt,
  JudgeReplySchema,
  JUDGE_PROMPT_VERSION,
  randomArrangement,
  type Arrangement,
} from './llm-prompt.js';
import {
  boundedMoves,
  combinePanel,
  CONTEST_BAND,
  MODEL_MOVE_MAX,
  pairPreference,
  readReply,
  type OrderedPair,
  type RunSeatScore,
} from './panel.js';

/** `JudgeDecision.judgeId` of a decision the LLM judge made; on fallback the rule judge's id stays and `meta.intendedJudge` is this. */
export const LLM_JUDGE_ID = 'llm_judge_v1';

/** Options of {@link createLlmJudge}. */
export interface LlmJudgeOptions {
  client: LlmCaller;
  /** Judge models (≥ 1); more than one, or samples > 1, makes a panel (median per seat). */
  models: string[];
  /** Calls per model (default 1). */
  samples?: number;
  /** Default 0. */
  temperature?: number;
  /** Deadline for the whole judgement, ms (default 18 000, inside the host's 20 s); past it the fallback decides. */
  timeoutMs?: number;
  /** Grounded judge run alongside and used on failure (default: the rule judge). */
  fallback?: SyncJudge;
  /** Randomness for aliases, order, nonces and tie-breaks (default Math.random: the decision is stored, not replayed). */
  rng?: () => number;
  /** Fix order and aliases (the benchmark swaps orders with it); default random per call. */
  arrange?: (labs: LabId[], rng: () => number) => Arrangement;
  /** Match whose token budget pays (string, or derived from the state); default none. */
  matchId?: string | ((state: MatchState) => string | null);
  /**
   * How the calls become the decision: default {@link HARDENED} (both orders, bounded move, grounded
   * eligibility; see the file comment). The benchmark's "before" column passes the judge-v1 combination
   * (src/eval/judge-v1.ts).
   */
  combination?: JudgeCombination;
}

/** One call of the panel as stored in `meta.runs` (rationales are private: never post them). */
export interface JudgeRunMeta {
  model: string;
  ok: boolean;
  code?: string;
  message?: string;
  latencyMs: number;
  usage: LlmUsage | null;
  order: LabId[];
  alias: Record<LabId, string>;
  scores?: Record<LabId, RunSeatScore>;
  summary?: string;
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const r4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** Latest pitch of each judged seat (the rule decision lists the judged seats, RULES §6). */
function judgedPitches(state: MatchState, labs: readonly LabId[]): Pitch[] {
  return labs.flatMap((lab) => state.pitches.filter((p) => p.lab === lab && p.round === state.round).slice(-1));
}

/** Cap for a seat from the grounded judge: min(rule score, 1 − fabricated) when any claim is fabricated, else none. */
export function fabricationCap(rule: JudgeSeatScore | undefined): number | null {
  if (!rule || rule.parts.fabricatedClaims <= 0) return null;
  return r4(Math.min(rule.score, 1 - rule.parts.fabricatedClaims));
}

/** One judgement's calls and what a {@link JudgeCombination} decides from. */
export interface JudgeRound {
  state: MatchState;
  /** The grounded judge's decision; its scores list the judged seats. */
  rule: JudgeDecision;
  /** The judged pitches: each judged seat's latest of the round. */
  pitches: Pitch[];
  /** Every call, in run order (a both-orders combination: forward, reversed, forward, …); at least one ok. */
  done: JudgeRunMeta[];
  /** Randomness for tie-breaks. */
  draw: () => number;
  /** The judge's settings, recorded in `meta`. */
  models: string[];
  samples: number;
  temperature: number;
}

/** How the model's calls and the grounded decision make the round's decision. */
export interface JudgeCombination {
  /** Prompt version the model is asked with (llm-prompt.ts). */
  promptVersion: string;
  /** Each run is asked twice: in an order, then reversed (same aliases). */
  bothOrders: boolean;
  decide(r: JudgeRound): JudgeDecision;
  /** Why no model answer could change this combination's decision on the round (then no call is made), or null. */
  skip?(state: MatchState, rule: JudgeDecision, pitches: readonly Pitch[]): ModelSkip | null;
}

/** Build the LLM judge. */
export function createLlmJudge(opts: LlmJudgeOptions): AsyncJudge {
  const grounded = opts.fallback ?? ruleJudge;
  const draw = opts.rng ?? Math.random;
  const runs = opts.models.flatMap((m) => Array.from({ length: Math.max(1, opts.samples ?? 1) }, () => m));
  const combination = opts.combination ?? HARDENED;

  async function callOnce(
    state: MatchState,
    model: string,
    pitches: Pitch[],
    rule: JudgeDecision,
    signal: AbortSignal,
    matchId: string | null,
    arrangement: Arrangement,
  ): Promise<JudgeRunMeta> {
    const prompt = buildJudgePrompt(state, pitches, rule, arrangement, draw, combination.promptVersion);
    const base = { model, order: arrangement.order, alias: arrangement.alias };
    const res = await opts.client.structured({
      role: 'judge',
      model,
      messages: prompt.messages,
      schema: JudgeReplySchema,
      name: 'arena_verdict',
      temperature: opts.temperature ?? 0,
      matchId,
      signal,
    });
    if (!res.ok)
      return { ...base, ok: false, code: res.code, message: res.message, latencyMs: res.latencyMs, usage: null };
    const read = readReply(res.value, arrangement);
    if (!read.ok)
      return { ...base, ok: false, code: read.code, message: read.message, latencyMs: res.latencyMs, usage: res.usage };
    return {
      ...base,
      ok: true,
      latencyMs: res.latencyMs,
      usage: res.usage,
      scores: read.seats,
      summary: res.value.summary.slice(0, 400),
    };
  }

  /** The grounded decision when the combination says no model answer could change it ({@link modelSkip}), else null. Pure. */
  function withoutModel(state: MatchState): { decision: JudgeDecision | null } | null {
    if (!combination.skip) return null;
    const rule = grounded.judge(state);
    if (!rule || rule.scores.length === 0) return { decision: rule };
    const skip = combination.skip(
      state,
      rule,
      judgedPitches(
        state,
        rule.scores.map((s) => s.lab),
      ),
    );
    return skip
      ? {
          decision: {
            ...rule,
            reason: `${rule.reason} The LLM judge was not asked: ${SKIP_TEXT[skip]}.`,
            meta: { ...rule.meta, llmNotAsked: skip },
          },
        }
      : null;
  }

  return {
    id: LLM_JUDGE_ID,
    withoutModel,
    async judge(state: MatchState, signal?: AbortSignal): Promise<JudgeDecision | null> {
      let rule: JudgeDecision | null = null;
      try {
        const pre = withoutModel(state);
        if (pre) return pre.decision;
        rule = grounded.judge(state);
        if (!rule || rule.scores.length === 0) return rule;
        const pitches = judgedPitches(
          state,
          rule.scores.map((s) => s.lab),
        );
        const deadline = AbortSignal.timeout(opts.timeoutMs ?? 18_000);
        const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
        const matchId = typeof opts.matchId === 'function' ? opts.matchId(state) : (opts.matchId ?? null);
        const r = rule;
        const labs = pitches.map((p) => p.lab);
        // Both orders: each run is asked again with the same aliases, positions reversed.
        const calls = runs.flatMap((model) => {
          const a = opts.arrange ? opts.arrange(labs, draw) : randomArrangement(labs, draw);
          return combination.bothOrders
            ? [
                { model, a },
                { model, a: { order: [...a.order].reverse(), alias: a.alias } },
              ]
            : [{ model, a }];
        });
        const done = await Promise.all(calls.map((c) => callOnce(state, c.model, pitches, r, combined, matchId, c.a)));
        if (done.some((d) => d.ok)) {
          return combination.decide({
            state,
            rule,
            pitches,
            done,
            draw,
            models: opts.models,
            samples: opts.samples ?? 1,
            temperature: opts.temperature ?? 0,
          });
        }
        const first = done[0];
        // Only the code goes public: a model's raw reply may quote the fact sheet (kept in `runs`, not posted);
        // a spent token budget also says which one (our own sentence's scope, never model text).
        const scope =
          first?.code === 'budget_exhausted'
            ? /^llm_budget_spent \((deployment|channel|match)\)/.exec(first.message ?? '')?.[1]
            : undefined;
        const why = scope
          ? `budget_exhausted: the ${scope === 'deployment' ? "bot's daily" : scope === 'channel' ? "channel's daily" : "match's"} LLM token budget is spent`
          : first?.code;
        return withFallback(
          rule,
          why ?? 'no judge model configured',
          first?.code ?? 'error',
          done,
          combination.promptVersion,
        );
      } catch (e) {
        // A bug here must not stall the round: the grounded decision stands.
        const message = e instanceof Error ? e.message : String(e);
        return rule
          ? withFallback(rule, 'error', 'error', [], combination.promptVersion, message.slice(0, 200))
          : safeRule(grounded, state);
      }
    },
  };
}

/** Winner's bonus: the minimum plus half its lead over the runner-up, within the judge's bounds (4 dp). */
function pitchBonus(winner: JudgeSeatScore | null, others: readonly JudgeSeatScore[]): number {
  if (!winner) return 0;
  const runnerUp = others.length ? Math.max(...others.map((s) => s.score)) : 0;
  return r4(clamp(JUDGE_BONUS_MIN + (winner.score - runnerUp) / 2, JUDGE_BONUS_MIN, JUDGE_BONUS_MAX));
}

/**
 * A decision of this judge from a combination's result: the winner's bonus ({@link pitchBonus}); `meta` records
 * the prompt version and settings, then `extra` (the combination's own scores), the grounded scores and every call.
 */
export function llmDecision(
  r: JudgeRound,
  promptVersion: string,
  d: { winner: JudgeSeatScore | null; scores: JudgeSeatScore[]; others: readonly JudgeSeatScore[]; reason: string },
  extra: Record<string, unknown>,
): JudgeDecision {
  const rule = {
    judgeId: r.rule.judgeId,
    winner: r.rule.winner,
    scores: Object.fromEntries(r.rule.scores.map((s) => [s.lab, s.score])),
  };
  return {
    round: r.state.round,
    judgeId: LLM_JUDGE_ID,
    winner: d.winner?.lab ?? null,
    scores: d.scores,
    bonus: pitchBonus(d.winner, d.others),
    reason: d.reason,
    meta: {
      promptVersion,
      models: r.models,
      samples: r.samples,
      temperature: r.temperature,
      ...extra,
      rule,
      runs: r.done,
      fallback: null,
    },
  };
}

/**
 * The hardened hybrid (the default; see the file comment): final = grounded score + the model's bounded
 * move, the model's preference read among the contenders alone; only grounded-eligible pitches win; ties by
 * grounded score, then a draw. The calls come in pairs (forward, reversed) in run order.
 */
function decideHardened(r: JudgeRound): JudgeDecision {
  const { state, rule, pitches, done, draw } = r;
  const labs = rule.scores.map((s) => s.lab);
  const name = (lab: LabId) => state.labs[lab]?.publicName ?? lab;
  const pairs: OrderedPair[] = [];
  for (let i = 0; i + 1 < done.length; i += 2)
    pairs.push({
      forward: done[i]!.ok ? done[i]!.scores! : null,
      reverse: done[i + 1]!.ok ? done[i + 1]!.scores! : null,
    });
  const grounded = new Map(rule.scores.map((s) => [s.lab, s]));
  const eligible = new Set(eligibleLabs(state, pitches));
  const close = contenders(state, rule, pitches);
  const read = pairs.map((p) => pairPreference(close, p));
  const moves: Record<LabId, number> = {
    ...Object.fromEntries(labs.map((l) => [l, 0])),
    ...boundedMoves(
      close,
      read.map((x) => x.prefs),
    ),
  };
  const combined = combinePanel(
    labs,
    done.filter((r) => r.ok && r.scores).map((r) => r.scores!),
  );
  const scores: JudgeSeatScore[] = labs.map((lab) => {
    const g = grounded.get(lab)!;
    const cap = fabricationCap(g);
    const raw = r4(clamp(g.score + moves[lab]!, 0, 1));
    const score = cap === null ? raw : Math.min(raw, cap);
    const m = moves[lab]!;
    return {
      lab,
      score,
      parts: g.parts,
      reason:
        `${name(lab)}: ${score.toFixed(2)} = grounded ${g.score.toFixed(2)} ${m < 0 ? '−' : '+'} LLM ${Math.abs(m).toFixed(2)}` +
        ` (LLM ${combined[lab]!.score.toFixed(2)})${eligible.has(lab) ? '' : ', cannot win'}`,
    };
  });
  const g = (lab: LabId) => grounded.get(lab)!.score;
  const order = scores.filter((s) => eligible.has(s.lab)).sort((a, b) => b.score - a.score || g(b.lab) - g(a.lab));
  let winner: JudgeSeatScore | null = null;
  if (order.length > 0 && order[0]!.score > 0) {
    const tied = order.filter((s) => s.score === order[0]!.score && g(s.lab) === g(order[0]!.lab));
    winner = tied[Math.floor(draw() * tied.length) % tied.length]!;
  }
  const others = scores.filter((s) => s !== winner);
  const runnerUp = others.length ? Math.max(...others.map((s) => s.score)) : 0;
  const consistent = read.filter((x) => x.consistent).length;
  const how = `${consistent} of ${pairs.length} both-order judgement${pairs.length === 1 ? '' : 's'} consistent`;
  const reason = winner
    ? `${name(winner.lab)} wins the pitch: ${winner.score.toFixed(2)}${others.length ? ` vs ${runnerUp.toFixed(2)}` : ', the only pitch'} (the LLM ordered the ${close.length} pitches within ${CONTEST_BAND.toFixed(2)} of the best grounded one, moving each at most ±${MODEL_MOVE_MAX.toFixed(2)}; ${how}).`
    : `No pitch earned the bonus: none made a verified claim without a fabricated one or a manipulation flag (${how}).`;
  const llmScores = Object.fromEntries(labs.map((l) => [l, combined[l]!]));
  return llmDecision(
    r,
    JUDGE_PROMPT_VERSION,
    { winner, scores, others, reason },
    { hardened: true, llmScores, moves, contenders: close, consistentPairs: consistent },
  );
}

/** Why the model was not asked about a round (`meta.llmNotAsked`). */
export type ModelSkip = 'one_eligible' | 'clear_lead' | 'addressed_judge';

const SKIP_TEXT: Record<ModelSkip, string> = {
  one_eligible: 'fewer than two pitches could win',
  clear_lead: `the best pitch that could win leads every other by more than ${CONTEST_BAND.toFixed(2)}, more than the LLM may move`,
  addressed_judge: 'a pitch addressed the judge',
};

/** Labs whose pitch can win (RULES §6.4: a verified claim, none fabricated, no manipulation flag), in `pitches` order. */
export function eligibleLabs(state: MatchState, pitches: readonly Pitch[]): LabId[] {
  return pitches.filter((p) => mayWin(state, p)).map((p) => p.lab);
}

/**
 * The contenders of a round (docs/LLM.md "Hardening"): the pitches that can win whose grounded score is
 * within {@link CONTEST_BAND} of the best such pitch, in `pitches` order. Only they are ordered by the
 * model, each moved at most ±{@link MODEL_MOVE_MAX}, so a grounded lead larger than the band always stands.
 */
export function contenders(state: MatchState, rule: JudgeDecision, pitches: readonly Pitch[]): LabId[] {
  const g = new Map(rule.scores.map((s) => [s.lab, s.score]));
  const can = eligibleLabs(state, pitches);
  const best = Math.max(...can.map((l) => g.get(l) ?? 0));
  return can.filter((l) => best - (g.get(l) ?? 0) <= CONTEST_BAND + 1e-9);
}

/**
 * Why no model answer could change the hardened decision on `pitches`, or null when the model is asked:
 * a pitch addresses the judge (instructions, a verdict: the round is judged on the grounded scores alone),
 * fewer than two pitches can win, or only one is a contender (see {@link contenders}). Checks of the text
 * and the state only, so they run before any call. Pure.
 */
export function modelSkip(state: MatchState, rule: JudgeDecision, pitches: readonly Pitch[]): ModelSkip | null {
  if (pitches.some((p) => manipulationFlags(p.text).some((f) => f.kind === 'instruction' || f.kind === 'verdict')))
    return 'addressed_judge';
  if (eligibleLabs(state, pitches).length < 2) return 'one_eligible';
  return contenders(state, rule, pitches).length < 2 ? 'clear_lead' : null;
}

/**
 * The hardened hybrid: claims-only prompt, both orders, contenders moved at most ±0.05, grounded
 * eligibility, no call that cannot change the result (the default).
 */
export const HARDENED: JudgeCombination = {
  promptVersion: JUDGE_PROMPT_VERSION,
  bothOrders: true,
  decide: decideHardened,
  skip: modelSkip,
};

/** `meta.fallback` is public (posted to the channel): a code only, never model text. */
function withFallback(
  rule: JudgeDecision,
  why: string,
  code: string,
  runs: JudgeRunMeta[],
  promptVersion: string,
  detail?: string,
): JudgeDecision {
  return {
    ...rule,
    meta: {
      ...rule.meta,
      fallback: `LLM judge ${why}`.slice(0, 240),
      fallbackCode: code,
      ...(detail ? { fallbackDetail: detail } : {}),
      intendedJudge: LLM_JUDGE_ID,
      promptVersion,
      runs,
    },
  };
}

function safeRule(judge: SyncJudge, state: MatchState): JudgeDecision | null {
  try {
    return judge.judge(state);
  } catch {
    return null;
  }
}

/** Deterministic rng for tests and the benchmark: `rng(seed, round, 'llm-judge')` (src/engine/rng.ts). */
export const seededJudgeRng = (seed: number | string, round: number): (() => number) =>
  seededRng(seed, round, 'llm-judge');
