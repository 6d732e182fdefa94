/**
 * Votes, match listings and deployment secrets over Kysely (the same queries on SQLite and PostgreSQL).
 * Split from kysely-store.ts, which delegates here. Writes are single statements made atomic by a unique
 * key (see kysely-store.ts's file comment), so they stay safe across processes.
 */
import type { Kysely } from 'kysely';
import type { ConstraintKind } from './constraint.js';
import { toLegacyVote, toMatch, toVote } from './rows.js';
import type { Database } from './schema.js';
import type { LegacyVoteRecord, MatchFilter, MatchRecord, RecordVoteResult, VoteFilter, VoteRecord } from './types.js';

const SECRET_NAME = /^[a-z0-9_-]{1,64}$/;

/** Insert one vote unless (match, pitchA, pitchB, voter) already voted; see EventStore.recordVote. */
export async function recordVote(
  db: Kysely<Database>,
  classify: (err: unknown) => ConstraintKind,
  vote: VoteRecord,
): Promise<RecordVoteResult> {
  if (!(vote.pitchA < vote.pitchB))
    return { ok: false, code: 'invalid_vote', message: 'pitchA must sort before pitchB' };
  if (vote.shownFirst !== vote.pitchA && vote.shownFirst !== vote.pitchB)
    return { ok: false, code: 'invalid_vote', message: 'shownFirst must be pitchA or pitchB' };
  try {
    const r = await db
      .insertInto('votes')
      .values({
        match_id: vote.matchId,
        round: vote.round,
        ballot_id: vote.ballotId,
        pair: vote.pair,
        pitch_a: vote.pitchA,
        pitch_b: vote.pitchB,
        choice: vote.choice,
        shown_first: vote.shownFirst,
        voter_id: vote.voterId,
        seated: vote.seated ? 1 : 0,
        created_at: vote.createdAt,
        anonymous: vote.anonymous === null ? null : vote.anonymous ? 1 : 0,
      })
      .onConflict((oc) => oc.columns(['match_id', 'pitch_a', 'pitch_b', 'voter_id']).doNothing())
      .executeTakeFirst();
    if (Number(r.numInsertedOrUpdatedRows ?? 0n) === 0) return { ok: false, code: 'duplicate_vote' };
    return { ok: true, vote: { ...vote } };
  } catch (err) {
    if (classify(err) === 'foreign_key') return { ok: false, code: 'unknown_match' };
    throw err;
  }
}

/** Votes matching `filter`, ordered by match, round, time, voter. */
export async function listVotes(db: Kysely<Database>, filter: VoteFilter = {}): Promise<VoteRecord[]> {
  let q = db.selectFrom('votes').selectAll();
  if (filter.matchId !== undefined) q = q.where('match_id', '=', filter.matchId);
  if (filter.round !== undefined) q = q.where('round', '=', filter.round);
  if (filter.ballotId !== undefined) q = q.where('ballot_id', '=', filter.ballotId);
  if (filter.voterId !== undefined) q = q.where('voter_id', '=', filter.voterId);
  if (filter.since !== undefined) q = q.where('created_at', '>=', filter.since);
  const rows = await q
    .orderBy('match_id')
    .orderBy('round')
    .orderBy('created_at')
    .orderBy('voter_id')
    .orderBy('pair')
    .execute();
  return rows.map(toVote);
}

/** Rows of the pre-0003 votes table for one match. */
export async function listLegacyVotes(db: Kysely<Database>, matchId: string): Promise<LegacyVoteRecord[]> {
  const rows = await db
    .selectFrom('votes_v1')
    .selectAll()
    .where('match_id', '=', matchId)
    .orderBy('round')
    .orderBy('created_at')
    .orderBy('voter_id')
    .execute();
  return rows.map(toLegacyVote);
}

/** Matches matching `filter`, oldest first (ties by id). */
export async function listMatches(db: Kysely<Database>, filter: MatchFilter = {}): Promise<MatchRecord[]> {
  let q = db.selectFrom('matches').selectAll();
  if (filter.status !== undefined) q = q.where('status', '=', filter.status);
  if (filter.channelId !== undefined) q = q.where('channel_id', '=', filter.channelId);
  if (filter.platform !== undefined) q = q.where('platform', '=', filter.platform);
  if (filter.since !== undefined) q = q.where('created_at', '>=', filter.since);
  const rows = await q.orderBy('created_at').orderBy('id').execute();
  return rows.map(toMatch);
}

/** The secret `name`, inserted from `generate()` if absent; every process reads the one stored value. */
export async function secret(db: Kysely<Database>, name: string, generate: () => string): Promise<string> {
  if (!SECRET_NAME.test(name)) throw new TypeError(`secret: bad name ${JSON.stringify(name)}`);
  await db
    .insertInto('secrets')
    .values({ name, value: generate(), created_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}
