/**
 * send_message, wait and finish (docs/RULES.md §3.11–3.13).
 */
import type { Action } from '../actions.js';
import { REWARD_COLUMNS, ZERO_BREAKDOWN } from '../reward.js';
import { finalSettlement } from '../settlement.js';
import { own } from '../util.js';
import { fail, ok } from './common.js';
import type { Ctx, Outcome } from './common.js';

type SendMessage = Extract<Action, { action_type: 'send_message' }>;

export function sendMessage(ctx: Ctx, a: SendMessage): Outcome {
  const { d, lab } = ctx;
  if (a.message.length === 0) return fail('empty_message', 'the message is empty');
  const to = a.target_lab_id;
  if (to !== null && (!own(d.s.labs, to) || to === lab)) return fail('unknown_lab', `no other lab ${to}`);
  d.addMessage({ round: d.s.round, from: lab, to, text: a.message, kind: 'message' });
  return ok('message_sent', to === null ? 'message posted publicly' : `message sent to ${to}`);
}

export function wait(): Outcome {
  return ok('waited', 'you wait');
}

/**
 * Settle the seat now (§4.4) and take it out of the match; its pending reward (from other seats'
 * actions this round) is paid in this step. The match is over once every seat has finished.
 */
export function finish(ctx: Ctx): Outcome {
  const { d, lab } = ctx;
  finalSettlement(d, lab, ctx.sink);
  const pending = d.s.seats[lab]!.pendingReward;
  if (pending !== ZERO_BREAKDOWN) {
    for (const c of REWARD_COLUMNS) ctx.reward[c] += pending[c];
    d.seat(lab).pendingReward = ZERO_BREAKDOWN;
  }
  d.lab(lab).finished = true;
  if (d.s.labIds.every((l) => d.s.labs[l]!.finished)) d.s.over = true;
  return ok('finished', 'your seat is settled and finished');
}
