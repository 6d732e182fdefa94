/**
 * A recorded match for the preference tests: market_round seed 7, two people (lab_0, lab_1) and one
 * scripted seat (lab_2), played through the real RoundHost with a fixture LLM-style judge whose scores are
 * fixed per round (so agreement can be computed by hand). The host runs with votes off; ballot_opened /
 * ballot_closed events are then inserted after each round close (as the live side writes them), and the
 * log is stored again in a fresh store with the votes a test gives.
 */
import assert from 'node:assert/strict';
import type { Caller } from '../../../src/chat/types.js';
import type { JudgeDecision, MatchState } from '../../../src/engine/types.js';
import type { MatchEventBody, StoredEvent } from '../../../src/events/schema.js';
import type { AsyncJudge } from '../../../src/engine/judge/types.js';
import { foldMatch } from '../../../src/analytics/preference/dataset.js';
import { openStore, type EventStore } from '../../../src/store/index.js';
import type { VoteRecord } from '../../../src/store/types.js';
import { harness, unwrap } from '../../host/helpers.js';

/** People with ids and names a leak scanner can find anywhere. */
export const ALICE: Caller = { userId: 'discord:700000000000000001', displayName: 'Alice Quartermain', isAdmin: false };
export const BOB: Caller = { userId: 'slack:U0BOBPRIV1', displayName: 'Bob Vantablack', isAdmin: false };
/** A spectator (never seated). */
export const CAROL = 'discord:700000000000000003';
export const DAVE = 'slack:U0DAVEPRIV4';
export const ERIN = 'discord:700000000000000005';

/** The fixture judge's score per round for lab_0 and lab_1 (lab_2 always 0.05). Canonical pair p<r>_lab_0 < p<r>_lab_1. */
export const JUDGE_SCORES: Record<number, [number, number]> = {
  0: [0.8, 0.4],
  1: [0.3, 0.7],
  2: [0.6, 0.6],
  3: [0.9, 0.2],
  4: [0.1, 0.5],
};
/** Model of the fixture judge: model-x for rounds 0–2, model-y for 3–4. */
export const modelOf = (round: number) => (round < 3 ? 'model-x' : 'model-y');

/** An AsyncJudge with fixed scores (the host stores its decisions in round_closed like an LLM judge's). */
export const fixtureJudge: AsyncJudge = {
  id: 'llm_judge_v1',
  async judge(state: MatchState): Promise<JudgeDecision | null> {
    const labs = [...new Set(state.pitches.filter((p) => p.round === state.round).map((p) => p.lab))];
    if (labs.length === 0) return null;
    const score = (lab: string) =>
      lab === 'lab_0' ? JUDGE_SCORES[state.round]![0] : lab === 'lab_1' ? JUDGE_SCORES[state.round]![1] : 0.05;
    const scores = labs.map((lab) => ({
      lab,
      score: score(lab),
      parts: { need: 0.5, verifiedClaims: 0.5, fabricatedClaims: 0, specificity: 0.5 },
      reason: `${lab}: fixture score`,
    }));
    const top = [...scores].sort((a, b) => b.score - a.score)[0]!;
    return {
      round: state.round,
      judgeId: 'llm_judge_v1',
      winner: top.lab,
      scores,
      bonus: 0.1,
      reason: 'fixture judge',
      meta: {
        models: [modelOf(state.round)],
        promptVersion: 'judge-v1',
        fallback: null,
        runs: [{ rationale: 'private working that must never be exported' }],
      },
    };
  },
};

function pitchFor(s: MatchState, lab: string): unknown {
  const job = Object.values(s.jobs).find((j) => j.owner === lab && j.outcome === 'pending');
  return job
    ? {
        action_type: 'make_pitch',
        message: `Our job ${job.id} is still pending and we need capacity for it this round.`,
        job_ids: [job.id],
      }
    : {
        action_type: 'make_pitch',
        message: 'We have no pending job but would put spare capacity to good use.',
        job_ids: [],
      };
}

/** One more action per person a round, so demonstrations hold more than a pitch. */
function extraFor(s: MatchState, lab: string): unknown {
  const job = Object.values(s.jobs).find((j) => j.owner === lab && j.outcome === 'pending');
  const block = Object.values(s.blocks).find((b) => b.owner === lab && b.status === 'available');
  if (job && block) return { action_type: 'allocate_to_job', job_id: job.id, block_ids: [block.id] };
  return { action_type: 'wait' };
}

/** Play the match; returns its stored events (with ballot events inserted) and its id. */
export async function recordMatch(): Promise<{ matchId: string; events: StoredEvent[] }> {
  const h = await harness({ judge: fixtureJudge });
  const ch = 'pref-fixture';
  unwrap(await h.host.create(ch, 'discord', ALICE, { task: 'market_round', seed: 7, roundSeconds: 0, votes: false }));
  unwrap(await h.host.join(ch, ALICE, 'lab_0'));
  unwrap(await h.host.join(ch, BOB, 'lab_1'));
  unwrap(await h.host.assign(ch, ALICE, 'lab_2', { kind: 'scripted', policy: 'rule_based_expert' }));
  let m = unwrap(await h.host.start(ch, ALICE)).match;
  const matchId = m.id;
  while (m.phase === 'running' && m.state) {
    for (const [who, lab] of [
      [ALICE, 'lab_0'],
      [BOB, 'lab_1'],
    ] as const) {
      for (const make of [pitchFor, extraFor]) {
        const now = (await h.host.current(ch))?.state;
        if (!now || now.labs[lab]!.finished) continue;
        unwrap(await h.host.act(ch, who, make(now, lab)));
      }
    }
    unwrap(await h.host.done(ch, ALICE));
    unwrap(await h.host.done(ch, BOB));
    const cur = await h.host.current(ch);
    if (!cur) break;
    m = cur;
  }
  const raw = asSecretSeeded(await h.store.load(matchId));
  await h.host.stop();
  await h.store.close();
  return { matchId, events: withBallots(raw) };
}

/**
 * The log as if its world had been drawn from a match secret: the hand computations need the fixed world of
 * seed 7, but the fixture stands for a research match, and a host-seeded one is practice (left out of every
 * statistic and export by default; test/match/include-seeded.test.ts covers that).
 */
function asSecretSeeded(raw: readonly StoredEvent[]): StoredEvent[] {
  return raw.map((e) =>
    e.body.type === 'match_created'
      ? { ...e, body: { ...e.body, settings: { ...e.body.settings, hostSeeded: false } } }
      : e,
  );
}

/** The log with a ballot on each closed round's pitches (ids p<round>_<lab>, canonical pairs), closed at the next close. */
export function withBallots(raw: readonly StoredEvent[]): StoredEvent[] {
  const data = foldMatch(raw);
  assert.ok(data, 'the recorded log folds');
  const out: StoredEvent[] = [];
  let open: string | null = null;
  const push = (body: MatchEventBody, at: string) =>
    out.push({ matchId: raw[0]!.matchId, seq: out.length + 1, at, body });
  for (const ev of raw) {
    push(ev.body, ev.at);
    if (ev.body.type !== 'round_closed') continue;
    if (open) push({ type: 'ballot_closed', ballotId: open, reason: 'next_round' }, ev.at);
    open = null;
    const round = data.rounds.find((r) => r.round === (ev.body as { round: number }).round);
    if (!round || round.pitches.length < 2) continue;
    open = `v_${round.round + 1}`;
    push(
      {
        type: 'ballot_opened',
        ballotId: open,
        round: round.round,
        pitches: round.pitches.map((p) => ({
          id: p.id,
          lab: p.lab,
          kind: p.kind,
          text: p.text,
          jobIds: p.jobIds,
          replyTo: p.replyTo,
        })),
        pairs: round.pairs.map((p) => [p.a.id, p.b.id] as [string, string]),
        closesAt: null,
      },
      ev.at,
    );
  }
  return out;
}

/** A vote on the pair (p<round>_<x>, p<round>_<y>) of the fixture (x < y), by `voterId`; on an anonymous ballot pair unless said. */
export function vote(
  matchId: string,
  round: number,
  x: string,
  y: string,
  choice: VoteRecord['choice'],
  shownFirst: 'a' | 'b',
  voterId: string,
  seated: boolean,
  pair = 1,
  anonymous: boolean | null = true,
): VoteRecord {
  const pitchA = `p${round}_${x}`;
  const pitchB = `p${round}_${y}`;
  return {
    matchId,
    round,
    ballotId: `v_${round + 1}`,
    pair,
    pitchA,
    pitchB,
    choice,
    shownFirst: shownFirst === 'a' ? pitchA : pitchB,
    voterId,
    seated,
    createdAt: `2030-01-01T00:0${round}:00.000Z`,
    anonymous,
  };
}

/** A store (SQLite file or memory) holding the recorded log and `votes`. */
export async function storeWith(
  matchId: string,
  events: readonly StoredEvent[],
  votes: readonly VoteRecord[],
  sqlitePath = ':memory:',
): Promise<EventStore> {
  const store = await openStore({ sqlitePath });
  const created = await store.createMatch({
    id: matchId,
    channelId: 'pref-fixture',
    platform: 'discord',
    createdAt: events[0]!.at,
  });
  assert.ok(created.ok, 'match created');
  for (const ev of events) {
    const r = await store.append(matchId, ev.seq - 1, ev.body, ev.at);
    assert.ok(r.ok, `event ${ev.seq} appended`);
  }
  if (events.some((e) => e.body.type === 'match_ended') || foldMatch(events)?.rounds.length)
    await store.setMatchStatus(matchId, 'over');
  for (const v of votes) assert.ok((await store.recordVote(v)).ok, `vote ${v.voterId} ${v.pitchA}/${v.pitchB} stored`);
  await grantAll(store, events, votes);
  return store;
}

/** Every person of `events` and every voter of `votes` agreed to the data notice (exports need it: consent.ts). */
export async function grantAll(
  store: EventStore,
  events: readonly StoredEvent[],
  votes: readonly VoteRecord[],
): Promise<void> {
  const people = new Set([
    ...events.flatMap((e) => (e.body.type === 'seat_claimed' ? [e.body.userId] : [])),
    ...votes.map((v) => v.voterId),
  ]);
  for (const userId of people)
    await store.setConsent({ userId, state: 'granted', noticeVersion: 'test', at: '2026-01-01T00:00:00.000Z' });
}
