// Issue 20, the shell's side of a game's lifecycle: what the gateway says about a game's channel
// and server (a channel deleted or changed, roles changed, the bot removed or added back, the
// guilds at start-up), and what a failed call on the channel says (the deliverer's `lost`), turned
// into suspend and resume calls of app/lifecycle.ts; and what the host and the table read. The
// same review gives back the Send Messages denies an ended game still holds in a channel that is in
// reach again (app/lifecycle.ts restorePerms): a game voided while out of reach, or one that ended
// while the bot lacked Manage Roles.
//
// A guild that is unavailable (an outage: GUILD_DELETE with `unavailable: true`, which discord.js
// emits as guildUnavailable, not guildDelete) says nothing about access: no game is suspended for it.
import { Events, PermissionFlagsBits, type Client, type GuildBasedChannel } from 'discord.js';
import type { Lifecycle, LifecycleView, LostReason } from '../app/lifecycle';
import type { GamePlace, LifecycleStore, Suspension } from '../db/lifecycle-store';
import type { Dest, OutboxStore } from '../db/outbox-store';
import type { GameRow } from '../db/store';
import type { LostAccess } from '../delivery/errors';
import { t } from '../i18n';
import { channelCaps } from './channel-caps';
import { userLocale, type Contexts } from './context';
import { channelDest, dmDest } from './destinations';
import { mentions } from './render/common';
import { durationText } from './render/words';

/** What the game needs in its channel: to see it and to post in it. */
const NEEDED = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages;

/** Whether the bot can run a game in a channel, from the gateway's cache; `unknown`: nothing to conclude. */
export type Access = 'ok' | LostReason | 'unknown';

export function accessOf(client: Client, guildId: string, channelId: string): Access {
  if (!client.isReady()) return 'unknown';
  const guild = client.guilds.cache.get(guildId);
  if (!guild) return 'bot-removed';
  if (!guild.available) return 'unknown'; // an outage, not a removal
  const ch = guild.channels.cache.get(channelId);
  if (!ch) return 'channel-deleted';
  const me = guild.members.me;
  if (!me) return 'unknown';
  const perms = (ch as GuildBasedChannel).permissionsFor(me);
  if (!perms) return 'unknown';
  return perms.has(NEEDED) ? 'ok' : 'no-access';
}

/** The host's DMs and the table's word (every row keyed: once per suspension). */
export class LifecycleMessages implements LifecycleView {
  constructor(
    private readonly outbox: OutboxStore,
    private readonly contexts: Contexts,
  ) {}

  private async hostLocale(game: GameRow) {
    return userLocale(await this.contexts.fromRow(game), game.hostId);
  }

  async suspended(game: GameRow, s: Suspension, now: number): Promise<void> {
    const loc = await this.hostLocale(game);
    const when = `<t:${Math.floor(s.voidAt / 1000)}:R>`;
    const content = `${t(loc, `life.paused.${s.reason}`, { id: game.id, channel: game.channelId })}\n${t(loc, 'life.paused.tail', { when })}`;
    // Sent even though the game's other messages wait (free): the channel is out of reach, his DMs are not.
    await this.outbox.add(game.id, dmDest(game.hostId), 'notice', { content, allowed_mentions: mentions() }, now, {
      key: `life:paused:${s.since}`,
      meta: { what: 'notice' },
      free: true,
    });
  }

  async resumed(game: GameRow, s: Suspension, now: number): Promise<void> {
    const ctx = await this.contexts.fromRow(game);
    await this.outbox.add(
      game.id,
      channelDest(game.channelId),
      'notice',
      { content: t(ctx.pub, 'life.resumed', { id: game.id }), allowed_mentions: mentions() },
      now,
      { key: `life:resumed:${s.since}`, meta: { what: 'notice' }, free: true },
    );
    const loc = userLocale(ctx, game.hostId);
    await this.outbox.add(
      game.id,
      dmDest(game.hostId),
      'notice',
      { content: t(loc, 'life.resumedHost', { id: game.id, channel: game.channelId }), allowed_mentions: mentions() },
      now,
      { key: `life:resumed-host:${s.since}`, meta: { what: 'notice' }, free: true },
    );
  }

  async voided(game: GameRow, s: Suspension, now: number): Promise<void> {
    const loc = await this.hostLocale(game);
    const period = durationText(loc, (now - s.since) / 1000);
    await this.outbox.add(
      game.id,
      dmDest(game.hostId),
      'notice',
      {
        content: t(loc, 'life.voided', { id: game.id, channel: game.channelId, period }),
        allowed_mentions: mentions(),
      },
      now,
      { key: `life:voided:${s.since}`, meta: { what: 'notice' }, free: true },
    );
  }

  async restorePerms(game: GameRow, now: number): Promise<boolean> {
    const cur = await this.outbox.slot(game.id, 'perms');
    if (cur && cur.state !== 'gone' && cur.sentVersion < cur.version) return false;
    // The wish of a game that has ended: nothing (the deliverer gives back every deny it holds).
    // `again` makes it a new version even when the last one was the same wish, tried and failed.
    return this.outbox.setSlot(
      game.id,
      'perms',
      'perms',
      channelDest(game.channelId),
      { channelId: game.channelId, members: {}, again: now },
      now,
      { messageId: game.channelId, state: 'live' },
    );
  }
}

export interface WatchLogger {
  error(msg: string, e?: unknown): void;
}

/** Follows the gateway (and the deliverer's failures) for the games' channels. */
export class LifecycleWatch {
  constructor(
    private readonly client: Client,
    private readonly lifecycle: Lifecycle,
    private readonly lstore: LifecycleStore,
    private readonly log: WatchLogger,
  ) {}

  /**
   * Each game is suspended if its channel is out of reach, and resumed if it is back. Each ended
   * game that still holds Send Messages denies (`ended`) has them given back once its channel is in
   * reach and the bot may manage its permissions there.
   */
  async review(places: readonly GamePlace[], kick: () => void, ended: readonly GamePlace[] = []): Promise<void> {
    for (const g of places) {
      try {
        const access = accessOf(this.client, g.guildId, g.channelId);
        if (access === 'unknown') continue;
        if (access === 'ok') {
          if (await this.lifecycle.isSuspended(g.id)) await this.lifecycle.resume(g.id);
        } else await this.lifecycle.suspend(g.id, access);
      } catch (e) {
        this.log.error(`lifecycle: could not review game ${g.id}`, e);
      }
    }
    let restored = false;
    for (const g of ended) {
      try {
        if (accessOf(this.client, g.guildId, g.channelId) !== 'ok') continue;
        if (channelCaps(this.client, g.channelId)?.manageRoles !== true) continue;
        if (await this.lifecycle.restorePerms(g.id)) restored = true;
      } catch (e) {
        this.log.error(`lifecycle: could not give back the denies of game ${g.id}`, e);
      }
    }
    if (places.length > 0 || restored) kick();
  }

  /** Every game still going, and every ended game still holding denies (at start-up, once the guilds are ready). */
  async reviewAll(kick: () => void): Promise<void> {
    await this.review(await this.lstore.activeGames(), kick, await this.lstore.endedWithHolds());
  }

  /**
   * The deliverer's report: a call on a game's channel failed as if the channel were out of reach.
   * Only the game channel's own queue counts (a deleted thread or message is not the channel). A
   * missing permission suspends the game only when the cache says it is one the game needs.
   */
  async lost(gameId: number, dest: Dest, how: LostAccess, game: GameRow | null): Promise<boolean> {
    if (!game || dest !== channelDest(game.channelId)) return false;
    if (await this.lifecycle.isSuspended(gameId)) return true;
    const access = accessOf(this.client, game.guildId, game.channelId);
    let reason: LostReason;
    if (how === 'permission') {
      if (access !== 'no-access') return false;
      reason = 'no-access';
    } else if (how === 'deleted') reason = access === 'bot-removed' ? 'bot-removed' : 'channel-deleted';
    else reason = access === 'bot-removed' ? 'bot-removed' : 'no-access';
    return this.lifecycle.suspend(gameId, reason);
  }

  /** The gateway events that change whether the bot can reach a game's channel. */
  listen(alive: () => boolean, kick: () => void): void {
    const c = this.client;
    const review = (places: () => Promise<[GamePlace[], GamePlace[]]>) => {
      if (!alive()) return;
      void places()
        .then(([active, ended]) => this.review(active, kick, ended))
        .catch((e: unknown) => this.log.error('lifecycle: a gateway event could not be handled', e));
    };
    const channel = (id: string) =>
      review(async () => [await this.lstore.activeGamesIn(id), await this.lstore.endedWithHolds({ channelId: id })]);
    const guild = (id: string) =>
      review(async () => [await this.lstore.activeGames(id), await this.lstore.endedWithHolds({ guildId: id })]);
    c.on(Events.ChannelDelete, (ch) => channel(ch.id));
    c.on(Events.ChannelUpdate, (_old, ch) => channel(ch.id));
    // The bot was removed (discord.js emits guildDelete only then; an outage is guildUnavailable).
    c.on(Events.GuildDelete, (g) => guild(g.id));
    c.on(Events.GuildCreate, (g) => guild(g.id));
    c.on(Events.GuildAvailable, (g) => guild(g.id));
    c.on(Events.GuildRoleUpdate, (_old, r) => guild(r.guild.id));
    c.on(Events.GuildRoleDelete, (r) => guild(r.guild.id));
    c.on(Events.GuildMemberUpdate, (_old, m) => {
      if (m.id === c.user?.id) guild(m.guild.id);
    });
  }
}
