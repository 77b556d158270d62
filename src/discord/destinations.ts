// Where an outbox row goes: a channel, a private thread's operations, a member's DMs.
import type { Dest } from '../db/outbox-store';

export function channelDest(channelId: string): Dest {
  return `ch:${channelId}`;
}

/** The queue of a private thread's making and members, apart from the channel's posts. */
export function threadOpsDest(channelId: string, slot = 'thread'): Dest {
  return `tm:${channelId}:${slot}`;
}

export function dmDest(userId: string): Dest {
  return `dm:${userId}`;
}
