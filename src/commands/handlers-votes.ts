/**
 * Preference commands: `vote` (blind pairwise votes on a round's pitches, private) and `stats`
 * (people vs the judge over the channel's finished matches, public). The ballot rules live in src/voting/ballots
 * and the round host (src/voting/vote-desk.ts); these handlers only parse and render.
 */
import { z } from 'zod';
import { VOTE_CHOICES, type VoteChoice } from '../voting/ballots/index.js';
import { errorReply, privatePost, publicReply } from '../chat/reply.js';
import { DEFAULT_SELECTION, formatStats, statsForMatches } from '../analytics/preference/index.js';
import { dataPolicyOf } from './context.js';
import { defineCommand, type CommandDefinition } from './definition.js';
import { choiceValue, intValue } from './options.js';
import { voteLinkFor } from '../web/links/vote-link.js';
import { usageView } from './handlers-usage.js';

/** Ballot ids are `v_<n>`. */
const ballotValue = () => {
  const expected = 'a ballot id like v_3';
  return z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
    z.string({ error: expected }).regex(/^v_\d{1,3}$/, { error: expected }),
  );
};

/**
 * `vote [ballot] [pair] [choice]`: without a choice, show the caller's next (or the named) pair privately
 * with A / B / tie / both-bad buttons; with one, record the vote and show the authors, the judge's scores
 * of the two pitches and the next pair. Errors (private, nothing recorded): `no_ballot`, `unknown_ballot`,
 * `ballot_closed`, `unknown_pair`, `own_pitch`, `duplicate_vote`, `rate_limited`, option errors.
 */
export const vote = defineCommand(
  'vote',
  z.object({
    ballot: ballotValue().optional(),
    pair: intValue(1, 1000).optional(),
    choice: choiceValue(VOTE_CHOICES as unknown as [VoteChoice, ...VoteChoice[]]).optional(),
  }),
  [],
  async (ctx, o) => {
    const r = await ctx.host.vote(ctx.channelId, ctx.caller, {
      ...(ctx.boundTo !== null ? { match: ctx.boundTo } : {}),
      ...(o.ballot !== undefined ? { ballot: o.ballot } : {}),
      ...(o.pair !== undefined ? { pair: o.pair } : {}),
      ...(o.choice !== undefined ? { choice: o.choice } : {}),
    });
    if (!r.ok) return errorReply(ctx.caller.userId, r.error);
    // With the web page configured (config web.publicUrl), the reply also offers a personal, expiring, single-use link to vote in a browser.
    const link =
      o.choice === undefined ? await voteLinkFor(ctx.host.eventStore, ctx.caller, ctx.channelId, Date.now()) : null;
    if (!link) return r.value;
    const note = `Or vote in a browser: ${link.url}
This link is yours alone (votes count as yours): it works once and until ${new Date(link.expiresAt).toISOString()}.`;
    return {
      ...r.value,
      private: [...r.value.private, privatePost(ctx.caller.userId, { title: 'Vote on the web', text: note })],
    };
  },
);

/**
 * `stats [view]`: votes and judge–human agreement over the channel's finished matches, posted to the channel;
 * `view:usage` is the admin view of today's LLM usage instead (handlers-usage.ts).
 */
export const stats = defineCommand(
  'stats',
  z.object({ view: choiceValue(['votes', 'usage']).optional() }),
  [],
  async (ctx, o) => {
    if (o.view === 'usage') return usageView(ctx);
    const computed = await statsForMatches(
      ctx.host.eventStore,
      { channelId: ctx.channelId },
      { ...DEFAULT_SELECTION, includeSeeded: dataPolicyOf(ctx.host).includeSeeded },
    );
    return publicReply({ title: 'Preference data in this channel (finished matches)', text: formatStats(computed) });
  },
);

/** The preference commands, in catalogue order. */
export const VOTE_COMMANDS: readonly CommandDefinition[] = [vote, stats];
