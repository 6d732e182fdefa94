/**
 * A seat's other actions: pitch, reserve, release, allocate, message, finish (docs/RULES.md §3.5–3.13).
 * Private facts (which job a reservation or allocation is for) are answered privately; pitches, public
 * messages and breaches are public.
 */
import { z } from 'zod';
import { MESSAGE_MAX, PITCH_MAX, PITCH_MIN } from '../engine/actions.js';
import { labName } from '../present/common.js';
import { observationOf } from './context.js';
import { defineCommand, type CommandDefinition } from './definition.js';
import { idList } from './format.js';
import { idListValue, idValue, textValue } from './options.js';
import { hasSeat, matchExists, running } from './preconditions.js';
import { errorReply, mergeReplies, privatePost, privateReply, publicReply } from '../chat/reply.js';
import { submit } from './submit.js';
import type { Reply } from './types.js';
import { checkAllocatable, checkLab, checkOwnBlocks, checkOwnJobs, firstError } from './validate.js';
import { playerBlock, playerSays } from '../chat/player-text.js';

const SEAT = [matchExists, running, hasSeat];

/** `pitch text [job] [reply_to]`: make_pitch, or counter_pitch with `reply_to` (docs/RULES.md §3.5–3.6); public. */
export const pitch = defineCommand(
  'pitch',
  z.object({
    text: textValue(PITCH_MAX, PITCH_MIN),
    job: idListValue('job').optional(),
    reply_to: idValue('lab').optional(),
  }),
  SEAT,
  async (ctx, o) => {
    const obs = observationOf(ctx);
    const jobs = o.job ?? [];
    let bad = firstError(
      checkOwnJobs('job', jobs, obs),
      o.reply_to ? checkLab('reply_to', o.reply_to, obs, true) : null,
    );
    if (!bad && o.reply_to && !obs.pitches.some((p) => p.lab === o.reply_to)) {
      const pitched = [...new Set(obs.pitches.map((p) => p.lab))].filter((l) => l !== obs.self.id);
      bad = {
        code: 'no_pitch_to_counter',
        option: 'reply_to',
        message: `\`reply_to:${o.reply_to}\` has not pitched this round.`,
        expected: 'a lab that pitched this round',
        validValues: pitched,
      };
    }
    if (bad) return errorReply(ctx.caller.userId, bad);
    const action = o.reply_to
      ? { action_type: 'counter_pitch' as const, target_lab_id: o.reply_to, message: o.text, job_ids: jobs }
      : { action_type: 'make_pitch' as const, message: o.text, job_ids: jobs };
    return submit(
      ctx,
      action,
      { empty_pitch: 'text', unknown_job: 'job', unknown_lab: 'reply_to', no_pitch_to_counter: 'reply_to' },
      (_r, m) => {
        const about = jobs.length ? ` for ${jobs.join(', ')}` : '';
        const answer = o.reply_to ? `, answering ${labName(m, o.reply_to)}` : '';
        return publicReply({
          title: `${labName(m, obs.self.id)} pitches${about}${answer}`,
          text: `${playerBlock(o.text)}\nThe judge scores this round's pitches when it closes.`,
        });
      },
    );
  },
);

/** `reserve blocks [job]`: reserve_capacity (docs/RULES.md §3.7); answered privately. */
export const reserve = defineCommand(
  'reserve',
  z.object({ blocks: idListValue('block'), job: idValue('job').optional() }),
  SEAT,
  async (ctx, o) => {
    const obs = observationOf(ctx);
    const bad = firstError(
      checkOwnBlocks('blocks', o.blocks, obs, ['available']),
      o.job ? checkOwnJobs('job', [o.job], obs) : null,
    );
    if (bad) return errorReply(ctx.caller.userId, bad);
    const codes = {
      empty_block_list: 'blocks',
      unknown_block: 'blocks',
      unowned_block: 'blocks',
      unavailable_block: 'blocks',
      duplicate_block: 'blocks',
      unknown_job: 'job',
    };
    return submit(ctx, { action_type: 'reserve_capacity', block_ids: o.blocks, job_id: o.job ?? null }, codes, () =>
      privateReply(ctx.caller.userId, {
        text: `Reserved ${idList(o.blocks)}${o.job ? ` for ${o.job}` : ''}. Others see them as reserved (not for sale); you can still allocate, commit or trade them. Idle reservations cost at the deadline.`,
      }),
    );
  },
);

/** `release blocks`: release_capacity (docs/RULES.md §3.8); private, unless it breaches a coalition (public). */
export const release = defineCommand('release', z.object({ blocks: idListValue('block') }), SEAT, async (ctx, o) => {
  const obs = observationOf(ctx);
  const bad = checkOwnBlocks('blocks', o.blocks, obs, ['reserved', 'committed'], 'reserved or committed');
  if (bad) return errorReply(ctx.caller.userId, bad);
  const codes = {
    empty_block_list: 'blocks',
    unknown_block: 'blocks',
    unowned_block: 'blocks',
    not_reserved: 'blocks',
    duplicate_block: 'blocks',
  };
  return submit(ctx, { action_type: 'release_capacity', block_ids: o.blocks }, codes, (result, m) => {
    if (result.code === 'coalition_breached') {
      return publicReply({
        title: `${labName(m, obs.self.id)} breached a coalition`,
        text: `It withdrew ${idList(o.blocks)} from an active coalition; the coalition dissolves (docs/RULES.md §3.9).`,
      });
    }
    return privateReply(ctx.caller.userId, { text: `Released ${idList(o.blocks)}.` });
  });
});

/** `allocate job blocks`: allocate_to_job (docs/RULES.md §3.10); private reply with the job's GPU-hours so far. */
export const allocate = defineCommand(
  'allocate',
  z.object({ job: idValue('job'), blocks: idListValue('block') }),
  SEAT,
  async (ctx, o) => {
    const obs = observationOf(ctx);
    const bad = firstError(checkOwnJobs('job', [o.job], obs), checkAllocatable('blocks', o.blocks, obs));
    if (bad) return errorReply(ctx.caller.userId, bad);
    const codes = {
      unknown_job: 'job',
      job_settled: 'job',
      job_completed: 'job',
      empty_block_list: 'blocks',
      unknown_block: 'blocks',
      unowned_block: 'blocks',
      failed_block: 'blocks',
      block_used: 'blocks',
      low_reliability: 'blocks',
      duplicate_block: 'blocks',
    };
    return submit(ctx, { action_type: 'allocate_to_job', job_id: o.job, block_ids: o.blocks }, codes, (_r, m) => {
      const j = m.state?.jobs[o.job];
      const over = j ? Math.round((j.allocatedHours - j.gpuHoursRequired) * 100) / 100 : 0;
      // Allocated blocks are used whole (docs/RULES.md §3.10), so "12/2 GPU-h" read like a typo: say what the surplus is.
      const progress = !j
        ? ''
        : over > 0
          ? ` ${j.allocatedHours} GPU-h for a ${j.gpuHoursRequired} GPU-h job: complete, it settles at its deadline. A block is used whole, so ${over} GPU-h ${over === 1 ? 'goes' : 'go'} unused.`
          : ` ${j.allocatedHours}/${j.gpuHoursRequired} GPU-h${over === 0 ? ': complete, it settles at its deadline' : ''}.`;
      return privateReply(ctx.caller.userId, { text: `Allocated ${idList(o.blocks)} to ${o.job}.${progress}` });
    });
  },
);

/** `message text [to]`: send_message (docs/RULES.md §3.11); public, or direct (also DM'd to a human recipient). */
export const message = defineCommand(
  'message',
  z.object({ text: textValue(MESSAGE_MAX), to: idValue('lab').optional() }),
  SEAT,
  async (ctx, o) => {
    const obs = observationOf(ctx);
    const bad = o.to ? checkLab('to', o.to, obs, true) : null;
    if (bad) return errorReply(ctx.caller.userId, bad);
    return submit(
      ctx,
      { action_type: 'send_message', target_lab_id: o.to ?? null, message: o.text },
      { empty_message: 'text', unknown_lab: 'to' },
      (_r, m) => {
        const from = labName(m, obs.self.id);
        if (!o.to) return publicReply({ text: `**${from}:**${playerSays(o.text)}` });
        const reply: Reply = privateReply(ctx.caller.userId, {
          text: `You → ${labName(m, o.to)} (direct):${playerSays(o.text)}`,
        });
        const d = m.drivers[o.to];
        if (d?.kind === 'human')
          reply.private.push(privatePost(d.userId, { text: `${from} → you (direct):${playerSays(o.text)}` }));
        return reply;
      },
    );
  },
);

/** `finish`: settle the caller's seat now (docs/RULES.md §3.13, §4.4); public. */
export const finish = defineCommand('finish', z.object({}), SEAT, async (ctx) =>
  submit(ctx, { action_type: 'finish' }, {}, (_r, m) =>
    mergeReplies(
      publicReply({ text: `${labName(m, ctx.lab ?? '')} finished: its jobs settled and it takes no further part.` }),
    ),
  ),
);

/** The seat's non-trading actions, in catalogue order. */
export const SEAT_COMMANDS: readonly CommandDefinition[] = [pitch, reserve, release, allocate, message, finish];
