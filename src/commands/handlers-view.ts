/**
 * `status` (public view), `me` (private view) and `done` (the seat is done for the round; the host closes
 * the round when every person/agent seat is done).
 */
import { z } from 'zod';
import { labName, roundLabel, seatLabel } from '../present/common.js';
import { pendingSeats } from '../match/replay.js';
import { defineCommand, type CommandDefinition } from './definition.js';
import type { CommandContext } from './context.js';
import { hasSeat, matchExists, running } from './preconditions.js';
import { errorReply, mergeReplies, privateReply, publicReply } from '../chat/reply.js';
import { boolValue, choiceValue } from './options.js';
import { renderMe, renderStatus } from './views.js';
import { changeSettings, changesSettings, SETTINGS_OPTIONS } from './handlers-settings.js';

/** `status`: the match's public view, posted to the channel. */
export const status = defineCommand('status', z.object({}), [matchExists], async (ctx) =>
  publicReply(renderStatus(ctx.match!)),
);

/** `me`: the caller's own seat view (budget, blocks, jobs, offers, coalitions), privately, with action buttons. */
/**
 * `me` works anywhere: with settings options it stores them (handlers-settings.ts); with no match here it lists
 * the caller's matches elsewhere; in a match it needs a seat there.
 */
export const me = defineCommand('me', z.object(SETTINGS_OPTIONS), [], async (ctx, o) => {
  if (changesSettings(o)) return changeSettings(ctx, o);
  if (!ctx.match && ctx.ambiguous.length === 0) {
    const elsewhere = await myMatchesElsewhere(ctx);
    if (elsewhere) return elsewhere;
  }
  const bad = matchExists(ctx) ?? hasSeat(ctx);
  if (bad) return errorReply(ctx.caller.userId, bad);
  return privateReply(ctx.caller.userId, renderMe(ctx.match!, ctx.lab!));
});

/** A channel as the platform links it (Discord and Slack both read `<#id>`; a thread match names its card's channel). */
const channelRef = (platform: string, m: { channelId: string; parentChannelId?: string }) => {
  const id = (m.parentChannelId ?? m.channelId).split('/')[0]!;
  const ref = platform === 'discord' || platform === 'slack' ? `<#${id}>` : `\`${id}\``;
  return m.parentChannelId ? `the thread under its card in ${ref}` : ref;
};

/** `me` where the caller has no match: their open matches in other channels of the same server, or null when none. */
async function myMatchesElsewhere(ctx: CommandContext) {
  const all = await ctx.host.matchesOf(ctx.caller.userId, ctx.platform);
  const same = all.filter(
    (m) => ctx.caller.spaceId === undefined || m.spaceId === undefined || m.spaceId === ctx.caller.spaceId,
  );
  if (same.length === 0) return null;
  const lines = same.slice(0, 20).map((m) => {
    const where =
      m.phase === 'lobby' ? 'lobby' : `round ${roundLabel(m.state?.round ?? 0, m.state?.params.maxRounds ?? 0)}`;
    return `\`${m.id}\` ${m.settings.task}, ${where}, ${channelRef(ctx.platform, m)}`;
  });
  return privateReply(ctx.caller.userId, {
    title: 'Your matches elsewhere',
    text: `There is no match of yours in this channel. Your open matches on this server: run \`me\` there for your private view.\n${lines.join('\n')}`,
  });
}

/** `done`: the caller's seat is done for this round; the host closes the round when every person/agent seat is done. */
export const done = defineCommand(
  'done',
  z.object({ undo: boolValue().optional(), auto: choiceValue(['on', 'off']).optional() }),
  [matchExists, running, hasSeat],
  async (ctx, o) => {
    const lab = ctx.lab!;
    const before = ctx.match!;
    if (o.auto !== undefined || o.undo === true)
      return doneSetting(ctx, o.auto === 'on' ? 'auto-on' : o.auto === 'off' ? 'auto-off' : 'undo');
    if (before.done.includes(lab)) {
      return privateReply(ctx.caller.userId, {
        text: `You already said done this round. Waiting for: ${
          pendingSeats(before)
            .map((l) => seatLabel(before, l))
            .join(', ') || 'nobody'
        }.`,
      });
    }
    const r = await ctx.host.done(ctx.channelId, ctx.caller, before.state?.round, 'done', before.id);
    if (!r.ok) return errorReply(ctx.caller.userId, r.error);
    const { match, closed } = r.value;
    const round = before.state ? ` with round ${roundLabel(before.state.round, before.state.params.maxRounds)}` : '';
    const said = { text: `${labName(match, lab)} is done${round}.` };
    if (closed) return mergeReplies(publicReply(said), closed);
    const waiting = pendingSeats(match).map((l) => seatLabel(match, l));
    return publicReply({ text: `${said.text}${waiting.length ? ` Waiting for: ${waiting.join(', ')}.` : ''}` });
  },
);

/** `done undo:true` / `done auto:on|off`: take a done back, or set the automatic done for this match. */
async function doneSetting(ctx: CommandContext, how: 'undo' | 'auto-on' | 'auto-off') {
  const before = ctx.match!;
  const lab = ctx.lab!;
  const r = await ctx.host.done(ctx.channelId, ctx.caller, before.state?.round, how, before.id);
  if (!r.ok) return errorReply(ctx.caller.userId, r.error);
  const n = before.state ? before.state.round + 1 : 1;
  if (how === 'auto-off')
    return privateReply(ctx.caller.userId, {
      text: 'You will not be marked done automatically in this match. Type `done` when you are done with a round (`done auto:on` turns it back on).',
    });
  if (how === 'auto-on')
    return privateReply(ctx.caller.userId, {
      text: 'You may be marked done automatically again when nothing is left for you to decide (`done auto:off` turns it off).',
    });
  if (!before.done.includes(lab))
    return privateReply(ctx.caller.userId, { text: `You are not done with round ${n}: nothing to take back.` });
  return publicReply({ text: `${labName(r.value.match, lab)} is not done with round ${n} after all.` });
}

/** The view commands, in catalogue order. */
export const VIEW_COMMANDS: readonly CommandDefinition[] = [status, me, done];
