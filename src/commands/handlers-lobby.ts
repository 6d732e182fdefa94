/**
 * Match lifecycle commands: new, join, seat, start, end (help is in handlers-help.ts). The host (src/host) enforces the same
 * rules under its lock; the preconditions here only give the early, specific answer.
 */
import { z } from 'zod';
import { POLICY_NAMES } from '../engine/config.js';
import { TASK_NAMES, type PolicyName } from '../engine/types.js';
import { labName, seatLabel } from '../present/common.js';
import { MAX_ROUND_SECONDS, resolveSettings } from '../match/settings.js';
import type { HostedMatch, MatchSettings, SeatDriver } from '../match/types.js';
import type { CommandContext } from './context.js';
import type { CardUpdate, Reply, ThreadSurface } from '../chat/types.js';
import { placeholderCard, withCard } from '../present/card.js';
import { CHAT_SETTING } from '../store/chat-settings.js';
import { plainOf } from '../chat/player-text.js';
import { defineCommand, type CommandDefinition } from './definition.js';
import { boolValue, choiceValue, idValue, intValue, seedValue } from './options.js';
import { inLobby, isHost, matchExists, noSeat } from './preconditions.js';
import { errorReply, mergeReplies, privateReply, publicReply } from '../chat/reply.js';
import { renderLobby } from './views.js';
import { personName } from '../chat/player-text.js';

/**
 * Said plainly when a match with votes on opens (also by the console, which opens matches itself): what
 * people write and vote is kept for research exports.
 */
export const VOTES_NOTICE =
  'Votes are on: after each round anyone here can compare the pitches blind (`vote`). Pitches and votes are collected for research exports (voters appear only as pseudonyms).';

/**
 * `new [task] [seed] [round_seconds] [holdout] [votes] [thread]`: open a match's lobby; the caller hosts it.
 * With a platform that can open threads (`ctx.surface`) and `thread:on` (default: the channel's setting, then
 * the platform's), the match plays in its own thread under a card in this channel (src/present/card.ts), so a
 * channel holds any number of such matches; otherwise in this channel, one at a time. Errors: `match_exists`,
 * `invalid_settings` (host, src/match/results.ts).
 */
export const newMatch = defineCommand(
  'new',
  z.object({
    task: choiceValue(TASK_NAMES as [string, ...string[]]).optional(),
    seed: seedValue().optional(),
    round_seconds: intValue(0, MAX_ROUND_SECONDS).optional(),
    holdout: boolValue().optional(),
    votes: choiceValue(['on', 'off']).optional(),
    thread: choiceValue(['on', 'off']).optional(),
  }),
  [
    // A platform that opens threads can always open one more match here; otherwise one match per channel.
    (ctx) =>
      ctx.match && ctx.channelId === ctx.calledFrom && !(ctx.surface && !ctx.surface.inThread)
        ? {
            code: 'match_exists',
            message: `This channel already has a match (${ctx.match.phase}); the host can \`end\` it first.`,
          }
        : null,
  ],
  async (ctx, o) => {
    const settings = {
      ...(o.task !== undefined ? { task: o.task as (typeof TASK_NAMES)[number] } : {}),
      ...(o.seed !== undefined ? { seed: o.seed } : {}),
      ...(o.round_seconds !== undefined ? { roundSeconds: o.round_seconds } : {}),
      ...(o.holdout !== undefined ? { holdout: o.holdout } : {}),
      ...(o.votes !== undefined ? { votes: o.votes === 'on' } : {}),
    };
    // Bad settings are refused before a thread is opened for them.
    const checked = resolveSettings(settings);
    if (!checked.ok) return errorReply(ctx.caller.userId, checked.error);
    const surface = ctx.surface;
    if (surface && (await wantsThread(ctx, surface, o.thread))) {
      const opened = await surface.openThread(
        ctx.calledFrom,
        placeholderCard(o.task ?? 'match', ctx.caller.displayName),
        threadName(o.task ?? 'match', ctx.caller.displayName),
      );
      if (opened) return newInThread(ctx, settings, opened);
      // The platform refused (e.g. no permission to open threads here): the match plays in this channel.
    }
    if (ctx.match && ctx.channelId === ctx.calledFrom) {
      return errorReply(ctx.caller.userId, {
        code: 'match_exists',
        message: `This channel already has a match (${ctx.match.phase}); the host can \`end\` it first.`,
      });
    }
    const r = await ctx.host.create(ctx.calledFrom, ctx.platform, ctx.caller, settings);
    if (!r.ok) return errorReply(ctx.caller.userId, r.error);
    return { ...lobbyOpened(ctx, r.value), channelId: ctx.calledFrom };
  },
);

/** Whether `new` opens its match in a thread: `thread:` given, else the channel's setting, else the platform's default. */
async function wantsThread(ctx: CommandContext, surface: ThreadSurface, option: string | undefined): Promise<boolean> {
  if (surface.inThread) return false;
  if (option !== undefined) return option === 'on';
  const channel = await ctx.host.eventStore.chatSetting('channel', ctx.calledFrom, CHAT_SETTING.threads);
  return channel === null ? surface.threadsByDefault : channel === 'on';
}

/** A thread's name (Discord allows 100 characters, plain text): the task and its host. */
function threadName(task: string, host: string): string {
  return `${task} · ${plainOf(host).replace(/\s+/g, ' ').trim() || 'host'}`.slice(0, 100);
}

/** The lobby post of a new match, with the votes notice when its votes are on. */
function lobbyOpened(ctx: CommandContext, m: HostedMatch): Reply {
  const post = renderLobby(m);
  const research = m.settings.votes ? `\n${VOTES_NOTICE}` : '';
  return publicReply({ ...post, text: `Host: ${personName(ctx.caller.displayName)}. ${post.text}${research}` });
}

/** The match of a `new` whose thread is open: created there, its card filled in, the lobby posted in the thread. */
async function newInThread(
  ctx: CommandContext,
  settings: Partial<MatchSettings>,
  opened: { threadId: string; cardMessageId: string },
): Promise<Reply> {
  const caller = { ...ctx.caller, parentChannelId: ctx.calledFrom };
  const r = await ctx.host.create(opened.threadId, ctx.platform, caller, settings, {
    cardMessageId: opened.cardMessageId,
  });
  if (!r.ok) {
    // The card stays, saying so, rather than promising a lobby that does not exist.
    const failed = { title: 'No match opened', text: `${r.error.message} Nothing was created.` };
    const card: CardUpdate = {
      matchId: '',
      channelId: ctx.calledFrom,
      messageId: opened.cardMessageId,
      threadId: opened.threadId,
      post: failed,
      final: true,
    };
    return { ...errorReply(ctx.caller.userId, r.error), card };
  }
  const m = r.value;
  const told = privateReply(ctx.caller.userId, {
    text: `Your match \`${m.id}\` is open in the thread under its card in this channel. Seat agents with \`seat\` and start it with \`start\`, there or here.`,
  });
  return withCard({ ...mergeReplies(lobbyOpened(ctx, m), told), channelId: opened.threadId }, m);
}

/** `join [lab]`: take a seat (the first free one if none is named). Errors: preconditions, `seat_taken`, `already_seated`, `unknown_seat`. */
export const join = defineCommand(
  'join',
  z.object({ lab: idValue('lab').optional() }),
  [matchExists, inLobby, noSeat],
  async (ctx, o) => {
    const r = await ctx.host.join(ctx.channelId, ctx.caller, o.lab);
    if (!r.ok) return errorReply(ctx.caller.userId, r.error);
    const { lab, match } = r.value;
    const post = renderLobby(match);
    return withCard(
      publicReply({
        ...post,
        title: `${labName(match, lab)} (${lab}) is taken by ${personName(ctx.caller.displayName)}`,
        text: post.title ?? '',
      }),
      match,
    );
  },
);

/**
 * `seat lab agent:scripted|llm [policy] [model]` (host only, lobby): give a seat to a scripted policy (default
 * cooperative) or an LLM agent (default: the configured agent model). Errors: `invalid_option`, `invalid_driver`, host codes.
 */
export const seat = defineCommand(
  'seat',
  z.object({
    lab: idValue('lab'),
    agent: choiceValue(['scripted', 'llm']),
    policy: choiceValue(POLICY_NAMES as [PolicyName, ...PolicyName[]]).optional(),
    model: z.string().trim().min(1, { error: 'a model name' }).max(200).optional(),
  }),
  [matchExists, isHost, inLobby],
  async (ctx, o) => {
    let driver: SeatDriver;
    if (o.agent === 'scripted') {
      if (o.model !== undefined)
        return errorReply(ctx.caller.userId, {
          code: 'invalid_option',
          option: 'model',
          message: '`model:` is for `agent:llm`; scripted seats take `policy:`.',
          expected: 'no model with agent:scripted',
        });
      driver = { kind: 'scripted', policy: o.policy ?? 'cooperative' };
    } else {
      if (o.policy !== undefined)
        return errorReply(ctx.caller.userId, {
          code: 'invalid_option',
          option: 'policy',
          message: '`policy:` is for `agent:scripted`; LLM seats take `model:`.',
          expected: 'no policy with agent:llm',
        });
      // No model: the host uses the configured default agent model, or says which setting is missing.
      driver = { kind: 'llm', model: o.model ?? '' };
    }
    const r = await ctx.host.assign(ctx.channelId, ctx.caller, o.lab, driver);
    if (!r.ok) return errorReply(ctx.caller.userId, r.error);
    const m = r.value;
    const before = ctx.match?.drivers ?? {};
    const assigned =
      Object.keys(m.drivers).find((l) => JSON.stringify(m.drivers[l]) !== JSON.stringify(before[l])) ?? o.lab;
    const post = renderLobby(m);
    return withCard(publicReply({ ...post, title: `${seatLabel(m, assigned)} is seated`, text: post.title ?? '' }), m);
  },
);

/** `start` (host only, lobby): empty seats get scripted archetypes, the engine state is created and round 0 opens. */
export const start = defineCommand('start', z.object({}), [matchExists, isHost, inLobby], async (ctx) => {
  const r = await ctx.host.start(ctx.channelId, ctx.caller);
  if (!r.ok) return errorReply(ctx.caller.userId, r.error);
  return r.value.reply;
});

/** `end` (host only): end the lobby or running match now. Errors: preconditions, `not_host`, `match_over`. */
export const end = defineCommand('end', z.object({}), [matchExists, isHost], async (ctx) => {
  const r = await ctx.host.end(ctx.channelId, ctx.caller);
  if (!r.ok) return errorReply(ctx.caller.userId, r.error);
  return mergeReplies(r.value.reply);
});

/** The lifecycle commands, in catalogue order. */
export const LOBBY_COMMANDS: readonly CommandDefinition[] = [newMatch, join, seat, start, end];
