// Discord REST calls for effects, made safe: discord.js already waits out 429s and retries 5xx;
// what still fails (a closed DM, a missing permission, a deleted message) is classified and
// returned, never thrown, so a Discord problem never stops a game.
import { DiscordAPIError, HTTPError, type REST } from '@discordjs/rest';
import { Routes, type APIChannel, type APIMessage } from 'discord-api-types/v10';
import type { Payload } from './render/common';

export type Failure = 'dm-closed' | 'forbidden' | 'not-found' | 'rate-limited' | 'server' | 'other';

export interface Logger {
  warn(msg: string): void;
  error(msg: string, e?: unknown): void;
}

export function classify(e: unknown): Failure {
  if (e instanceof DiscordAPIError) {
    if (e.code === 50007) return 'dm-closed';
    if (e.code === 50013 || e.code === 50001 || e.status === 403) return 'forbidden';
    if (e.status === 404) return 'not-found';
    if (e.status === 429) return 'rate-limited';
    if (e.status >= 500) return 'server';
    return 'other';
  }
  if (e instanceof HTTPError) return e.status >= 500 ? 'server' : 'other';
  return 'other';
}

export type Result<T> = { ok: true; value: T } | { ok: false; failure: Failure };

export class Deliver {
  private readonly dmChannels = new Map<string, string>();

  constructor(
    private readonly rest: REST,
    private readonly log: Logger,
  ) {}

  private async call<T>(what: string, fn: () => Promise<T>, attempts = 2): Promise<Result<T>> {
    for (let i = 1; ; i++) {
      try {
        return { ok: true, value: await fn() };
      } catch (e) {
        const failure = classify(e);
        // 5xx are retried by discord.js already; one more try after a pause for transient trouble.
        if ((failure === 'server' || failure === 'rate-limited') && i < attempts) {
          await new Promise((r) => setTimeout(r, 250 * i));
          continue;
        }
        if (failure !== 'dm-closed' && failure !== 'not-found') this.log.warn(`discord: ${what} failed (${failure}): ${(e as Error).message}`);
        return { ok: false, failure };
      }
    }
  }

  send(channelId: string, payload: Payload): Promise<Result<APIMessage>> {
    return this.call(`send to ${channelId}`, () => this.rest.post(Routes.channelMessages(channelId), { body: payload }) as Promise<APIMessage>);
  }

  edit(channelId: string, messageId: string, payload: Payload): Promise<Result<APIMessage>> {
    return this.call(`edit ${messageId}`, () => this.rest.patch(Routes.channelMessage(channelId, messageId), { body: payload }) as Promise<APIMessage>);
  }

  async dmChannel(userId: string): Promise<Result<string>> {
    const known = this.dmChannels.get(userId);
    if (known) return { ok: true, value: known };
    const r = await this.call(`open DM with ${userId}`, () => this.rest.post(Routes.userChannels(), { body: { recipient_id: userId } }) as Promise<APIChannel>);
    if (!r.ok) return r;
    this.dmChannels.set(userId, r.value.id);
    return { ok: true, value: r.value.id };
  }

  async dm(userId: string, payload: Payload): Promise<Result<APIMessage>> {
    const ch = await this.dmChannel(userId);
    if (!ch.ok) return ch;
    return this.send(ch.value, payload);
  }

  pin(channelId: string, messageId: string): Promise<Result<unknown>> {
    return this.call(`pin ${messageId}`, () => this.rest.put(Routes.channelMessagesPin(channelId, messageId)));
  }

  /** A member's permission overwrite on a channel (type 1 = member). */
  setMemberOverwrite(channelId: string, userId: string, allow: bigint, deny: bigint): Promise<Result<unknown>> {
    return this.call(`overwrite ${userId} on ${channelId}`, () =>
      this.rest.put(Routes.channelPermission(channelId, userId), { body: { type: 1, allow: allow.toString(), deny: deny.toString() } }),
    );
  }

  deleteOverwrite(channelId: string, id: string): Promise<Result<unknown>> {
    return this.call(`remove overwrite ${id} on ${channelId}`, () => this.rest.delete(Routes.channelPermission(channelId, id)));
  }

  createPrivateThread(channelId: string, name: string): Promise<Result<APIChannel>> {
    return this.call(`thread in ${channelId}`, () =>
      this.rest.post(Routes.threads(channelId), { body: { name, type: 12, invitable: false, auto_archive_duration: 10080 } }) as Promise<APIChannel>,
    );
  }

  addThreadMember(threadId: string, userId: string): Promise<Result<unknown>> {
    return this.call(`add ${userId} to thread ${threadId}`, () => this.rest.put(Routes.threadMembers(threadId, userId)));
  }

  setThreadLocked(threadId: string, locked: boolean): Promise<Result<unknown>> {
    return this.call(`lock thread ${threadId}`, () => this.rest.patch(Routes.channel(threadId), { body: { locked, archived: locked } }));
  }
}
