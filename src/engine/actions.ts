/**
 * The original's 14 actions (docs/RULES.md §A.1) and `bid` (rules v3), as zod schemas. Field names keep the original's snake_case so
 * that people and models who know the original recognise them. Unknown keys are stripped.
 *
 * Numbers must be finite and non-negative (NaN, Infinity and negatives fail here with
 * `malformed_action`); id lists must be unique (`duplicate_block`, checked by the handlers so the error
 * names the id). Strings are trimmed.
 */
import { z } from 'zod';
import { cleanText } from './clean-text.js';

const id = z.string().trim().min(1).max(64);
const ids = z.array(id).max(32);
const money = z.number().finite().nonnegative().max(1e6);
/** Free text: escapes and control characters removed (clean-text.ts), then trimmed and bounded. */
const text = (max: number) => z.string().overwrite(cleanText).trim().max(max);

/** Max length of a message or offer note (as the original's: docs/RULES.md §A.1). */
export const MESSAGE_MAX = 500;
/** Max length of a pitch. */
export const PITCH_MAX = 1200;
/** Min length of a pitch after trimming (as the original's: docs/RULES.md §A.1). */
export const PITCH_MIN = 12;

/** send_offer: propose a trade to another seat (docs/RULES.md §3.1; payment in credits, expires_in in rounds). */
export const SendOfferSchema = z.object({
  action_type: z.literal('send_offer'),
  target_lab_id: id,
  /** Blocks the actor gives. */
  block_ids: ids.default([]),
  /** Blocks the actor wants from the target. */
  requested_block_ids: ids.default([]),
  /** Credits the actor pays the target on acceptance. */
  payment: money.default(0),
  /** Credits the actor asks the target to pay it on acceptance (selling for credits; rules v3). Not with payment. */
  ask: money.default(0),
  message: text(MESSAGE_MAX).default(''),
  /** Rounds the offer stays open after this one (0–3, default 2; 0 = this round only). */
  expires_in: z.number().int().min(0).max(3).default(2),
});

/** accept_offer: the recipient executes an active offer (docs/RULES.md §3.2). */
export const AcceptOfferSchema = z.object({ action_type: z.literal('accept_offer'), offer_id: id });
/** reject_offer: the recipient rejects, or the sender withdraws, an active offer (docs/RULES.md §3.3). */
export const RejectOfferSchema = z.object({ action_type: z.literal('reject_offer'), offer_id: id });

/** counter_offer: replace an offer addressed to the actor with a new one to its sender (docs/RULES.md §3.4); fields as send_offer. */
export const CounterOfferSchema = z.object({
  action_type: z.literal('counter_offer'),
  offer_id: id,
  block_ids: ids.default([]),
  requested_block_ids: ids.default([]),
  payment: money.default(0),
  ask: money.default(0),
  message: text(MESSAGE_MAX).default(''),
  expires_in: z.number().int().min(0).max(3).default(2),
});

/** make_pitch: the seat's public argument to the judge this round, 12–1200 characters (docs/RULES.md §3.5, §6). */
export const MakePitchSchema = z.object({
  action_type: z.literal('make_pitch'),
  message: text(PITCH_MAX),
  job_ids: ids.default([]),
});

/** counter_pitch: a pitch that answers another seat's pitch of this round (docs/RULES.md §3.6). */
export const CounterPitchSchema = z.object({
  action_type: z.literal('counter_pitch'),
  /** Whose pitch this one answers. */
  target_lab_id: id,
  message: text(PITCH_MAX),
  job_ids: ids.default([]),
});

/** reserve_capacity: earmark own available blocks, optionally for an own pending job (docs/RULES.md §3.7). */
export const ReserveCapacitySchema = z.object({
  action_type: z.literal('reserve_capacity'),
  block_ids: ids,
  /** Own job the reservation is for (optional). */
  job_id: id.nullable().default(null),
});

/** release_capacity: return own reserved or committed blocks to available; may breach a coalition (docs/RULES.md §3.8). */
export const ReleaseCapacitySchema = z.object({ action_type: z.literal('release_capacity'), block_ids: ids });

/** form_coalition: propose a capacity pool with 1–4 other seats (docs/RULES.md §3.9; disabled in single_trade). */
export const FormCoalitionSchema = z.object({
  action_type: z.literal('form_coalition'),
  /** Labs invited; each must consent with commit_to_coalition. */
  target_lab_ids: z.array(id).min(1).max(4),
  message: text(MESSAGE_MAX).default(''),
  /** Rounds until the coalition closes (1–9, default: to the end of the match). */
  duration: z.number().int().min(1).max(9).nullable().default(null),
});

/** commit_to_coalition: consent to a coalition and commit blocks and/or escrow credits to it (docs/RULES.md §3.9). */
export const CommitToCoalitionSchema = z.object({
  action_type: z.literal('commit_to_coalition'),
  coalition_id: id,
  block_ids: ids.default([]),
  payment: money.default(0),
});

/** allocate_to_job: use own (or partner-committed) blocks for an own pending job; hours accumulate (docs/RULES.md §3.10). */
export const AllocateToJobSchema = z.object({
  action_type: z.literal('allocate_to_job'),
  job_id: id,
  block_ids: ids,
});

/** send_message: a public or direct message, up to 500 characters (docs/RULES.md §3.11). */
export const SendMessageSchema = z.object({
  action_type: z.literal('send_message'),
  /** null/absent = public message to the channel. */
  target_lab_id: id.nullable().default(null),
  message: text(MESSAGE_MAX),
});

/**
 * bid: a sealed bid of `amount` credits for the lot of the emergency auction announced for this round
 * (docs/RULES.md §5.1, rules v3). A later bid replaces the seat's earlier one; only the bidder sees it.
 */
export const BidSchema = z.object({ action_type: z.literal('bid'), amount: money });

/** wait: do nothing (`waited`); never counted as spam (docs/RULES.md §3.12, §4.1). */
export const WaitSchema = z.object({ action_type: z.literal('wait') });
/** finish: settle the seat now and stop acting (docs/RULES.md §3.13, §4.4). */
export const FinishSchema = z.object({ action_type: z.literal('finish') });

/** Any of the 15 actions (the original's 14 and `bid`), discriminated by `action_type`; a parse failure is `malformed_action`. */
export const ActionSchema = z.discriminatedUnion('action_type', [
  SendOfferSchema,
  AcceptOfferSchema,
  RejectOfferSchema,
  CounterOfferSchema,
  MakePitchSchema,
  CounterPitchSchema,
  ReserveCapacitySchema,
  ReleaseCapacitySchema,
  FormCoalitionSchema,
  CommitToCoalitionSchema,
  AllocateToJobSchema,
  SendMessageSchema,
  WaitSchema,
  FinishSchema,
  BidSchema,
]);

/** A parsed, valid-shaped action (ids are not yet checked against state). */
export type Action = z.output<typeof ActionSchema>;
/** What a caller may write (defaults omitted). */
export type ActionInput = z.input<typeof ActionSchema>;
/** The 15 `action_type` values. */
export type ActionType = Action['action_type'];

/** All 15 action types: the original's 14 in its order (docs/RULES.md §A.1), then `bid` (rules v3). */
export const ACTION_TYPES: readonly ActionType[] = [
  'send_offer',
  'accept_offer',
  'reject_offer',
  'counter_offer',
  'make_pitch',
  'counter_pitch',
  'reserve_capacity',
  'release_capacity',
  'form_coalition',
  'commit_to_coalition',
  'allocate_to_job',
  'send_message',
  'wait',
  'finish',
  'bid',
];
