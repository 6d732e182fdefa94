/**
 * Parsing of rows read back from the database: every stored value crosses a boundary, so each row is
 * checked with zod and turned into the public shape, or into a StoreError with a code.
 */
import { z } from 'zod';
import { MatchEventSchema, type StoredEvent } from '../events/schema.js';
import { StoreError, type LegacyVoteRecord, type MatchRecord, type VoteRecord } from './types.js';

/** ISO 8601 timestamp with a zone (what `Date.prototype.toISOString` gives). */
export const IsoTimestamp = z.iso.datetime({ offset: true });

const MatchRow = z.object({
  id: z.string(),
  channel_id: z.string(),
  platform: z.string(),
  status: z.enum(['lobby', 'running', 'over']),
  created_at: z.string(),
  parent_channel_id: z.string().nullish(),
});

const EventRow = z.object({
  match_id: z.string(),
  seq: z.number().int().positive(),
  at: z.string(),
  body: z.string(),
});

const VoteRow = z.object({
  match_id: z.string(),
  round: z.number().int().nonnegative(),
  ballot_id: z.string(),
  pair: z.number().int().positive(),
  pitch_a: z.string(),
  pitch_b: z.string(),
  choice: z.enum(['a', 'b', 'tie', 'both_bad']),
  shown_first: z.string(),
  voter_id: z.string(),
  seated: z.union([z.literal(0), z.literal(1)]),
  created_at: z.string(),
  anonymous: z.union([z.literal(0), z.literal(1), z.null()]),
});

const LegacyVoteRow = z.object({
  match_id: z.string(),
  round: z.number().int().nonnegative(),
  voter_id: z.string(),
  lab: z.string(),
  created_at: z.string(),
});

/** A `matches` row → MatchRecord; StoreError `corrupt_row` if it has an unexpected shape. */
export function toMatch(row: unknown): MatchRecord {
  const r = MatchRow.safeParse(row);
  if (!r.success) throw new StoreError('corrupt_row', `bad matches row: ${z.prettifyError(r.error)}`);
  const m = r.data;
  return {
    id: m.id,
    channelId: m.channel_id,
    platform: m.platform,
    status: m.status,
    createdAt: m.created_at,
    ...(m.parent_channel_id ? { parentChannelId: m.parent_channel_id } : {}),
  };
}

/** A `votes` row → VoteRecord; StoreError `corrupt_row` if it has an unexpected shape. */
export function toVote(row: unknown): VoteRecord {
  const r = VoteRow.safeParse(row);
  if (!r.success) throw new StoreError('corrupt_row', `bad votes row: ${z.prettifyError(r.error)}`);
  const v = r.data;
  return {
    matchId: v.match_id,
    round: v.round,
    ballotId: v.ballot_id,
    pair: v.pair,
    pitchA: v.pitch_a,
    pitchB: v.pitch_b,
    choice: v.choice,
    shownFirst: v.shown_first,
    voterId: v.voter_id,
    seated: v.seated === 1,
    createdAt: v.created_at,
    anonymous: v.anonymous === null ? null : v.anonymous === 1,
  };
}

/** A `votes_v1` row (schema 0002) → LegacyVoteRecord; StoreError `corrupt_row` if it has an unexpected shape. */
export function toLegacyVote(row: unknown): LegacyVoteRecord {
  const r = LegacyVoteRow.safeParse(row);
  if (!r.success) throw new StoreError('corrupt_row', `bad votes_v1 row: ${z.prettifyError(r.error)}`);
  const v = r.data;
  return { matchId: v.match_id, round: v.round, voterId: v.voter_id, lab: v.lab, createdAt: v.created_at };
}

/**
 * An `events` row → StoredEvent: the body must be JSON and pass MatchEventSchema.
 * StoreError `corrupt_event` (with matchId and seq when readable) otherwise.
 */
export function toEvent(row: unknown): StoredEvent {
  const r = EventRow.safeParse(row);
  if (!r.success) throw new StoreError('corrupt_event', `bad events row: ${z.prettifyError(r.error)}`);
  const { match_id: matchId, seq, at, body } = r.data;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (err) {
    throw new StoreError('corrupt_event', `event ${matchId}#${seq} is not JSON`, { matchId, seq, cause: err });
  }
  const parsed = MatchEventSchema.safeParse(json);
  if (!parsed.success) {
    const why = z.prettifyError(parsed.error);
    throw new StoreError('corrupt_event', `event ${matchId}#${seq} fails MatchEventSchema: ${why}`, { matchId, seq });
  }
  return { matchId, seq, at, body: parsed.data };
}
