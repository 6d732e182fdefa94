/**
 * Preference statistics of folded matches (`npm run stats`, `/arena stats`, the web page): votes, pairs,
 * voters; judge–human agreement (order agreement with ties excluded, Cohen's kappa with tie as a third
 * class), per judge; human–human agreement; the voters' position bias; LLM judge vs rule judge on every
 * judged pair. Everything is computed for all votes, seated voters' votes and spectators' votes apart
 * (seated voters are interested parties), over the votes the selection keeps (selection.ts: anonymous
 * ballot pairs only by default). Intervals hold at every sample size shown: shares get the exact
 * Clopper–Pearson interval; kappa is reported only over at least {@link MIN_KAPPA_PAIRS} decisive pairs,
 * with a seeded Dirichlet posterior interval (src/analytics/stats/kappa.ts). Pure and seeded.
 */
import type { JudgeDecision } from '../../engine/types.js';
import { RULE_JUDGE_ID } from '../../engine/judge/rule-judge.js';
import type { VoteChoice } from '../../store/types.js';
import { kappaInterval } from '../stats/kappa.js';
import { clopperPearson } from '../stats/proportion.js';
import {
  cohensKappa,
  labelTable,
  majority,
  orderAgreement,
  pairwiseAgreement,
  type Label,
  type Rated,
} from './agreement.js';
import type { FoldedVote, MatchData } from './dataset.js';
import { judgeLabel, scoreOrder } from './judge-view.js';
import { DEFAULT_SELECTION, selectVotes, type SelectionSummary, type VoteSelection } from './selection.js';

/** Fewest decisive pairs over which kappa is reported (below it: "too few pairs (n)"). */
export const MIN_KAPPA_PAIRS = 20;

/** A 95 % interval [lo, hi]. */
export type Interval = [number, number];

/** Agreement of two raters over pairs (x = people or the LLM judge, y = the judge or the rule judge). */
export interface AgreementStats {
  /** Pairs both raters labelled (for people: pairs with a majority). */
  pairs: number;
  /** Of those, pairs where neither label is a tie. */
  decisivePairs: number;
  /** Of the decisive pairs, those where the orders match. */
  agree: number;
  /** agree / decisivePairs (ties excluded); null when no decisive pair. */
  agreement: number | null;
  /** Clopper–Pearson 95 % interval of `agreement`. */
  agreementCI: Interval | null;
  /** Cohen's kappa, three classes; null with fewer than MIN_KAPPA_PAIRS decisive pairs or when undefined (`kappaNote`). */
  kappa: number | null;
  /** Dirichlet posterior 95 % interval of kappa (null with `kappa`). */
  kappaCI: Interval | null;
  /** Why kappa is null: `too_few_pairs` (fewer than MIN_KAPPA_PAIRS decisive pairs), `undefined` (one class only). */
  kappaNote: 'too_few_pairs' | 'undefined' | null;
}

/** Statistics of one set of votes (all, seated or spectator). */
export interface GroupStats {
  votes: number;
  /** Pitch pairs with at least one vote. */
  pairs: number;
  voters: number;
  /** People's majority (x) vs the round's judge (y). */
  judgeHuman: AgreementStats;
  /** The same per judge (`judgeId` or `judgeId (model)`). */
  byJudge: Record<string, AgreementStats>;
  /** Voters on the same pair agreeing (no interval: voter pairs share voters, so they are not independent). */
  humanHuman: ReturnType<typeof pairwiseAgreement>;
  /** Votes for a or b (ties and both-bad excluded), how many chose the pitch shown first, the share and its Clopper–Pearson interval. */
  positionBias: { decisiveVotes: number; forFirst: number; share: number | null; ci: Interval | null };
}

/** Everything `npm run stats` reports. */
export interface PreferenceStats {
  matches: number;
  /** Which votes were used (anonymous ones only by default) and how many were left out. */
  selection: SelectionSummary;
  all: GroupStats;
  seated: GroupStats;
  spectator: GroupStats;
  /** The round's non-rule judge (x) vs the rule judge recomputed on the same state (y), over every pair of such rounds. */
  judgeVsRule: AgreementStats & { judges: string[] };
  method: {
    shares: 'clopper-pearson';
    kappa: { minDecisivePairs: number; interval: 'dirichlet-posterior'; prior: 'perks'; draws: number; seed: string };
  };
}

/** Options of {@link computeStats}: posterior draws of the kappa intervals, their seed, and which votes count. */
export interface StatsOptions {
  draws: number;
  seed: string;
  selection?: VoteSelection;
}

/** 2000 posterior draws for kappa, a fixed seed (so a report is reproducible), anonymous votes only. */
export const DEFAULT_STATS_OPTIONS: StatsOptions = {
  draws: 2000,
  seed: 'gpu-arena-preference-stats',
  selection: DEFAULT_SELECTION,
};

/** A vote's label: tie and both-bad are both "neither is better". */
export const voteLabel = (c: VoteChoice): Label => (c === 'a' || c === 'b' ? c : 'tie');

const interval = (x: number, n: number): Interval | null => {
  const p = clopperPearson(x, n);
  return p ? [p.lo, p.hi] : null;
};

/** Agreement stats of rated items: Clopper–Pearson for the share, kappa over enough decisive pairs with its posterior interval. */
export function agreementOf(items: readonly Rated[], opts: { draws: number; seed: string }): AgreementStats {
  const o = orderAgreement(items);
  const enough = o.decisive >= MIN_KAPPA_PAIRS;
  const kappa = enough ? cohensKappa(items) : null;
  return {
    pairs: items.length,
    decisivePairs: o.decisive,
    agree: o.agree,
    agreement: o.share,
    agreementCI: interval(o.agree, o.decisive),
    kappa,
    kappaCI:
      kappa === null ? null : kappaInterval(labelTable(items), { draws: opts.draws, seed: `${opts.seed}:kappa` }),
    kappaNote: !enough ? 'too_few_pairs' : kappa === null ? 'undefined' : null,
  };
}

interface VotedPair {
  labels: Label[];
  judge: JudgeDecision | null;
  judgeOrder: Label | null;
}

function groupStats(
  matches: readonly MatchData[],
  keep: (v: FoldedVote) => boolean,
  opts: { draws: number; seed: string },
): GroupStats {
  const pairs = new Map<string, VotedPair>();
  const voters = new Set<string>();
  let votes = 0;
  let decisiveVotes = 0;
  let forFirst = 0;
  for (const m of matches) {
    const rounds = new Map(m.rounds.map((r) => [r.round, r]));
    for (const v of m.votes) {
      if (!keep(v)) continue;
      votes += 1;
      voters.add(v.voterId);
      if (v.choice === 'a' || v.choice === 'b') {
        decisiveVotes += 1;
        if ((v.choice === 'a' ? v.pitchA : v.pitchB) === v.shownFirst) forFirst += 1;
      }
      const key = `${m.matchId}|${v.pitchA}|${v.pitchB}`;
      let p = pairs.get(key);
      if (!p) {
        const r = rounds.get(v.round);
        const judge = r?.judge ?? null;
        const lab = (id: string) => r?.pitches.find((x) => x.id === id)?.lab ?? id.replace(/^p\d+_/, '');
        pairs.set(key, (p = { labels: [], judge, judgeOrder: scoreOrder(judge, lab(v.pitchA), lab(v.pitchB)) }));
      }
      p.labels.push(voteLabel(v.choice));
    }
  }
  const items: (Rated & { judge: string })[] = [];
  // Pairs in key order, so the bootstrap does not depend on the order the store lists votes in.
  for (const key of [...pairs.keys()].sort()) {
    const p = pairs.get(key)!;
    const human = majority(p.labels);
    if (human !== null && p.judgeOrder !== null && p.judge)
      items.push({ x: human, y: p.judgeOrder, judge: judgeLabel(p.judge) });
  }
  const byJudge: Record<string, AgreementStats> = {};
  for (const label of [...new Set(items.map((i) => i.judge))].sort())
    byJudge[label] = agreementOf(
      items.filter((i) => i.judge === label),
      { ...opts, seed: `${opts.seed}:${label}` },
    );
  return {
    votes,
    pairs: pairs.size,
    voters: voters.size,
    judgeHuman: agreementOf(items, opts),
    byJudge,
    humanHuman: pairwiseAgreement([...pairs.values()].map((p) => p.labels)),
    positionBias: {
      decisiveVotes,
      forFirst,
      share: decisiveVotes ? forFirst / decisiveVotes : null,
      ci: interval(forFirst, decisiveVotes),
    },
  };
}

/** Statistics of `matches` over the votes `opts.selection` keeps (anonymous ones by default). */
export function computeStats(all: readonly MatchData[], opts: StatsOptions = DEFAULT_STATS_OPTIONS): PreferenceStats {
  const { matches, summary } = selectVotes(all, opts.selection ?? DEFAULT_SELECTION);
  const rated: Rated[] = [];
  const judges = new Set<string>();
  for (const m of matches)
    for (const r of m.rounds) {
      if (!r.judge || r.judge.judgeId === RULE_JUDGE_ID || !r.rule) continue;
      judges.add(judgeLabel(r.judge));
      for (const p of r.pairs) {
        const x = scoreOrder(r.judge, p.a.lab, p.b.lab);
        const y = scoreOrder(r.rule, p.a.lab, p.b.lab);
        if (x !== null && y !== null) rated.push({ x, y });
      }
    }
  return {
    matches: matches.length,
    selection: summary,
    all: groupStats(matches, () => true, opts),
    seated: groupStats(matches, (v) => v.seated, opts),
    spectator: groupStats(matches, (v) => !v.seated, opts),
    judgeVsRule: { ...agreementOf(rated, { ...opts, seed: `${opts.seed}:rule` }), judges: [...judges].sort() },
    method: {
      shares: 'clopper-pearson',
      kappa: {
        minDecisivePairs: MIN_KAPPA_PAIRS,
        interval: 'dirichlet-posterior',
        prior: 'perks',
        draws: opts.draws,
        seed: opts.seed,
      },
    },
  };
}
