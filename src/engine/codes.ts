/**
 * Machine-readable result codes. Success codes keep the original's names (docs/RULES.md §A.1) where the action exists
 * there; error codes too, plus the ones our stricter rules need.
 */

/** Codes of a successful action (`ActionResult.ok` true), one per outcome (docs/RULES.md §3). */
export const SUCCESS_CODES = [
  'offer_created',
  'offer_accepted',
  'offer_rejected',
  'offer_withdrawn',
  'counter_offer_created',
  'pitch_recorded',
  'counter_pitch_recorded',
  'capacity_reserved',
  'capacity_released',
  'coalition_proposed',
  'coalition_committed',
  'coalition_activated',
  'coalition_breached',
  'job_allocated',
  'message_sent',
  'bid_placed',
  'waited',
  'finished',
] as const;

/** Codes of a refused action (`ActionResult.ok` false); which action returns which: docs/RULES.md §0, §3. */
export const ERROR_CODES = [
  /** Not JSON, or not a valid action shape (unknown action_type, NaN, negative, wrong types, too long). */
  'malformed_action',
  /** The match is over. */
  'match_over',
  /** The seat has finished. */
  'seat_finished',
  /** The seat used up its actions for this round. */
  'action_limit',
  'unknown_lab',
  'self_trade',
  'budget_overspend',
  'unknown_block',
  'unowned_block',
  'unavailable_block',
  'duplicate_block',
  'target_does_not_own_block',
  'empty_offer',
  /** An offer (or counter) with both a payment and an ask (rules v3). */
  'pay_and_ask',
  'unknown_offer',
  'inactive_offer',
  'expired_offer',
  'not_offer_recipient',
  'not_offer_party',
  'invalid_offered_block',
  'invalid_requested_block',
  'empty_pitch',
  'no_pitch_to_counter',
  'unknown_job',
  'job_settled',
  'job_completed',
  'empty_block_list',
  'failed_block',
  'block_used',
  'low_reliability',
  'not_reserved',
  'coalitions_disabled',
  'invalid_coalition_target',
  'duplicate_coalition',
  'unknown_coalition',
  'not_coalition_member',
  'coalition_closed',
  'empty_commitment',
  'empty_message',
  /** bid: no emergency auction is open this round (rules v3). */
  'no_auction',
  /** bid: below the auction's reserve price. */
  'bid_too_low',
] as const;

/** One of {@link SUCCESS_CODES}. */
export type SuccessCode = (typeof SUCCESS_CODES)[number];
/** One of {@link ERROR_CODES}. */
export type ErrorCode = (typeof ERROR_CODES)[number];
/** Any code an action can return. */
export type ResultCode = SuccessCode | ErrorCode;
