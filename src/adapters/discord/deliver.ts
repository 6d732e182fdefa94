/**
 * Delivering a {@link Reply} to Discord: as the answer to an interaction (reply / editReply of a
 * deferred reply / followUp) or, for posts that answer nobody (timer round closes), to the channel.
 *
 * Privacy: public posts are visible to the channel; the caller's private posts are ephemeral
 * (flag 64); private posts for *other* people cannot be ephemeral in this interaction, so they wait in
 * the {@link PrivateInbox} and are shown (ephemeral) with that person's next interaction in the same
 * channel; the public post then carries a "My private update" button that shows them (ephemeral) at once.
 * The inbox is kept in the event store (inbox.ts), so any bot process or shard serves it and a restart
 * keeps it; it is keyed by person and channel, so a post never shows under a command in another channel.
 */
import {
  AttachmentBuilder,
  ButtonStyle,
  ComponentType,
  MessageFlags,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type ModalSubmitInteraction,
} from 'discord.js';
import { renderPostCharts, type ChartLogger } from '../../analytics/charts/attach.js';
import type { Post, PrivatePost, Reply } from '../../commands/types.js';
import type { Logger } from 'pino';
import type { PrivateInbox } from './inbox.js';
import { renderPost, notice, type ButtonIds, type DiscordPayload } from './render.js';
import { updateCard, type ChannelSink } from './threads.js';

export type { ChannelSink } from './threads.js';

/** Interactions the adapter answers with messages. */
export type Repliable = ChatInputCommandInteraction | ButtonInteraction | ModalSubmitInteraction;

/** custom_id of the "My private update" button: answered by the adapter from the inbox, without the host. */
export const INBOX_BUTTON_ID = 'arena-inbox';

/** Appends the inbox button to a payload's last row (or a new row), within Discord's 5×5 limit. */
function withInboxButton(p: DiscordPayload): DiscordPayload {
  const button = {
    type: ComponentType.Button as const,
    style: ButtonStyle.Secondary as const,
    label: 'My private update',
    custom_id: INBOX_BUTTON_ID,
  };
  const rows = p.components.map((r) => ({ ...r, components: [...r.components] }));
  const last = rows.at(-1);
  if (last && last.components.length < 5) last.components.push(button);
  else if (rows.length < 5) rows.push({ type: ComponentType.ActionRow, components: [button] });
  return { ...p, components: rows };
}

/** Public posts; if someone has private posts waiting, the last one gets a button to read them. */
function renderPublic(posts: readonly Post[], ids: ButtonIds, held: boolean): DiscordPayload[] {
  const last = posts.length - 1;
  return posts.map((p, i) => (held && i === last ? withInboxButton(renderPost(p, ids)) : renderPost(p, ids)));
}

/**
 * What an interaction answers with: public payloads, the caller's ephemeral ones, and the caller's private
 * posts it carries (those taken from the inbox and its own new ones: put back with `inbox.add` if the answer
 * could not be sent for a passing reason).
 */
export interface Planned {
  pub: DiscordPayload[];
  mine: DiscordPayload[];
  taken: PrivatePost[];
  /** For each of `mine`, how many of `pub` come before it (the reply's order, `afterPublic`); absent: after all. */
  at?: number[];
}

/** The caller's private posts waiting in `channelId` as ephemeral payloads (a notice if there are none). */
export async function inboxMessages(
  inbox: PrivateInbox,
  userId: string,
  channelId: string,
  ids: ButtonIds,
): Promise<Planned> {
  const taken = await inbox.take(userId, channelId);
  const mine =
    taken.length > 0
      ? taken.map((p) => renderPost(p, ids, { ephemeral: true }))
      : [notice('Nothing new for you right now. `/arena me` shows your seat.')];
  return { pub: [], mine, taken };
}

/**
 * The payloads of a reply to a command in `channelId` for one caller: public first, then the caller's private
 * ones (ephemeral), with the caller's posts held in this channel; other people's posts are held there.
 */
export async function planMessages(
  reply: Reply,
  callerUserId: string,
  channelId: string,
  inbox: PrivateInbox,
  ids: ButtonIds,
): Promise<Planned> {
  const others = reply.private.filter((p) => p.userId !== callerUserId);
  await inbox.add(channelId, others);
  const taken = await inbox.take(callerUserId, channelId);
  const fresh = reply.private.filter((p) => p.userId === callerUserId);
  const own: Post[] = [...taken, ...fresh];
  const pub = renderPublic(reply.public, ids, others.length > 0);
  const mine = own.map((p) => renderPost(p, ids, { ephemeral: true }));
  // A new post right after the public posts that came before it ("Allocated …" before the close it set off);
  // held posts after this command's public answer, as the "My private update" they were waiting as.
  const at = [...taken.map(() => pub.length), ...fresh.map((p) => Math.min(p.afterPublic ?? pub.length, pub.length))];
  // Kept for a failed answer: the held posts and the caller's new ones, in the order they were meant to be shown.
  return { pub, mine, taken: [...taken, ...fresh], at };
}

/** Discord shows at most 10 embeds per message: the post's embed plus one image embed per further chart. */
const MAX_EMBEDS = 10;

/**
 * Render a payload's charts to PNG attachments: the first chart is the post embed's image
 * (`attachment://<name>`), each further one an embed of its own. A chart that fails is logged and left out;
 * the payload is sent either way.
 */
export async function withCharts(p: DiscordPayload, logger?: ChartLogger): Promise<DiscordPayload> {
  const { charts, ...rest } = p;
  if (!charts?.length) return rest;
  const files = (await renderPostCharts({ charts }, logger)).slice(0, MAX_EMBEDS);
  if (files.length === 0) return rest;
  const [first, ...more] = rest.embeds;
  const embeds = [
    { ...(first ?? {}), image: { url: `attachment://${files[0]!.name}` } },
    ...more,
    ...files.slice(1).map((f) => ({ color: first?.color, title: f.title, image: { url: `attachment://${f.name}` } })),
  ].slice(0, MAX_EMBEDS);
  return {
    ...rest,
    embeds,
    files: files.map((f) => new AttachmentBuilder(f.png, { name: f.name, description: f.title })),
  };
}

/**
 * Answers an interaction. If it was deferred (a public "thinking…" reply), the first public post edits
 * it (PATCH @original); with no public post the placeholder is deleted and only ephemeral follow-ups
 * are sent. Otherwise the first post is the reply itself.
 */
export async function answer(
  i: Repliable,
  planned: Pick<Planned, 'pub' | 'mine' | 'at'>,
  logger?: ChartLogger,
): Promise<void> {
  const pub = await Promise.all(planned.pub.map((p) => withCharts(p, logger)));
  const all = inOrder(pub, planned.mine, planned.at);
  if (i.deferred) {
    // The placeholder is public: edited into the first post when that is public, else deleted.
    const [first, ...rest] = all;
    const editFirst = first !== undefined && !isEphemeral(first);
    if (editFirst) await i.editReply(editable(first));
    else await i.deleteReply();
    for (const p of editFirst ? rest : all) await i.followUp(p);
    if (all.length === 0) await i.followUp(notice('Done.'));
    return;
  }
  const [first, ...rest] = all.length > 0 ? all : [notice('Done.')];
  if (i.replied) await i.followUp(first!);
  else await i.reply(first!);
  for (const p of rest) await i.followUp(p);
}

const isEphemeral = (p: DiscordPayload): boolean => ((p.flags ?? 0) & MessageFlags.Ephemeral) !== 0;

/** Public and ephemeral payloads in the reply's order: `mine[k]` after the first `at[k]` public ones (after all when unset). */
function inOrder(
  pub: readonly DiscordPayload[],
  mine: readonly DiscordPayload[],
  at: readonly number[] = [],
): DiscordPayload[] {
  const out: DiscordPayload[] = [];
  const mineAt = (n: number): void => {
    for (let k = 0; k < mine.length; k++) if (Math.min(at[k] ?? pub.length, pub.length) === n) out.push(mine[k]!);
  };
  mineAt(0);
  for (let n = 0; n < pub.length; n++) {
    out.push(pub[n]!);
    mineAt(n + 1);
  }
  return out;
}

/** editReply cannot change flags; drop them (a deferred public reply stays public). */
function editable(p: DiscordPayload): Omit<DiscordPayload, 'flags'> {
  const { flags: _flags, ...rest } = p;
  return rest;
}

/**
 * Posts a reply that answers no interaction (e.g. a timer round close): public posts to the channel (a
 * match's thread: `reply.channelId` when set), private ones to the inbox there; then the match's card, if the
 * reply updates it, is edited (and its thread archived once the match is over: threads.ts).
 */
export async function publishReply(
  sink: ChannelSink,
  channelId: string,
  reply: Reply,
  inbox: PrivateInbox,
  ids: ButtonIds,
  logger?: ChartLogger & Pick<Logger, 'warn'>,
): Promise<void> {
  const dest = reply.channelId ?? channelId;
  await inbox.add(dest, reply.private);
  for (const payload of renderPublic(reply.public, ids, reply.private.length > 0))
    await sink.send(dest, await withCharts(payload, logger));
  if (reply.card) await updateCard(sink, reply.card, ids, logger);
}

/**
 * Whether a failed answer may succeed later, so its private posts are worth keeping: a network error, a
 * Discord 5xx or 429, or an interaction that expired (10062 Unknown interaction, 40060 already
 * acknowledged). A 4xx that rejects the payload itself (e.g. 50035 Invalid Form Body) would fail again at
 * every later interaction of that person, so those posts are dropped (and logged) instead.
 */
export function transientAnswerError(err: unknown): boolean {
  const e = err as { status?: unknown; code?: unknown } | null;
  if (typeof e?.status !== 'number') return true;
  return e.status >= 500 || e.status === 429 || e.code === 10062 || e.code === 40060;
}
