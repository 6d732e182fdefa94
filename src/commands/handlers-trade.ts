/**
 * Trading commands: offer, accept, reject, counter (docs/RULES.md §3.1–3.4). Each checks its ids against
 * the caller's own observation, then dry-runs and submits the engine action (submit.ts). Offers are public
 * (they are in the engine's public view); the post carries Accept / Reject buttons for the recipient.
 */
import { z } from 'zod';
import { MESSAGE_MAX } from '../engine/actions.js';
import type { ActionResult, Offer } from '../engine/types.js';
import { fmtReward, labName } from '../present/common.js';
import type { HostedMatch } from '../match/types.js';
import { observationOf, type CommandContext } from './context.js';
import { defineCommand, type CommandDefinition } from './definition.js';
import { idList, offerLine } from './format.js';
import { formatCommand } from './grammar.js';
import { idListValue, idValue, intValue, moneyValue, textValue } from './options.js';
import { hasSeat, matchExists, running } from './preconditions.js';
import { button, errorReply, mergeReplies, privatePost, publicReply } from '../chat/reply.js';
import { submit, type CodeOptions } from './submit.js';
import type { Post, Reply } from './types.js';
import { LIVE, checkLab, checkOffer, checkOwnBlocks, checkTargetBlocks, firstError } from './validate.js';

const SEAT = [matchExists, running, hasSeat];

/** Engine codes of offers → the option they are about. */
const OFFER_CODES: CodeOptions = {
  unknown_lab: 'to',
  self_trade: 'to',
  empty_offer: 'give',
  budget_overspend: 'pay',
  unknown_block: 'give',
  unowned_block: 'give',
  unavailable_block: 'give',
  duplicate_block: 'give',
  target_does_not_own_block: 'want',
  unknown_offer: 'offer',
  inactive_offer: 'offer',
  expired_offer: 'offer',
  not_offer_recipient: 'offer',
  not_offer_party: 'offer',
  invalid_offered_block: 'offer',
  invalid_requested_block: 'offer',
};

const terms = {
  give: idListValue('block').optional(),
  want: idListValue('block').optional(),
  pay: moneyValue().optional(),
  msg: textValue(MESSAGE_MAX).optional(),
  expires: intValue(0, 3).optional(),
};

/** The caller's private note on its own step reward (reward breakdowns are private, docs/RULES.md §4). */
function rewardNote(ctx: CommandContext, result: ActionResult, text: string): Reply {
  const r = result.reward.normalized_reward;
  const extra = r !== 0 ? ` Step reward ${fmtReward(r)} (deal_quality ${fmtReward(result.reward.deal_quality)}).` : '';
  return { public: [], private: [privatePost(ctx.caller.userId, { text: `${text}${extra}` })] };
}

/** Public post of a new offer with buttons for its recipient. */
function offerPost(m: HostedMatch, o: Offer, title: string): Post {
  return {
    title,
    text: offerLine(m, o),
    buttons: [
      button(`Accept ${o.id}`, formatCommand('accept', { offer: o.id }), 'success'),
      button(`Reject ${o.id}`, formatCommand('reject', { offer: o.id }), 'danger'),
    ],
  };
}

function createdOffer(result: ActionResult, m: HostedMatch): Offer | undefined {
  const id = result.created?.offerId;
  return id ? m.state?.offers[id] : undefined;
}

/** `offer to [give] [want] [pay] [msg] [expires]`: send_offer (docs/RULES.md §3.1; pay in credits, expires in rounds, default 2). */
export const offer = defineCommand('offer', z.object({ to: idValue('lab'), ...terms }), SEAT, async (ctx, o) => {
  const obs = observationOf(ctx);
  const give = o.give ?? [];
  const want = o.want ?? [];
  const bad = firstError(
    checkLab('to', o.to, obs, true),
    checkOwnBlocks('give', give, obs, LIVE, 'available or reserved'),
    checkTargetBlocks('want', want, obs, o.to),
  );
  if (bad) return errorReply(ctx.caller.userId, bad);
  const action = { action_type: 'send_offer' as const, target_lab_id: o.to, block_ids: give, requested_block_ids: want, payment: o.pay ?? 0, message: o.msg ?? '', expires_in: o.expires ?? 2 };
  return submit(ctx, action, OFFER_CODES, (result, m) => {
    const made = createdOffer(result, m);
    if (!made) return publicReply({ text: result.message });
    return publicReply(offerPost(m, made, `${labName(m, made.from)} makes an offer to ${labName(m, made.to)}`));
  });
});

/** `accept offer`: accept_offer as its recipient (docs/RULES.md §3.2); public trade post plus a private reward note. */
export const accept = defineCommand('accept', z.object({ offer: idValue('offer') }), SEAT, async (ctx, o) => {
  const obs = observationOf(ctx);
  const bad = checkOffer('offer', o.offer, obs, 'recipient');
  if (bad) return errorReply(ctx.caller.userId, bad);
  const before = obs.offers.find((x) => x.id === o.offer);
  return submit(ctx, { action_type: 'accept_offer', offer_id: o.offer }, OFFER_CODES, (result, m) => {
    if (!before) return publicReply({ text: result.message });
    const text = `${labName(m, before.from)} gave ${idList(before.offeredBlockIds, 'no blocks')} + ${before.payment.toFixed(2)} credits; ${labName(m, before.to)} gave ${idList(before.requestedBlockIds, 'no blocks')}.`;
    return mergeReplies(publicReply({ title: `${labName(m, before.to)} accepted ${before.id}`, text }), rewardNote(ctx, result, `You accepted ${before.id}.`));
  });
});

/** `reject offer`: reject (recipient) or withdraw (sender) an active offer (docs/RULES.md §3.3). */
export const reject = defineCommand('reject', z.object({ offer: idValue('offer') }), SEAT, async (ctx, o) => {
  const obs = observationOf(ctx);
  const bad = checkOffer('offer', o.offer, obs, 'party');
  if (bad) return errorReply(ctx.caller.userId, bad);
  return submit(ctx, { action_type: 'reject_offer', offer_id: o.offer }, OFFER_CODES, (result, m) => {
    const verb = result.code === 'offer_withdrawn' ? 'withdrew' : 'rejected';
    return publicReply({ text: `${labName(m, obs.self.id)} ${verb} offer \`${o.offer}\`.` });
  });
});

/** `counter offer [give] [want] [pay] [msg] [expires]`: counter_offer to the original sender (docs/RULES.md §3.4). */
export const counter = defineCommand('counter', z.object({ offer: idValue('offer'), ...terms }), SEAT, async (ctx, o) => {
  const obs = observationOf(ctx);
  const give = o.give ?? [];
  const want = o.want ?? [];
  const original = obs.offers.find((x) => x.id === o.offer);
  const bad = firstError(
    checkOffer('offer', o.offer, obs, 'recipient'),
    checkOwnBlocks('give', give, obs, LIVE, 'available or reserved'),
    original ? checkTargetBlocks('want', want, obs, original.from) : null,
  );
  if (bad) return errorReply(ctx.caller.userId, bad);
  const action = { action_type: 'counter_offer' as const, offer_id: o.offer, block_ids: give, requested_block_ids: want, payment: o.pay ?? 0, message: o.msg ?? '', expires_in: o.expires ?? 2 };
  return submit(ctx, action, { ...OFFER_CODES, unknown_lab: 'offer', self_trade: 'offer' }, (result, m) => {
    const made = createdOffer(result, m);
    if (!made) return publicReply({ text: result.message });
    return publicReply(offerPost(m, made, `${labName(m, made.from)} counters ${o.offer} with ${made.id}`));
  });
});

/** The trading commands, in catalogue order. */
export const TRADE_COMMANDS: readonly CommandDefinition[] = [offer, accept, reject, counter];
