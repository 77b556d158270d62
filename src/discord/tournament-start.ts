// Starting a tournament table's game on Discord (T-1, T-2): the rules check the table
// (src/app/tournaments.ts); here the players still in the server, the table's channel (the
// table's own, the one the host named, or a new one under the tournament's category) and who can
// get DMs are asked of Discord, then the rules open the table's lobby and deal.
import { PermissionFlagsBits, Routes, type Client, type GuildTextBasedChannel } from 'discord.js';
import type { GameService } from '../app/game-service';
import type { TableView, TournamentRules, TourRefusal } from '../app/tournaments';
import type { TournamentRow } from '../db/tournament-store';
import type { Deliverer, DeliveryLogger } from '../delivery/deliverer';
import { classify } from '../delivery/errors';
import { FINAL_ROUND } from '../engine/tournament';
import { t, toLocale, type Locale } from '../i18n';
import { mentions } from './render/common';

export interface StartDeps {
  rules: TournamentRules;
  service: GameService;
  deliverer: Deliverer;
  client: Client;
  log: DeliveryLogger;
}

/** What a start answers: a refusal, or the started game's line. */
export type StartAnswer = { ok: false; text: (loc: Locale) => string } | { ok: true; text: (loc: Locale) => string };

type ChannelResult = { ok: true; id: string } | { ok: false; text: (loc: Locale) => string };

export class TournamentStart {
  constructor(private readonly d: StartDeps) {}

  /**
   * Starts one table's game: its channel, its players (the draw's, with substitutes for the
   * missing), the tournament's timers; the game carries the tournament's id.
   */
  async start(
    hostId: string,
    id: number,
    round: number,
    tableNo: number,
    channelId: string | null,
    subs: Record<string, string>,
    refusal: (loc: Locale, r: TourRefusal) => string,
  ): Promise<StartAnswer> {
    const refuse = (r: TourRefusal): StartAnswer => ({ ok: false, text: (l) => refusal(l, r) });
    const plan = await this.d.rules.checkStart(id, round, tableNo, subs);
    if (!plan.ok) return refuse(plan);
    const { tour, tv, members } = plan;
    const absent = await this.absent(tour.guildId, members);
    if (absent.length > 0) {
      const users = absent.map((u) => `<@${u}>`).join(', ');
      return refuse({ ok: false, code: 'tournament/missing', params: { users, round, table: tableNo } });
    }
    // The channel.
    const channel = await this.channelFor(tour, tv, channelId);
    if (!channel.ok) return { ok: false, text: channel.text };
    const nameOf = (u: string) => {
      const user = this.d.client.users.cache.get(u);
      return user?.displayName ?? user?.username;
    };
    const opened = await this.d.rules.openTable(plan, channel.id, subs, hostId, nameOf);
    if (!opened.ok) return refuse(opened);
    const { game, locales } = opened;
    // Before dealing: who can get DMs; those who cannot play from the channel's private panels.
    const unreachable: string[] = [];
    const startedAt = this.d.service.now();
    await Promise.all(
      members.map(async (u) => {
        const loc = toLocale(locales[u]) ?? (tour.locale as Locale);
        const probe = { content: t(loc, 'lobby.dmCheck', { id: game.id }), allowed_mentions: mentions() };
        const ok = await this.d.deliverer.probeDm(u, probe, undefined, { startedAt });
        if (!ok) unreachable.push(u);
      }),
    );
    const dealt = await this.d.rules.deal(plan, game, unreachable);
    if (!dealt.ok) return refuse(dealt);
    const users = unreachable.map((u) => `<@${u}>`).join(', ');
    return {
      ok: true,
      text: (loc) =>
        t(loc, 'tour.started', { game: game.id, channel: `<#${channel.id}>`, round, table: tableNo }) +
        (unreachable.length > 0 ? `\n${t(loc, 'lobby.unreachableHost', { users })}` : ''),
    };
  }

  /** Who of `users` is no longer a member of the server (asked of Discord; unknown counts as present). */
  private async absent(guildId: string, users: readonly string[]): Promise<string[]> {
    const out: string[] = [];
    await Promise.all(
      users.map(async (u) => {
        try {
          await this.d.client.rest.get(Routes.guildMember(guildId, u));
        } catch (e) {
          if (classify(e) === 'not-found') out.push(u);
        }
      }),
    );
    return users.filter((u) => out.includes(u));
  }

  /** The table's channel: kept from an earlier start, named by the host, or created under the category. */
  private async channelFor(tour: TournamentRow, tv: TableView, named: string | null): Promise<ChannelResult> {
    if (named) {
      // The bot must be able to run a game there: see it, write, and (for who may write) manage it.
      const ch = this.d.client.channels.cache.get(named);
      const me = this.d.client.user;
      const perms = ch && me && 'permissionsFor' in ch ? (ch as GuildTextBasedChannel).permissionsFor(me) : null;
      if (!perms?.has([PermissionFlagsBits.ViewChannel, PermissionFlagsBits.SendMessages])) {
        return { ok: false, text: (l) => t(l, 'refusal.tournament/channel-forbidden', { channel: `<#${named}>` }) };
      }
      await this.d.rules.setTableChannel(tour, tv, named);
      return { ok: true, id: named };
    }
    if (tv.channelId && (await this.exists(tv.channelId))) return { ok: true, id: tv.channelId };
    const loc = tour.locale as Locale;
    const noPermission = {
      ok: false as const,
      text: (l: Locale) => t(l, 'refusal.tournament/no-channel', { round: tv.round, table: tv.table }),
    };
    try {
      let category = tour.categoryId && (await this.exists(tour.categoryId)) ? tour.categoryId : null;
      if (!category) {
        const body = { name: t(loc, 'tour.category', { name: tour.name }).slice(0, 100), type: 4 };
        const cat = (await this.d.client.rest.post(Routes.guildChannels(tour.guildId), { body })) as { id: string };
        category = cat.id;
        await this.d.rules.setCategory(tour, category);
      }
      const name =
        tv.round === FINAL_ROUND
          ? t(loc, 'tour.channel.final')
          : t(loc, 'tour.channel.table', { round: tv.round, table: tv.table });
      const body = { name, type: 0, parent_id: category };
      const ch = (await this.d.client.rest.post(Routes.guildChannels(tour.guildId), { body })) as { id: string };
      await this.d.rules.setTableChannel(tour, tv, ch.id);
      await this.cached(ch.id);
      return { ok: true, id: ch.id };
    } catch (e) {
      const f = classify(e);
      if (f === 'forbidden') return noPermission;
      this.d.log.warn(`tournament ${tour.id}: could not create a channel (${f})`);
      return { ok: false, text: (l) => t(l, 'refusal.tournament/channel-failed') };
    }
  }

  private async exists(channelId: string): Promise<boolean> {
    if (this.d.client.channels.cache.has(channelId)) return true;
    try {
      await this.d.client.rest.get(Routes.channel(channelId));
      return true;
    } catch (e) {
      return classify(e) !== 'not-found';
    }
  }

  /** A new channel reaches the gateway cache a moment after it is created: the game needs its permissions. */
  private async cached(channelId: string): Promise<void> {
    for (let n = 0; n < 60 && !this.d.client.channels.cache.has(channelId); n++) {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
