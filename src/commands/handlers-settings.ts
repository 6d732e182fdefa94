/**
 * `me [reminders] [channel_threads] [channel_reminders]` (options of `me`: Discord allows 25 subcommands of
 * /arena, all taken): chat settings that outlive a match
 * (src/store/chat-settings.ts). A person's own reminder pings (src/host/reminders.ts); a channel's defaults,
 * for platform admins only: whether `new` opens a thread under a card, and whether anyone here is pinged.
 * A command typed in a match's thread sets its parent channel (the channel the cards are in).
 */
import { CHAT_SETTING } from '../store/chat-settings.js';
import { errorReply, privateReply } from '../chat/reply.js';
import type { CommandContext } from './context.js';
import { choiceValue } from './options.js';
import type { Reply } from './types.js';

const onOff = () => choiceValue(['on', 'off']).optional();

/** The settings options (of `me`). */
export const SETTINGS_OPTIONS = { reminders: onOff(), channel_threads: onOff(), channel_reminders: onOff() };

/** The values given for them. */
export interface SettingsInput {
  reminders?: 'on' | 'off' | undefined;
  channel_threads?: 'on' | 'off' | undefined;
  channel_reminders?: 'on' | 'off' | undefined;
}

/** True when any settings option was given. */
export const changesSettings = (o: SettingsInput): boolean =>
  o.reminders !== undefined || o.channel_threads !== undefined || o.channel_reminders !== undefined;

/** The channel whose defaults apply here: the parent channel of a thread, else this one. */
const channelOf = (ctx: CommandContext) => ctx.caller.parentChannelId ?? ctx.match?.parentChannelId ?? ctx.calledFrom;

/** Store the given settings (channel ones: platform admins only) and show what applies now, privately. */
export async function changeSettings(ctx: CommandContext, o: SettingsInput): Promise<Reply> {
  const store = ctx.host.eventStore;
  const channel = channelOf(ctx);
  if ((o.channel_threads !== undefined || o.channel_reminders !== undefined) && !ctx.caller.isAdmin) {
    return errorReply(ctx.caller.userId, {
      code: 'not_admin',
      option: o.channel_threads !== undefined ? 'channel_threads' : 'channel_reminders',
      message: "Only a platform admin can change this channel's settings; `reminders:` is yours to set.",
    });
  }
  if (o.reminders !== undefined)
    await store.setChatSetting('person', ctx.caller.userId, CHAT_SETTING.reminders, o.reminders);
  if (o.channel_threads !== undefined)
    await store.setChatSetting('channel', channel, CHAT_SETTING.threads, o.channel_threads);
  if (o.channel_reminders !== undefined)
    await store.setChatSetting('channel', channel, CHAT_SETTING.reminders, o.channel_reminders);
  const [mine, threads, pings] = await Promise.all([
    store.chatSetting('person', ctx.caller.userId, CHAT_SETTING.reminders),
    store.chatSetting('channel', channel, CHAT_SETTING.threads),
    store.chatSetting('channel', channel, CHAT_SETTING.reminders),
  ]);
  const shown = (v: string | null) => v ?? 'default';
  return privateReply(ctx.caller.userId, {
    title: 'Settings saved',
    text: 'Reminder pings tell you when a round is waiting for you (a mention of you alone). "default" follows the deployment\'s configuration.',
    fields: [
      { name: 'Your reminders', value: shown(mine) },
      { name: 'This channel: match threads', value: shown(threads) },
      { name: 'This channel: reminders', value: shown(pings) },
    ],
  });
}
