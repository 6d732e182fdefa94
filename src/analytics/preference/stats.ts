/**
 * Preference statistics of folded matches (`npm run stats`, `/arena stats`): votes, pairs, voters;
 * judge–human agreement (order agreement with ties excluded, Cohen's kappa with tie as a third class, 95 %
 * bootstrap intervals resampling pairs), per judge; human–human agreement; the voters' position bias;
 * LLM judge vs rule judge on every judged pair. Everything is computed for all votes, seated voters'
 * votes and spectators' votes apart (seated voters are interested parties). Pure and seeded.
 */
import type { JudgeDecision } from '../../engine/types.js';
import { RULE_JUDGE_ID } from '../../engine/judge/rule-judge.js';
import type { VoteChoice, VoteRecord } from '../../store/types.js';
import { bootstrapInterval, cohensKappa, majority, orderAgreement, pairwiseAgreement, type Label, type Rated } from './agreement.js';
import type { MatchData } from './dataset.js';
import { judgeLabel, scoreOrder } from './judge-view.js';

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
  agreementCI: [number, number] | null;
  /** Cohen's kappa, three classes; null when undefined. */
  kappa: number | null;
  kappaCI: [number, number] | null;
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
  humanHuman: ReturnType<typeof pairwiseAgreement>;
  /** Votes for a or b (ties and both-bad excluded), how many chose the pitch shown first, and the share. */
  positionBias: { decisiveVotes: number; forFirst: number; share: number | null };
}

/** Everything `npm run stats` reports. */
export interface PreferenceStats {
  matches: number;
  all: GroupStats;
  seated: GroupStats;
  spectator: GroupStats;
  /** The round's non-rule judge (x) vs the rule judge recomputed on the same state (y), over every pair of such rounds. */
  judgeVsRule: AgreementStats & { judges: string[] };
  method: { resamples: number; seed: string };
}

/** Bootstrap settings: 1000 resamples, a fixed seed (so a report is reproducible). */
export const DEFAULT_STATS_OPTIONS = { resamples: 1000, seed: 'gpu-arena-preference-stats' } as const;

/** A vote's label: tie and both-bad are both "neither is better". */
export const voteLabel = (c: VoteChoice): Label => (c === 'a' || c === 'b' ? c : 'tie');

/** Agreement stats of rated items with seeded bootstrap intervals. */
export function agreementOf(items: readonly Rated[], opts: { resamples: number; seed: string }): AgreementStats {
  const o = orderAgreement(items);
  return {
    pairs: items.length,
    decisivePairs: o.decisive,
    agree: o.agree,
    agreement: o.share,
    agreementCI: bootstrapInterval(items, (s) => orderAgreement(s).share, { ...opts, seed: `${opts.seed}:agreement` }),
    kappa: cohensKappa(items),
    kappaCI: bootstrapInterval(items, cohensKappa, { ...opts, seed: `${opts.seed}:kappa` }),
  };
}

interface VotedPair {
  labels: Label[];
  judge: JudgeDecision | null;
  judgeOrder: Label | null;
}

function groupStats(matches: readonly MatchData[], keep: (v: VoteRecord) => boolean, opts: { resamples: number; seed: string }): GroupStats {
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
    if (human !== null && p.judgeOrder !== null && p.judge) items.push({ x: human, y: p.judgeOrder, judge: judgeLabel(p.judge) });
  }
  const byJudge: Record<string, AgreementStats> = {};
  for (const label of [...new Set(items.map((i) => i.judge))].sort()) byJudge[label] = agreementOf(items.filter((i) => i.judge === label), { ...opts, seed: `${opts.seed}:${label}` });
  return {
    votes,
    pairs: pairs.size,
    voters: voters.size,
    judgeHuman: agreementOf(items, opts),
    byJudge,
    humanHuman: pairwiseAgreement([...pairs.values()].map((p) => p.labels)),
    positionBias: { decisiveVotes, forFirst, share: decisiveVotes ? forFirst / decisiveVotes : null },
  };
}

/** Statistics of `matches` (their votes are in `MatchData.votes`). */
export function computeStats(matches: readonly MatchData[], opts: { resamples: number; seed: string } = DEFAULT_STATS_OPTIONS): PreferenceStats {
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
    all: groupStats(matches, () => true, opts),
    seated: groupStats(matches, (v) => v.seated, opts),
    spectator: groupStats(matches, (v) => !v.seated, opts),
    judgeVsRule: { ...agreementOf(rated, { ...opts, seed: `${opts.seed}:rule` }), judges: [...judges].sort() },
    method: { resamples: opts.resamples, seed: opts.seed },
  };
}
