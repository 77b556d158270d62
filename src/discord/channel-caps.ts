// What the bot may do in a channel, read from the gateway's cache (no request spent).
import { PermissionFlagsBits, type Client, type GuildTextBasedChannel } from 'discord.js';
import type { Overwrite } from '../delivery/deliverer';
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

/** The channel's permission overwrites as they are now, or null if the channel is not cached. */
export function channelOverwrites(client: Client, channelId: string): Overwrite[] | null {
  const ch = client.channels.cache.get(channelId);
  if (!ch || !('permissionOverwrites' in ch)) return null;
  return [...ch.permissionOverwrites.cache.values()].map((o) => ({
    id: o.id,
    type: o.type as 0 | 1,
    allow: o.allow.bitfield.toString(),
    deny: o.deny.bitfield.toString(),
  }));
}
