/**
 * `privacy`: what the bot stores about the caller, their answer to the data notice, and erasure
 * (docs/PREFERENCE-DATA.md#consent-and-erasure). Always private. Also {@link consentPrompt}: the notice shown
 * once, with its two buttons, after a person's first pitch, message or vote (src/commands/run.ts).
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { button, errorReply, privatePost, privateReply } from '../chat/reply.js';
import { pseudonymizer } from '../analytics/preference/pseudonym.js';
import { seatedIn, tombstoneWords } from '../match/erase.js';
import type { ConsentRecord, EventRewrite, EventStore } from '../store/types.js';
import { dataPolicyOf, type CommandContext } from './context.js';
import { defineCommand, type CommandDefinition } from './definition.js';
import { choiceValue } from './options.js';
import type { Button, Reply } from './types.js';

/** Commands whose success puts the caller's words or votes in the store: the notice follows the first. */
export const CONSENT_TRIGGERS: ReadonlySet<string> = new Set(['pitch', 'message', 'vote']);

/** A consent state as the person reads it (`privacy`, the Slack App Home). */
export const STATE_TEXT: Record<ConsentRecord['state'] | 'none', string> = {
  none: 'not asked yet: nothing of yours is exported',
  asked: 'shown the notice, no answer yet: nothing of yours is exported',
  granted: 'you agreed: your pitches, messages and votes may be exported under a pseudonym',
  declined: 'you declined: you play and vote as usual, and none of your words or votes is exported',
};

/** What is stored about `userId`: matches they sat in (with their words), their votes. */
async function footprint(store: EventStore, userId: string) {
  const matches: { id: string; status: string; texts: number }[] = [];
  for (const rec of await store.listMatches()) {
    const log = await store.load(rec.id);
    if (!seatedIn(log, userId)) continue;
    matches.push({
      id: rec.id,
      status: rec.status,
      texts: tombstoneWords(log, userId).filter((t) => t.body.type === 'action').length,
    });
  }
  const votes = await store.listVotes({ voterId: userId });
  return { matches, votes: votes.length };
}

const buttonsFor = (ctx: CommandContext, pairs: [string, string, Button['style']][]): Button[] => {
  const m = ctx.match?.id ?? ctx.boundTo;
  return m ? pairs.map(([label, cmd, style]) => button(m, label, cmd, style)) : [];
};

async function show(ctx: CommandContext): Promise<Reply> {
  const store = ctx.host.eventStore;
  const policy = dataPolicyOf(ctx.host);
  const consent = await store.getConsent(ctx.caller.userId);
  const f = await footprint(store, ctx.caller.userId);
  const texts = f.matches.reduce((a, m) => a + m.texts, 0);
  const lines = [
    `Consent: ${STATE_TEXT[consent?.state ?? 'none']}${consent ? ` (notice ${consent.noticeVersion}, ${consent.at})` : ''}.`,
    `Stored about you: ${f.matches.length} match${f.matches.length === 1 ? '' : 'es'} you held a seat in${f.matches.length ? ` (${f.matches.map((m) => `${m.id} ${m.status}`).join(', ')})` : ''}, with ${texts} text${texts === 1 ? '' : 's'} of yours (pitches, messages, offer notes) and your display name; ${f.votes} vote${f.votes === 1 ? '' : 's'}.`,
    '`privacy consent:on` agrees, `privacy consent:off` withdraws; `privacy erase:ask` erases your words and votes (after a confirmation).',
  ];
  return privateReply(ctx.caller.userId, {
    title: 'Your data',
    text: lines.join('\n'),
    fields: [{ name: `Data notice (licence ${policy.notice.licence})`, value: policy.notice.text }],
    buttons: buttonsFor(ctx, [
      ['I agree', 'privacy consent:on', 'success'],
      ['I decline', 'privacy consent:off', 'secondary'],
    ]),
  });
}

async function answer(ctx: CommandContext, on: boolean): Promise<Reply> {
  const version = dataNoticeVersion(ctx);
  await ctx.host.eventStore.setConsent({
    userId: ctx.caller.userId,
    state: on ? 'granted' : 'declined',
    noticeVersion: version,
    at: new Date().toISOString(),
  });
  const text = on
    ? 'Thank you: your pitches, messages and votes may now be exported under a pseudonym. `privacy consent:off` withdraws at any time; later exports then leave them out.'
    : 'Noted: none of your words or votes will be exported; you play and vote as usual. `privacy consent:on` changes your mind.';
  return privateReply(ctx.caller.userId, { title: on ? 'Consent given' : 'Consent declined', text });
}

const dataNoticeVersion = (ctx: CommandContext): string => dataPolicyOf(ctx.host).notice.version;

/** Running or lobby matches `userId` holds a seat in: erasing then would change a match in play. */
async function liveSeats(store: EventStore, userId: string): Promise<string[]> {
  const out: string[] = [];
  for (const rec of [
    ...(await store.listMatches({ status: 'lobby' })),
    ...(await store.listMatches({ status: 'running' })),
  ]) {
    if (seatedIn(await store.load(rec.id), userId)) out.push(rec.id);
  }
  return out;
}

async function erase(ctx: CommandContext, confirmed: boolean): Promise<Reply> {
  const store = ctx.host.eventStore;
  const userId = ctx.caller.userId;
  const live = await liveSeats(store, userId);
  if (live.length) {
    return errorReply(userId, {
      code: 'match_in_play',
      message: `You hold a seat in ${live.join(', ')}, still in play: erase after it ends (\`finish\` leaves it). Nothing was changed.`,
    });
  }
  const rewrites: EventRewrite[] = [];
  for (const rec of await store.listMatches({ status: 'over' })) {
    for (const t of tombstoneWords(await store.load(rec.id), userId)) rewrites.push({ matchId: rec.id, ...t });
  }
  const votes = (await store.listVotes({ voterId: userId })).length;
  const texts = rewrites.reduce((a, w) => a + w.texts, 0);
  if (!confirmed) {
    return privateReply(userId, {
      title: 'Erase your words and votes?',
      text: `This replaces ${texts} text${texts === 1 ? '' : 's'} of yours (pitches, messages, notes, your display name) with "[erased]" and deletes your ${votes} vote${votes === 1 ? '' : 's'}, in every finished match; exports made from now on no longer contain them. The matches' moves stay, so they still replay. It cannot be undone. Confirm with \`privacy erase:confirm\`.`,
      buttons: buttonsFor(ctx, [['Erase my words and votes', 'privacy erase:confirm', 'danger']]),
    });
  }
  const subject = (await pseudonymizer(store, dataPolicyOf(ctx.host).pseudonymSecret ?? null))(userId);
  const log = await store.erase(userId, rewrites, { id: randomUUID(), at: new Date().toISOString(), subject });
  await store.setConsent({ userId, state: 'declined', noticeVersion: dataNoticeVersion(ctx), at: log.at });
  return privateReply(userId, {
    title: 'Erased',
    text: `${log.texts} text${log.texts === 1 ? '' : 's'} replaced with "[erased]" and ${log.votes} vote${log.votes === 1 ? '' : 's'} deleted; your consent is withdrawn. The erasure is logged as ${subject} with these counts, never the content.`,
  });
}

/** `privacy [consent:on|off] [erase:ask|confirm]`: see the file comment. Errors: `invalid_option`, `match_in_play`. */
export const privacy = defineCommand(
  'privacy',
  z.object({ consent: choiceValue(['on', 'off']).optional(), erase: choiceValue(['ask', 'confirm']).optional() }),
  [],
  async (ctx, o) => {
    if (o.consent && o.erase)
      return errorReply(ctx.caller.userId, {
        code: 'invalid_option',
        option: 'erase',
        message: 'Give `consent` or `erase`, not both. Nothing was changed.',
      });
    if (o.consent) return answer(ctx, o.consent === 'on');
    if (o.erase) return erase(ctx, o.erase === 'confirm');
    return show(ctx);
  },
);

/**
 * The data notice with its two buttons, for a person who has never seen it (then recorded as `asked`, so it
 * is shown once); null for anyone else. Agents never get it (their ids are not platform users).
 */
export async function consentPrompt(ctx: CommandContext): Promise<Reply | null> {
  const store = ctx.host.eventStore;
  if (await store.getConsent(ctx.caller.userId)) return null;
  const policy = dataPolicyOf(ctx.host);
  await store.setConsent({
    userId: ctx.caller.userId,
    state: 'asked',
    noticeVersion: policy.notice.version,
    at: new Date().toISOString(),
  });
  const post = privatePost(ctx.caller.userId, {
    title: 'Research data: may we use your words and votes?',
    text: `${policy.notice.text}\nLicence: ${policy.notice.licence}. Until you agree, nothing of yours is exported. \`privacy consent:on\` / \`privacy consent:off\`.`,
    buttons: buttonsFor(ctx, [
      ['I agree', 'privacy consent:on', 'success'],
      ['I decline', 'privacy consent:off', 'secondary'],
    ]),
  });
  return { public: [], private: [post] };
}

/** The privacy command. */
export const PRIVACY_COMMANDS: readonly CommandDefinition[] = [privacy];
