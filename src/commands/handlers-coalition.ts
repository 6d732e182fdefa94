/**
 * `coalition action:propose|accept|commit` (docs/RULES.md §3.9). propose → form_coalition; accept and
 * commit → commit_to_coalition (a member's first commit is its consent, later ones add blocks/credits).
 * Escrow amounts are private, so public posts name committed blocks but never the credits.
 */
import { z } from 'zod';
import { MESSAGE_MAX } from '../engine/actions.js';
import { labName } from '../present/common.js';
import { observationOf, personOf } from './context.js';
import { defineCommand } from './definition.js';
import { idList } from './format.js';
import { formatCommand } from './grammar.js';
import { choiceValue, idListValue, idValue, intValue, moneyValue, textValue } from './options.js';
import { hasSeat, matchExists, running } from './preconditions.js';
import { button, errorReply, mergeReplies, privatePost, publicReply } from '../chat/reply.js';
import { submit } from './submit.js';
import type { CommandError } from './types.js';
import { LIVE, checkCoalition, checkLab, checkOwnBlocks, checkPay, firstError } from './validate.js';
import { playerText } from '../chat/player-text.js';

const CODES = {
  coalitions_disabled: 'action',
  invalid_coalition_target: 'with',
  duplicate_coalition: 'with',
  unknown_coalition: 'id',
  not_coalition_member: 'id',
  coalition_closed: 'id',
  unknown_block: 'blocks',
  unowned_block: 'blocks',
  unavailable_block: 'blocks',
  duplicate_block: 'blocks',
  budget_overspend: 'pay',
  empty_commitment: 'blocks',
};

/** Options that only make sense with some actions. */
const ONLY: Record<string, 'propose' | 'accept/commit'> = {
  with: 'propose',
  msg: 'propose',
  rounds: 'propose',
  id: 'accept/commit',
  blocks: 'accept/commit',
  pay: 'accept/commit',
};

function misplaced(action: string, given: Record<string, unknown>): CommandError | null {
  for (const [name, where] of Object.entries(ONLY)) {
    if (given[name] === undefined) continue;
    const fits = where === 'propose' ? action === 'propose' : action !== 'propose';
    if (!fits)
      return {
        code: 'invalid_option',
        option: name,
        message: `\`${name}:\` is for \`action:${where}\`, not \`action:${action}\`.`,
        expected: `no ${name} with action:${action}`,
      };
  }
  return null;
}

/**
 * `coalition action:propose|accept|commit`: propose → form_coalition (`with`, `msg`, `rounds` 1–9); accept/commit →
 * commit_to_coalition (`id`, `blocks`, `pay` in credits) (docs/RULES.md §3.9). Wrong option for the action: `invalid_option`.
 */
export const coalition = defineCommand(
  'coalition',
  z.object({
    action: choiceValue(['propose', 'accept', 'commit']),
    with: idListValue('lab').optional(),
    id: idValue('coalition').optional(),
    blocks: idListValue('block').optional(),
    pay: moneyValue().optional(),
    msg: textValue(MESSAGE_MAX).optional(),
    rounds: intValue(1, 9).optional(),
  }),
  [matchExists, running, hasSeat],
  async (ctx, o) => {
    const me = ctx.caller.userId;
    const wrong = misplaced(o.action, o);
    if (wrong) return errorReply(me, wrong);
    const obs = observationOf(ctx);
    if (o.action === 'propose') {
      const targets = o.with ?? [];
      if (targets.length === 0) {
        const valid = obs.labs.map((l) => l.id);
        return errorReply(me, {
          code: 'missing_option',
          option: 'with',
          message: '`coalition action:propose` needs `with:` — the labs to invite, comma-separated.',
          expected: 'lab ids',
          validValues: valid,
        });
      }
      const bad = firstError(...targets.map((t) => checkLab('with', t, obs, true)));
      if (bad)
        return errorReply(me, { ...bad, code: bad.code === 'self_trade' ? 'invalid_coalition_target' : bad.code });
      const action = {
        action_type: 'form_coalition' as const,
        target_lab_ids: targets,
        message: o.msg ?? '',
        duration: o.rounds ?? null,
      };
      return submit(ctx, action, CODES, (result, m) => {
        const id = result.created?.coalitionId ?? '?';
        const title = `${labName(m, obs.self.id)} proposes coalition ${id}`;
        const text = `With ${targets.map((t) => labName(m, t)).join(', ')}${o.msg ? `: ${playerText(o.msg)}` : ''}. Every member must accept.`;
        // The public post has no button (the proposer has consented already and would see it too); each
        // invited person gets one privately. Agent seats read the proposal in their observation.
        const join = button(m.id, `Accept ${id}`, formatCommand('coalition', { action: 'accept', id }), 'success');
        const invites = targets.flatMap((t) => {
          const userId = personOf(m, t);
          return userId
            ? [
                privatePost(userId, {
                  title: `${labName(m, obs.self.id)} invites you to coalition ${id}`,
                  text,
                  buttons: [join],
                }),
              ]
            : [];
        });
        return mergeReplies(publicReply({ title, text }), { public: [], private: invites });
      });
    }
    if (!o.id) {
      const valid = obs.myCoalitions.filter((c) => c.status === 'proposed' || c.status === 'active').map((c) => c.id);
      return errorReply(me, {
        code: 'missing_option',
        option: 'id',
        message: `\`coalition action:${o.action}\` needs \`id:\` — the coalition id.`,
        expected: 'a coalition id',
        validValues: valid,
      });
    }
    const blocks = o.blocks ?? [];
    if (o.action === 'commit' && blocks.length === 0 && (o.pay ?? 0) === 0) {
      return errorReply(me, {
        code: 'missing_option',
        option: 'blocks',
        message: '`coalition action:commit` needs `blocks:` and/or `pay:` — what you put into the pool.',
        expected: 'your block ids or credits',
      });
    }
    const bad = firstError(
      checkCoalition('id', o.id, obs),
      checkOwnBlocks('blocks', blocks, obs, LIVE, 'available or reserved'),
      checkPay('pay', o.pay, obs),
    );
    if (bad) return errorReply(me, bad);
    const id = o.id;
    return submit(
      ctx,
      { action_type: 'commit_to_coalition', coalition_id: id, block_ids: blocks, payment: o.pay ?? 0 },
      CODES,
      (result, m) => {
        const who = labName(m, obs.self.id);
        const what = blocks.length ? ` and commits ${idList(blocks)}` : '';
        const activated = result.code === 'coalition_activated' ? ` Every member consented: ${id} is active.` : '';
        const verb =
          o.action === 'accept'
            ? `joins ${id}${what}`
            : `commits ${blocks.length ? idList(blocks) : 'credits'} to ${id}`;
        return publicReply({ text: `${who} ${verb}.${activated}` });
      },
    );
  },
);
