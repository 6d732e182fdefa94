/**
 * Preference rows from folded matches (`npm run export -- --votes`): people's votes (`source: human`) or
 * the round's judge (`source: judge`, AI feedback) as labels of pitch pairs, in the `trl`, `openai-dpo`
 * and `jsonl` formats (formats.ts). Voters and people appear only as pseudonyms; prompts hold only the
 * round's public context. Pure: the caller supplies the pseudonym function.
 */
import type { JudgeDecision } from '../../engine/types.js';
import type { FoldedVote, MatchData, PairEntry, PitchEntry, RoundData } from './dataset.js';
import { authorKind } from './dataset.js';
import {
  JsonlPreferenceRowSchema,
  OpenAiDpoRowSchema,
  TrlPreferenceRowSchema,
  type JsonlPreferenceRow,
  type PreferenceFormat,
  type Source,
} from './formats.js';
import { judgeModel, scoreOrder } from './judge-view.js';
import { pitchPrompt } from './prompt.js';
import { DEFAULT_SELECTION, selectMatchData, selectVotes, type VoteSelection } from './selection.js';

/** Maps a platform user id (e.g. `discord:123`) to its stable pseudonym. */
export type Pseudonymize = (userId: string) => string;

/** Options of {@link preferenceRows}. */
export interface PreferenceExportOptions {
  format: PreferenceFormat;
  source: Source;
  pseudonymize: Pseudonymize;
  /** Only votes created at or after this ISO timestamp (human source). */
  since?: string;
  /** Which matches (every source) and votes (human source): no host-seeded match, anonymous votes only by default (selection.ts). */
  selection?: VoteSelection;
}

/**
 * Rows of `matches` in `format`, each parsed with its zod schema (a row that fails throws: a bug, never
 * written). Human source: one row per vote `opts.selection` keeps (anonymous ones by default; selection.ts)
 * (`trl`/`openai-dpo`: decisive votes only, a = chosen when the voter chose a). Judge source: one row per
 * pair of a judged round (`trl`/`openai-dpo`: pairs the judge scored apart only).
 */
export function preferenceRows(all: readonly MatchData[], opts: PreferenceExportOptions): unknown[] {
  const out: unknown[] = [];
  const sel = opts.selection ?? DEFAULT_SELECTION;
  const matches = opts.source === 'human' ? selectVotes(all, sel).matches : selectMatchData(all, sel);
  for (const m of matches) {
    const rounds = new Map(m.rounds.map((r) => [r.round, r]));
    if (opts.source === 'human') {
      const pairs = new Map<string, PairEntry>();
      for (const r of m.rounds) for (const p of r.pairs) pairs.set(`${p.a.id}|${p.b.id}`, p);
      for (const v of m.votes) {
        if (opts.since && v.createdAt < opts.since) continue;
        const pair = pairs.get(`${v.pitchA}|${v.pitchB}`);
        const round = rounds.get(v.round);
        if (!pair || !round) continue;
        const row = humanRow(m, round, pair, v, opts);
        if (row) out.push(row);
      }
    } else {
      for (const r of m.rounds) {
        if (!r.judge) continue;
        for (const pair of r.pairs) {
          const row = judgeRow(m, r, pair, opts);
          if (row) out.push(row);
        }
      }
    }
  }
  return out;
}

function humanRow(m: MatchData, r: RoundData, pair: PairEntry, v: FoldedVote, opts: PreferenceExportOptions): unknown {
  if (opts.format !== 'jsonl') {
    if (v.choice !== 'a' && v.choice !== 'b') return null;
    return pairRow(r, v.choice === 'a' ? pair.a : pair.b, v.choice === 'a' ? pair.b : pair.a, 'human', opts.format);
  }
  const row: JsonlPreferenceRow = {
    source: 'human',
    ...common(m, r, pair, opts.pseudonymize),
    choice: v.choice,
    shown_first: v.shownFirst === v.pitchA ? 'a' : 'b',
    voter: opts.pseudonymize(v.voterId),
    voter_role: v.seated ? 'seated' : 'spectator',
    anonymous: v.anonymous,
    created_at: v.createdAt,
  };
  return JsonlPreferenceRowSchema.parse(row);
}

function judgeRow(m: MatchData, r: RoundData, pair: PairEntry, opts: PreferenceExportOptions): unknown {
  const label = scoreOrder(r.judge, pair.a.lab, pair.b.lab);
  if (label === null) return null;
  if (opts.format !== 'jsonl') {
    if (label === 'tie') return null;
    return pairRow(r, label === 'a' ? pair.a : pair.b, label === 'a' ? pair.b : pair.a, 'judge', opts.format);
  }
  return JsonlPreferenceRowSchema.parse({ source: 'judge', ...common(m, r, pair, opts.pseudonymize), choice: label });
}

function pairRow(
  r: RoundData,
  chosen: PitchEntry,
  rejected: PitchEntry,
  source: Source,
  format: 'trl' | 'openai-dpo',
): unknown {
  const prompt = [{ role: 'user' as const, content: pitchPrompt(r.openState) }];
  const win = [{ role: 'assistant' as const, content: chosen.text }];
  const lose = [{ role: 'assistant' as const, content: rejected.text }];
  return format === 'trl'
    ? TrlPreferenceRowSchema.parse({ prompt, chosen: win, rejected: lose, source })
    : OpenAiDpoRowSchema.parse({ input: { messages: prompt }, preferred_output: win, non_preferred_output: lose });
}

function common(m: MatchData, r: RoundData, pair: PairEntry, pseudonymize: Pseudonymize) {
  const pitch = (p: PitchEntry) => {
    const d = m.drivers[p.lab];
    return {
      id: p.id,
      lab: p.lab,
      kind: p.kind,
      text: p.text,
      job_ids: p.jobIds,
      reply_to: p.replyTo,
      shown_text: p.shown.text,
      author: authorKind(d),
      author_id: d?.kind === 'human' ? pseudonymize(d.userId) : null,
    };
  };
  return {
    match_id: m.matchId,
    task: m.task,
    round: r.round,
    ballot_id: pair.ballotId,
    pair: pair.pair,
    pitch_a: pitch(pair.a),
    pitch_b: pitch(pair.b),
    judge: judgeFields(r.judge, pair),
    rule_judge: ruleFields(r.rule, pair),
  };
}

const seatOf = (d: JudgeDecision | null, lab: string) => d?.scores.find((s) => s.lab === lab) ?? null;

function judgeFields(d: JudgeDecision | null, pair: PairEntry) {
  if (!d) return null;
  const a = seatOf(d, pair.a.lab);
  const b = seatOf(d, pair.b.lab);
  const meta = d.meta ?? {};
  const order = scoreOrder(d, pair.a.lab, pair.b.lab);
  return {
    judge_id: d.judgeId,
    model: judgeModel(d),
    prompt_version: typeof meta.promptVersion === 'string' ? meta.promptVersion : null,
    fallback: typeof meta.fallback === 'string' ? meta.fallback : null,
    // The pair's own winner: the round's (d.winner) may be a third lab, which no row of this pair may claim.
    winner: order === 'a' ? pair.a.lab : order === 'b' ? pair.b.lab : null,
    round_winner: d.winner,
    score_a: a?.score ?? null,
    score_b: b?.score ?? null,
    parts_a: a ? { ...a.parts } : null,
    parts_b: b ? { ...b.parts } : null,
    order,
  };
}

function ruleFields(d: JudgeDecision | null, pair: PairEntry) {
  if (!d) return null;
  const a = seatOf(d, pair.a.lab);
  const b = seatOf(d, pair.b.lab);
  const claims = (s: typeof a) =>
    s
      ? { verified_claims: s.parts.verifiedClaims, fabricated_claims: s.parts.fabricatedClaims, reason: s.reason }
      : null;
  return {
    judge_id: d.judgeId,
    score_a: a?.score ?? null,
    score_b: b?.score ?? null,
    order: scoreOrder(d, pair.a.lab, pair.b.lab),
    claims_a: claims(a),
    claims_b: claims(b),
  };
}
