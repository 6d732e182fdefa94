/**
 * Who is calling, from a Discord interaction: `discord:<user id>`, the name the server shows, and
 * whether the member may administer matches (Manage Server permission, or the DISCORD_ADMIN_ROLE_ID
 * role), and for a thread the channel it belongs to (its parent). Whether the caller is the *match host* is
 * the catalogue's check (Access 'host').
 */
import { GuildMember, PermissionFlagsBits, type BaseInteraction } from 'discord.js';
import type { Caller } from '../../commands/types.js';

/** Platform prefix of user ids in {@link Caller.userId}. */
export const USER_PREFIX = 'discord:';

function memberRoles(member: BaseInteraction['member']): readonly string[] {
  if (!member) return [];
  if (member instanceof GuildMember) return [...member.roles.cache.keys()];
  return member.roles;
}

/** The platform-neutral caller of an interaction. */
export function callerOf(interaction: BaseInteraction, adminRoleId: string | null): Caller {
  const user = interaction.user;
  const member = interaction.member;
  const nick = member instanceof GuildMember ? member.displayName : (member?.nick ?? null);
  const manages = interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false;
  const hasRole = adminRoleId !== null && memberRoles(member).includes(adminRoleId);
  // A thread's matches count against its parent channel's daily LLM budget (threads are free to open).
  const channel = interaction.channel;
  const parentChannelId = channel?.isThread() ? channel.parentId : null;
  return {
    userId: `${USER_PREFIX}${user.id}`,
    displayName: nick ?? user.globalName ?? user.username,
    isAdmin: manages || hasRole,
    ...(parentChannelId ? { parentChannelId } : {}),
    ...(interaction.guildId ? { spaceId: interaction.guildId } : {}),
  };
}
