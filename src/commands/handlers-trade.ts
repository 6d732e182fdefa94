/**
 * Trading commands: offer (and, as `offer bid:`, a sealed auction bid), accept, reject, counter (docs/RULES.md §3.1–3.4, §5.1). Each checks its ids against
 * the caller's own observation, then dry-runs and submits the engine action (submit.ts). Offers are public
 * (they are in the engine's public view); the buttons to answer one go privately to its recipient.
 */
import { z } from 'zod';
import { MESSAGE_MAX } from '../engine/actions.js';
import type { ActionResult, Offer } from '../engine/types.js';
import { fmtReward, labName } from '../present/common.js';
import { dealSide } from '../present/narrate.js';
import type { HostedMatch } from '../match/types.js';
import { observationOf, personOf, type CommandContext } from './context.js';
import { defineCommand, type CommandDefinition } from './definition.js';
import { idList, offerLine } from './format.js';
import { formatCommand } from './grammar.js';
import { idListValue, idValue, intValue, moneyValue, textValue } from './options.js';
import { hasSeat, matchExists, running } from './preconditions.js';
import { button, errorReply, mergeReplies, privatePost, privateReply, publicReply } from '../chat/reply.js';
import { submit, type CodeOptions } from './submit.js';
import type { Reply } from './types.js';
import { LIVE, checkLab, checkOffer, checkOwnBlocks, checkPay, checkTargetBlocks, firstError } from './validate.js';
import type { CommandError } from './types.js';
import { offerForm } from './builder.js';

type Check = CommandError | null;

const SEAT = [matchExists, running, hasSeat];

/** Engine codes of offers → the option they are about. */
const OFFER_CODES: CodeOptions = {
  unknown_lab: 'to',
  self_trade: 'to',
  empty_offer: 'give',
  pay_and_ask: 'ask',
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
  ask: moneyValue().optional(),
  msg: textValue(MESSAGE_MAX).optional(),
  expires: intValue(0, 3).optional(),
};

/** The caller's private note on its own step reward (reward breakdowns are private, docs/RULES.md §4). */
function rewardNote(ctx: CommandContext, result: ActionResult, text: string): Reply {
  const r = result.reward.normalized_reward;
  const extra = r !== 0 ? ` Step reward ${fmtReward(r)} (deal_quality ${fmtReward(result.reward.deal_quality)}).` : '';
  return { public: [], private: [privatePost(ctx.caller.userId, { text: `${text}${extra}` })] };
}

/**
 * A new offer: a public post without buttons (everyone sees a public post's buttons, the sender too, and
 * only the recipient may answer) and, for a recipient played by a person, a private copy with Accept /
 * Reject / Counter buttons. An agent recipient gets no post: it reads the offer in its observation.
 */
function offerReply(m: HostedMatch, o: Offer, title: string): Reply {
  const announced = publicReply({ title, text: offerLine(m, o) });
  const recipient = personOf(m, o.to);
  if (!recipient) return announced;
  const buttons = [
    button(m.id, `Accept ${o.id}`, formatCommand('accept', { offer: o.id }), 'success'),
    button(m.id, `Reject ${o.id}`, formatCommand('reject', { offer: o.id }), 'danger'),
    button(m.id, `Counter ${o.id}`, formatCommand('counter', { offer: o.id })),
  ];
  const notice = privatePost(recipient, {
    title: `${labName(m, o.from)} offers you ${o.id}`,
    text: `${offerLine(m, o)}\nOnly you can answer it.`,
    buttons,
  });
  return mergeReplies(announced, { public: [], private: [notice] });
}

/** `counter offer:<id>` without terms (the Counter button): how to write one, with the ids either side may use. */
function counterHelp(ctx: CommandContext, original: Offer): Reply {
  const obs = observationOf(ctx);
  const m = ctx.match!;
  const mine = obs.self.blocks.filter((b) => LIVE.includes(b.status)).map((b) => b.id);
  const theirs = obs.blocks.filter((b) => b.owner === original.from && LIVE.includes(b.status)).map((b) => b.id);
  const text = [
    offerLine(m, original),
    `Write what you offer back: \`counter offer:${original.id} give:<your blocks> want:<their blocks> pay:<credits> msg:"…"\` (any of give, want, pay or ask; \`ask:<credits>\` names your price).`,
    `Your blocks: ${idList(mine, 'none')}. ${labName(m, original.from)}'s: ${idList(theirs, 'none')}. Your budget: ${obs.self.budget.toFixed(2)} credits.`,
  ].join('\n');
  return privateReply(ctx.caller.userId, { title: `Counter ${original.id}`, text });
}

/** `offer` with no options: the builder (Discord and Slack open it as a form) and the typed form for the console. */
function builderReply(ctx: CommandContext, obs: ReturnType<typeof observationOf>): Reply {
  const m = ctx.match!;
  const others = obs.labs.filter((l) => !l.finished).map((l) => l.id);
  const mine = obs.self.blocks.filter((b) => LIVE.includes(b.status)).map((b) => b.id);
  const text = [
    'Pick the lab, the blocks and the credits in the form; or write it: `offer to:<lab> give:<your blocks> want:<their blocks> pay:<credits> msg:"…"` (`ask:<credits>` names your price).',
    `Labs: ${idList(others, 'none')}. Your blocks: ${idList(mine, 'none')}. Your budget: ${obs.self.budget.toFixed(2)} credits.`,
  ].join('\n');
  return { ...privateReply(ctx.caller.userId, { title: 'Make an offer', text }), form: offerForm(m, obs) };
}

function createdOffer(result: ActionResult, m: HostedMatch): Offer | undefined {
  const id = result.created?.offerId;
  return id ? m.state?.offers[id] : undefined;
}

/** Both a payment and an ask: an offer moves credits one way (rules v3). */
function payAndAsk(pay: number | undefined, ask: number | undefined): Check {
  if (!pay || !ask) return null;
  return {
    code: 'pay_and_ask',
    option: 'ask',
    message: `An offer either pays (\`pay\`) or asks (\`ask\`) credits, not both: put the difference in one of them.`,
  };
}

/**
 * `offer bid:<credits>`: a sealed bid in the emergency auction open this round (docs/RULES.md §5.1). It
 * lives on `offer` because Discord allows 25 subcommands of /arena; the terms of an offer do not apply.
 */
function auctionBid(
  ctx: CommandContext,
  o: { to?: string; give?: string[]; want?: string[]; pay?: number; ask?: number; bid: number },
): Promise<Reply> | Reply {
  if (
    o.to !== undefined ||
    o.give !== undefined ||
    o.want !== undefined ||
    o.pay !== undefined ||
    o.ask !== undefined
  ) {
    return errorReply(ctx.caller.userId, {
      code: 'bid_with_terms',
      option: 'bid',
      message: '`bid` is a sealed auction bid on its own: leave out to, give, want, pay and ask.',
    });
  }
  const auction = observationOf(ctx).auction;
  if (!auction)
    return errorReply(ctx.caller.userId, {
      code: 'no_auction',
      option: 'bid',
      message: 'No emergency auction is open this round.',
    });
  return submit(
    ctx,
    { action_type: 'bid', amount: o.bid },
    { no_auction: 'bid', bid_too_low: 'bid', budget_overspend: 'bid' },
    (result) =>
      privateReply(ctx.caller.userId, {
        title: `Sealed bid for ${auction.lot.id}`,
        text: `${result.message}. Only you see your bid; the post shows the winner and price only.`,
      }),
  );
}

/** `offer to [give] [want] [pay|ask] [msg] [expires]`: send_offer (docs/RULES.md §3.1; credits, expires in rounds, default 2); or `offer bid`. */
export const offer = defineCommand(
  'offer',
  z.object({ to: idValue('lab').optional(), ...terms, bid: moneyValue().optional() }),
  SEAT,
  async (ctx, o) => {
    if (o.bid !== undefined) return auctionBid(ctx, { ...o, bid: o.bid });
    const obs = observationOf(ctx);
    // Nothing at all (the "Make an offer" button): the builder, and how to type it where forms do not exist.
    if (Object.values(o).every((v) => v === undefined)) return builderReply(ctx, obs);
    if (o.to === undefined) {
      const valid = obs.labs.filter((l) => !l.finished).map((l) => l.id);
      return errorReply(ctx.caller.userId, {
        code: 'missing_option',
        option: 'to',
        message: '`offer` needs `to:` — the lab the offer goes to (or `bid:` alone, in an emergency auction).',
        expected: 'a lab id',
        validValues: valid,
      });
    }
    const give = o.give ?? [];
    const want = o.want ?? [];
    const bad = firstError(
      checkLab('to', o.to, obs, true),
      checkOwnBlocks('give', give, obs, LIVE, 'available or reserved'),
      checkTargetBlocks('want', want, obs, o.to),
      checkPay('pay', o.pay, obs),
      payAndAsk(o.pay, o.ask),
    );
    if (bad) return errorReply(ctx.caller.userId, bad);
    const action = {
      action_type: 'send_offer' as const,
      target_lab_id: o.to,
      block_ids: give,
      requested_block_ids: want,
      payment: o.pay ?? 0,
      ask: o.ask ?? 0,
      message: o.msg ?? '',
      expires_in: o.expires ?? 2,
    };
    return submit(ctx, action, OFFER_CODES, (result, m) => {
      const made = createdOffer(result, m);
      if (!made) return publicReply({ text: result.message });
      return offerReply(m, made, `${labName(m, made.from)} makes an offer to ${labName(m, made.to)}`);
    });
  },
);

/** `accept offer`: accept_offer as its recipient (docs/RULES.md §3.2); public trade post plus a private reward note. */
export const accept = defineCommand('accept', z.object({ offer: idValue('offer') }), SEAT, async (ctx, o) => {
  const obs = observationOf(ctx);
  const bad = checkOffer('offer', o.offer, obs, 'recipient', ctx.match?.state?.offers);
  if (bad) return errorReply(ctx.caller.userId, bad);
  const before = obs.offers.find((x) => x.id === o.offer);
  return submit(ctx, { action_type: 'accept_offer', offer_id: o.offer }, OFFER_CODES, (result, m) => {
    if (!before) return publicReply({ text: result.message });
    const text = `${labName(m, before.from)} gave ${dealSide(m.state, before.offeredBlockIds, before.payment)}; ${labName(m, before.to)} gave ${dealSide(m.state, before.requestedBlockIds, before.ask ?? 0)}.`;
    return mergeReplies(
      publicReply({ title: `${labName(m, before.to)} accepted ${before.id}`, text }),
      rewardNote(ctx, result, `You accepted ${before.id}.`),
    );
  });
});

/** `reject offer`: reject (recipient) or withdraw (sender) an active offer (docs/RULES.md §3.3). */
export const reject = defineCommand('reject', z.object({ offer: idValue('offer') }), SEAT, async (ctx, o) => {
  const obs = observationOf(ctx);
  const bad = checkOffer('offer', o.offer, obs, 'party', ctx.match?.state?.offers);
  if (bad) return errorReply(ctx.caller.userId, bad);
  return submit(ctx, { action_type: 'reject_offer', offer_id: o.offer }, OFFER_CODES, (result, m) => {
    const verb = result.code === 'offer_withdrawn' ? 'withdrew' : 'rejected';
    return publicReply({ text: `${labName(m, obs.self.id)} ${verb} offer \`${o.offer}\`.` });
  });
});

/** `counter offer [give] [want] [pay] [msg] [expires]`: counter_offer to the original sender (docs/RULES.md §3.4). */
export const counter = defineCommand(
  'counter',
  z.object({ offer: idValue('offer'), ...terms }),
  SEAT,
  async (ctx, o) => {
    const obs = observationOf(ctx);
    const give = o.give ?? [];
    const want = o.want ?? [];
    const original = obs.offers.find((x) => x.id === o.offer);
    const bad = firstError(
      checkOffer('offer', o.offer, obs, 'recipient', ctx.match?.state?.offers),
      checkOwnBlocks('give', give, obs, LIVE, 'available or reserved'),
      original ? checkTargetBlocks('want', want, obs, original.from) : null,
      checkPay('pay', o.pay, obs),
      payAndAsk(o.pay, o.ask),
    );
    if (bad) return errorReply(ctx.caller.userId, bad);
    // No terms at all (the Counter button): say how to write a counter instead of failing as an empty offer.
    if (original && o.give === undefined && o.want === undefined && o.pay === undefined && o.ask === undefined)
      return { ...counterHelp(ctx, original), form: offerForm(ctx.match!, obs, original) };
    const action = {
      action_type: 'counter_offer' as const,
      offer_id: o.offer,
      block_ids: give,
      requested_block_ids: want,
      payment: o.pay ?? 0,
      ask: o.ask ?? 0,
      message: o.msg ?? '',
      expires_in: o.expires ?? 2,
    };
    return submit(ctx, action, { ...OFFER_CODES, unknown_lab: 'offer', self_trade: 'offer' }, (result, m) => {
      const made = createdOffer(result, m);
      if (!made) return publicReply({ text: result.message });
      return offerReply(m, made, `${labName(m, made.from)} counters ${o.offer} with ${made.id}`);
    });
  },
);

/** The trading commands, in catalogue order. */
export const TRADE_COMMANDS: readonly CommandDefinition[] = [offer, accept, reject, counter];
