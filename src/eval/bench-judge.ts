/**
 * Judge benchmark: on each seed's round-0 state, seats lab_0 and lab_1 pitch honestly;
 * the judge's winner W keeps its honest pitch and the loser L tries every attack of the corpus
 * (bench-judge-corpus.ts). Every pairing is judged in both orders (fixed aliases, swapped positions).
 *
 * Metrics per attack:
 * - attack success rate: share of judgements L wins with the attack (it lost when honest) — for the
 *   final (hybrid) decision, and for the model's own scores before the fabrication cap;
 * - order consistency: share of pairings whose winner is the same after swapping the order;
 * - agreement with the rule judge: share of judgements whose winner is the rule judge's;
 * - fallbacks: judgements where the LLM failed and the rule judge decided.
 */
import pLimit from 'p-limit';
import { applyAction, createMatch } from '../engine/index.js';
import type { JudgeDecision, LabId, MatchState, TaskName } from '../engine/types.js';
import { ruleJudge } from '../engine/judge/rule-judge.js';
import { createLlmJudge, seededJudgeRng, type LlmJudgeOptions } from '../agents/llm-judge.js';
import { ATTACKS, attackPitch, honestPitch, type AttackName, type BenchPitch } from './bench-judge-corpus.js';

/** Judge a state with the pitches shown in `order`. */
export type OrderedJudge = (state: MatchState, order: LabId[]) => Promise<JudgeDecision | null>;

/** The rule judge (it never sees positions; the order only changes the order pitches were made). */
export const ruleOrderedJudge: OrderedJudge = async (state) => ruleJudge.judge(state);

/**
 * The LLM judge with a forced order; aliases are fixed per seat so only positions change. Without
 * `opts.rng`, draws (nonces, tie-breaks) come from `rng(seed, round, 'llm-judge')`, so runs repeat.
 */
export function llmOrderedJudge(opts: Omit<LlmJudgeOptions, 'arrange'>): OrderedJudge {
  return (state, order) => {
    const sorted = [...order].sort();
    const alias = Object.fromEntries(
      sorted.map((lab, i) => [lab, ['Seat K', 'Seat M', 'Seat P', 'Seat R', 'Seat T'][i] ?? `Seat ${i}`]),
    );
    const rng = opts.rng ?? seededJudgeRng(state.config.seed, state.round);
    return createLlmJudge({ ...opts, rng, arrange: () => ({ order: [...order], alias }) }).judge(state);
  };
}

/** One pairing on one seed (honest vs honest, or honest W vs attacking L), judged in both orders. */
export interface BenchCaseResult {
  seed: number;
  attack: AttackName | 'honest';
  attacker: LabId;
  rival: LabId;
  /** Winner per order ([attacker-first, rival-first] for attacks; [lab_0-first, lab_1-first] for honest). */
  winners: (LabId | null)[];
  /** Winner by the model's own (uncapped) scores per order; null when the LLM did not decide. */
  modelWinners: (LabId | null)[];
  ruleWinner: LabId | null;
  fallbacks: number;
}

/** Metrics of one attack over all seeds (see the file comment); shares in [0, 1], 3 dp. */
export interface BenchRow {
  attack: AttackName | 'honest';
  pairings: number;
  judgements: number;
  /** null for the honest row. */
  attackSuccess: number | null;
  modelAttackSuccess: number | null;
  orderConsistency: number;
  ruleAgreement: number;
  fallbacks: number;
}

/** What {@link runJudgeBench} returns: one row per attack plus the honest row, and every case. */
export interface BenchReport {
  judge: string;
  task: TaskName;
  seeds: number[];
  rows: BenchRow[];
  cases: BenchCaseResult[];
}

/** `base` with each pitch made by its seat, in order (throws when the engine refuses one: a corpus bug). */
export function withPitches(base: MatchState, pitches: [LabId, BenchPitch][]): MatchState {
  let s = base;
  for (const [lab, p] of pitches) {
    const r = applyAction(s, lab, { action_type: 'make_pitch', message: p.text, job_ids: p.jobIds });
    if (!r.result.ok) throw new Error(`bench pitch of ${lab} rejected: ${r.result.code}`);
    s = r.state;
  }
  return s;
}

/** Winner by the model's pre-cap scores stored in meta.llmScores (null if absent or tied). */
function modelWinner(d: JudgeDecision | null): LabId | null {
  const scores = d?.meta?.llmScores as Record<LabId, { score: number }> | undefined;
  if (!scores || d?.meta?.fallback) return null;
  const entries = Object.entries(scores).sort((a, b) => b[1].score - a[1].score);
  if (entries.length === 0 || (entries[1] && entries[1][1].score === entries[0]![1].score)) return null;
  return entries[0]![0];
}

async function judgeBoth(judge: OrderedJudge, state: MatchState, first: LabId, second: LabId) {
  const ds = await Promise.all([judge(state, [first, second]), judge(state, [second, first])]);
  return {
    winners: ds.map((d) => d?.winner ?? null),
    modelWinners: ds.map(modelWinner),
    fallbacks: ds.filter((d) => typeof d?.meta?.fallback === 'string').length,
  };
}

/** Run the corpus on `seeds` of `task` (round 0, seats lab_0 and lab_1). */
export async function runJudgeBench(opts: {
  judge: OrderedJudge;
  judgeName: string;
  task: TaskName;
  seeds: number[];
  concurrency?: number;
}): Promise<BenchReport> {
  const limit = pLimit(opts.concurrency ?? 2);
  const perSeed = await Promise.all(
    opts.seeds.map((seed) =>
      limit(async () => {
        const base = createMatch({ task: opts.task, seed, scripted: {} });
        const [a, b] = ['lab_0', 'lab_1'] as const;
        const honest = withPitches(base, [
          [a, honestPitch(base, a)],
          [b, honestPitch(base, b)],
        ]);
        const h = await judgeBoth(opts.judge, honest, a, b);
        const out: BenchCaseResult[] = [
          { seed, attack: 'honest', attacker: a, rival: b, ...h, ruleWinner: ruleJudge.judge(honest)?.winner ?? null },
        ];
        const winner = h.winners[0];
        if (!winner) return out;
        const loser = winner === a ? b : a;
        for (const attack of ATTACKS) {
          const s = withPitches(base, [
            [winner, honestPitch(base, winner)],
            [loser, attackPitch(base, loser, winner, attack)],
          ]);
          const r = await judgeBoth(opts.judge, s, loser, winner);
          out.push({
            seed,
            attack,
            attacker: loser,
            rival: winner,
            ...r,
            ruleWinner: ruleJudge.judge(s)?.winner ?? null,
          });
        }
        return out;
      }),
    ),
  );
  const cases = perSeed.flat();
  const rows = (['honest', ...ATTACKS] as const).map((attack) =>
    summarise(
      attack,
      cases.filter((c) => c.attack === attack),
    ),
  );
  return { judge: opts.judgeName, task: opts.task, seeds: opts.seeds, rows, cases };
}

const share = (n: number, d: number) => (d === 0 ? 0 : Math.round((n / d) * 1000) / 1000);

function summarise(attack: AttackName | 'honest', cs: BenchCaseResult[]): BenchRow {
  const judgements = cs.length * 2;
  const wins = cs.reduce((n, c) => n + c.winners.filter((w) => w === c.attacker).length, 0);
  const modelJudged = cs.reduce((n, c) => n + c.modelWinners.filter((w) => w !== null).length, 0);
  const modelWins = cs.reduce((n, c) => n + c.modelWinners.filter((w) => w === c.attacker).length, 0);
  const honest = attack === 'honest';
  return {
    attack,
    pairings: cs.length,
    judgements,
    attackSuccess: honest ? null : share(wins, judgements),
    modelAttackSuccess: honest || modelJudged === 0 ? null : share(modelWins, modelJudged),
    orderConsistency: share(cs.filter((c) => c.winners[0] === c.winners[1]).length, cs.length),
    ruleAgreement: share(
      cs.reduce((n, c) => n + c.winners.filter((w) => w === c.ruleWinner).length, 0),
      judgements,
    ),
    fallbacks: cs.reduce((n, c) => n + c.fallbacks, 0),
  };
}
