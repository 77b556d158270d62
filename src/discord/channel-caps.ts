// What the bot may do in a channel, read from the gateway's cache (no request spent).
import { PermissionFlagsBits, type Client, type GuildTextBasedChannel } from 'discord.js';
import type { ChannelCaps } from './planner';

/** Whether the bot may manage a channel's permissions and make private threads there (null: unknown). */
export function channelCaps(client: Client, channelId: string): ChannelCaps | null {
  const ch = client.channels.cache.get(channelId);
  const me = client.user;
  if (!ch || !me || !('guild' in ch) || !('permissionsFor' in ch)) return null;
  const perms = (ch as GuildTextBasedChannel).permissionsFor(me);
  if (!perms) return null;
  return {
    manageRoles: perms.has(PermissionFlagsBits.ManageRoles),
    threads:
      'threads' in ch &&
      perms.has(PermissionFlagsBits.CreatePrivateThreads) &&
      perms.has(PermissionFlagsBits.SendMessagesInThreads),
  };
}
