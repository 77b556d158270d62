// Tournaments on Discord (RULES T-1..T-4): /tournament create, draw, start, final, standings and
// the buttons of the tournament's messages. Everything players see goes through the outbox (the
// board and each round's message are slots of the tournament's holder game, so they survive
// restarts and deletion) or is an interaction response. Every input is untrusted: a refusal is an
// ephemeral message to the sender and changes nothing.
import { readSettings } from '../app/settings';
import { memberOf } from './host-tools';
import { randomInt } from 'node:crypto';
import { AttachmentBuilder, MessageFlags, PermissionFlagsBits, Routes, type ButtonInteraction, type ChatInputCommandInteraction, type Client, type GuildTextBasedChannel, type PermissionsBitField, type StringSelectMenuInteraction } from 'discord.js';
import type { GameEffect, GameService } from '../app/game-service';
import { KeyedQueue } from '../app/keyed-queue';
import type { Store } from '../db/store';
import type { TournamentRow, TournamentStore } from '../db/tournament-store';
import { classify } from '../delivery/errors';
import type { Deliverer, DeliveryLogger } from '../delivery/deliverer';
import type { OutboxStore } from '../delivery/outbox-store';
import { optionOverridesSchema } from '../engine/options';
import { RULESETS } from '../engine/rulesets';
import { seededRng } from '../sim/random-play';
import { TABLE, drawQualifiers, type ScoringSystem } from '../engine/standings';
import { FINAL_ROUND, drawFit, phaseOf, selectFinalists, tournamentCsv, tournamentStandings, type Phase } from '../engine/tournament';
import type { OptionOverrides, RulesetId } from '../engine/types';
import { t, toLocale, type Locale } from '../i18n';
import type { Contexts } from './context';
import type { CustomId } from './custom-id';
import { timerOptions } from './interactions';
import type { Dealer } from './interactions';
import { channelDest } from './planner';
import { mentions, type Payload } from './render/common';
import { refusalText } from './render/game';
import { MAX_PLAYERS, boardPayload, finalPayload, fitLine, resultPayload, roundPayload, standingsPayload, type TableView } from './tournament-render';

type Component = ButtonInteraction | StringSelectMenuInteraction;
type Any = ChatInputCommandInteraction | Component;
type TourId = Extract<CustomId, { kind: 'tour' }>;

/** The 10-player rule sets: T-1's tables are of 10. */
export const TOURNAMENT_RULESETS: readonly RulesetId[] = ['chnu-2016', 'classic-10'];


/**
 * Who may run tournaments: Manage Server, or the server's host role (issue 11's setting, where the
 * branch has it; here the server settings have no host role yet, so Manage Server only).
 */
export function canManageTournaments(perms: Readonly<PermissionsBitField> | null | undefined, memberRoles: readonly string[] = [], hostRoleId: string | null = null): boolean {
  if (perms?.has(PermissionFlagsBits.ManageGuild)) return true;
  return hostRoleId !== null && memberRoles.includes(hostRoleId);
}

export interface TournamentDeps {
  service: GameService;
  store: Store;
  tstore: TournamentStore;
  outbox: OutboxStore;
  contexts: Contexts;
  deliverer: Deliverer;
  client: Client;
  log: DeliveryLogger;
  dealer: Dealer;
  now: () => number;
  /** The head host's lot (the draw, a lot at the final's cut): crypto-random by default. */
  random?: () => number;
}

/** Each lot from a fresh crypto-random seed (the draw's local search asks for many numbers). */
const cryptoLot = () => seededRng(randomInt(0, 2 ** 32));

export class Tournaments {
  private readonly queue = new KeyedQueue<number>();
  private readonly random: () => () => number;

  constructor(private readonly d: TournamentDeps) {
    const fixed = d.random;
    this.random = fixed ? () => fixed : cryptoLot;
  }

  /** One change at a time per tournament (two clicks on Start never race). */
  private serial<T>(id: number, task: () => Promise<T>): Promise<T> {
    return this.queue.run(id, task);
  }

  // -------------------------------------------------------------------------------------------
  // Replies

  /** A click's answer showed this version of the slot's message; an older one that won the race is edited again. */
  private shown(gameId: number, key: string, version: number, messageId: string): void {
    if (this.d.outbox.shownSlot(gameId, key, version, messageId)) this.d.deliverer.kick();
  }

  private async say(i: Any, content: string, extra: Record<string, unknown> = {}): Promise<void> {
    const body = { content, flags: MessageFlags.Ephemeral as const, allowedMentions: { parse: [] as [] }, ...extra };
    if (i.deferred || i.replied) await i.followUp(body);
    else await i.reply(body);
  }

  private refuse(i: Any, text: string): Promise<void> {
    return this.say(i, `⛔ ${text}`);
  }

  private canRun(i: Any, tour: TournamentRow): boolean {
    return i.user.id === tour.hostId || this.canManage(i);
  }

  /** Manage Server, or the server's host role (`/mafia settings host_role`). */
  private canManage(i: Any): boolean {
    return canManageTournaments(i.memberPermissions, memberOf(i).roles, readSettings(this.d.store, i.guildId!).hostRole);
  }

  // -------------------------------------------------------------------------------------------
  // What players see (the outbox)

  /** Scoring system of the tournament's rule set (S-5 tie-breaks). */
  private system(tour: TournamentRow): ScoringSystem {
    return RULESETS[tour.ruleset].scoring as ScoringSystem;
  }

  private views(tour: TournamentRow): TableView[] {
    return this.d.tstore.withResults(tour.id);
  }

  private phase(tour: TournamentRow, tables = this.views(tour)): Phase {
    return phaseOf(tour.status, tables);
  }

  /** Writes the board and every round's message (slots: only changed ones are edited). */
  private refresh(tour: TournamentRow): void {
    const now = this.d.now();
    const tables = this.views(tour);
    const phase = this.phase(tour, tables);
    const players = this.d.tstore.players(tour.id);
    const winners = tour.status === 'finished' ? tournamentStandings(this.system(tour), players.map((p) => p.userId), tables).filter((r) => r.place === 1).map((r) => r.player) : [];
    const dest = channelDest(tour.channelId);
    this.d.outbox.setSlot(tour.holderGameId, 'board', 'message', dest, boardPayload(tour, players, phase, winners), now, { repost: tour.status !== 'cancelled' });
    const rounds = [...new Set(tables.map((x) => x.round))];
    for (const round of rounds) {
      this.d.outbox.setSlot(tour.holderGameId, `round:${round}`, 'message', dest, roundPayload(tour, round, tables, phase), now, { repost: tour.status === 'running' });
    }
  }

  /**
   * Inside a game's own transaction (the planner's hook): a tournament game that started, ended or
   * was cancelled changes its round's message; the last game of the final ends the tournament.
   */
  plan(e: GameEffect): void {
    // Its own savepoint: should the tournament's part fail, the game's change still goes through
    // (the tournament's messages catch up at their next change or the next restart).
    try {
      this.d.tstore.transaction(() => this.planTournament(e));
    } catch (err) {
      this.d.log.error(`tournament: could not follow game ${e.game.id}`, err);
    }
  }

  /**
   * A tournament game changed outside the game service's effects (issue 11's annul: an annulled
   * game no longer counts, and its table may be played again): its tournament's messages follow.
   */
  gameChanged(gameId: number): void {
    const link = this.d.tstore.tableOfGame(gameId);
    const tour = link ? this.d.tstore.get(link.tournamentId) : null;
    if (!tour || tour.status === 'cancelled' || tour.status === 'registration') return;
    this.d.tstore.transaction(() => {
      // The final annulled after the result: the tournament is back to its final.
      if (tour.status === 'finished' && phaseOf('running', this.views(tour)).kind !== 'finished') this.d.tstore.setStatus(tour.id, 'running', this.d.now());
      this.refresh(this.d.tstore.get(tour.id)!);
    });
    this.d.deliverer.kick();
  }

  private planTournament(e: GameEffect): void {
    const relevant =
      e.kind === 'started' ||
      e.kind === 'cancelled' ||
      (e.kind === 'action' && e.state.stage.kind === 'over' && e.prev.stage.kind !== 'over');
    if (!relevant) return;
    const link = this.d.tstore.tableOfGame(e.game.id);
    if (!link) return;
    const tour = this.d.tstore.get(link.tournamentId);
    if (!tour || tour.status !== 'running') return;
    const tables = this.views(tour);
    const before = this.phase(tour, tables);
    if (before.kind === 'finished') {
      // T-3: the final is over: the result, with the winner.
      this.d.tstore.setStatus(tour.id, 'finished', this.d.now());
      const done = this.d.tstore.get(tour.id)!;
      const table = tournamentStandings(this.system(done), this.d.tstore.players(done.id).map((p) => p.userId), tables);
      this.d.outbox.add(done.holderGameId, channelDest(done.channelId), 'post', resultPayload(done, table), this.d.now(), { meta: { what: 'tournament-result' }, key: 'result' });
      this.refresh(done);
      return;
    }
    this.refresh(tour);
  }

  // -------------------------------------------------------------------------------------------
  // Commands

  async command(i: ChatInputCommandInteraction, loc: Locale): Promise<void> {
    const sub = i.options.getSubcommand(false);
    switch (sub) {
      case 'create':
        return this.create(i, loc);
      case 'draw':
      case 'final':
      case 'start':
      case 'remove':
      case 'standings': {
        const tour = this.pick(i);
        if (!tour) return this.refuse(i, t(loc, 'refusal.tournament/none'));
        if (sub === 'standings') return this.standings(i, loc, tour, i.options.getInteger('page') ?? 1, i.options.getBoolean('csv') === true, false);
        if (!this.canRun(i, tour)) return this.refuse(i, t(loc, 'refusal.tournament/not-host'));
        if (sub === 'draw') return this.serial(tour.id, () => this.draw(i, loc, tour.id));
        if (sub === 'final') return this.serial(tour.id, () => this.final(i, loc, tour.id));
        if (sub === 'remove') return this.serial(tour.id, () => this.removePlayer(i, loc, tour.id, i.options.getUser('player', true).id));
        return this.startCommand(i, loc, tour);
      }
      default:
        return this.refuse(i, t(loc, 'refusal.input/unknown'));
    }
  }

  /** The tournament a command means: the one named, else the server's current (or latest) one. */
  private pick(i: ChatInputCommandInteraction): TournamentRow | null {
    const id = i.options.getInteger('tournament');
    if (id !== null) {
      const tour = this.d.tstore.get(id);
      return tour && tour.guildId === i.guildId ? tour : null;
    }
    return this.d.tstore.current(i.guildId!) ?? this.d.tstore.latest(i.guildId!);
  }

  private async create(i: ChatInputCommandInteraction, loc: Locale): Promise<void> {
    if (!this.canManage(i)) return this.refuse(i, t(loc, 'refusal.tournament/permission'));
    const name = i.options.getString('name', true).replace(/\s+/g, ' ').trim().slice(0, 60);
    if (name.length === 0 || /[<>@`*~|]/.test(name)) return this.refuse(i, t(loc, 'refusal.tournament/name'));
    const ruleset = i.options.getString('ruleset', true);
    if (!(TOURNAMENT_RULESETS as string[]).includes(ruleset)) return this.refuse(i, t(loc, 'refusal.tournament/ruleset'));
    const timers = timerOptions(i);
    if ('bad' in timers) return this.refuse(i, t(loc, 'refusal.create/timer', timers.bad));
    const options: OptionOverrides = Object.keys(timers).length > 0 ? { timers } : {};
    const parsed = optionOverridesSchema.safeParse(options);
    if (!parsed.success) return this.refuse(i, t(loc, 'refusal.create/options'));
    const pub = this.d.contexts.publicLocale(i.guildId!, i.guildLocale);
    const now = this.d.now();
    const tour = this.d.tstore.transaction(() => {
      const created = this.d.tstore.create({ guildId: i.guildId!, channelId: i.channelId, hostId: i.user.id, name, ruleset: ruleset as RulesetId, options: parsed.data as OptionOverrides, locale: pub, now });
      this.refresh(created);
      return created;
    });
    this.d.deliverer.kick();
    await this.say(i, t(loc, 'tour.created', { id: tour.id, name }));
  }

  /** T-1: the qualifying draw, shown as one message per round and stored. */
  private async draw(i: Any, loc: Locale, id: number): Promise<void> {
    const tour = this.d.tstore.get(id)!;
    if (tour.status !== 'registration') return this.refuse(i, t(loc, 'refusal.tournament/drawn'));
    const players = this.d.tstore.players(tour.id);
    const fit = drawFit(players.length);
    if (!fit.ok) return this.refuse(i, fitLine(loc, players, fit.add, fit.remove));
    const draw = drawQualifiers(
      players.map((p) => p.userId),
      this.random(),
    );
    if (!draw.ok) return this.refuse(i, fitLine(loc, players, draw.add, draw.remove));
    const now = this.d.now();
    this.d.tstore.transaction(() => {
      draw.rounds.forEach((round, r) => this.d.tstore.addTables(tour.id, r + 1, round));
      this.d.tstore.setStatus(tour.id, 'running', now);
      this.refresh(this.d.tstore.get(tour.id)!);
    });
    this.d.deliverer.kick();
    await this.say(i, t(loc, 'tour.drawn', { count: fit.tables }));
  }

  /** T-2: the 10 best after the qualifiers play the final (ties by S-5, then by lot). */
  private async final(i: Any, loc: Locale, id: number): Promise<void> {
    const tour = this.d.tstore.get(id)!;
    const tables = this.views(tour);
    const phase = this.phase(tour, tables);
    if (phase.kind !== 'qualified') {
      const code = phase.kind === 'registration' ? 'tournament/not-drawn' : phase.kind === 'qualifying' ? 'tournament/qualifying' : 'tournament/final-exists';
      return this.refuse(i, t(loc, `refusal.${code}` as never, phase.kind === 'qualifying' ? { round: phase.round } : {}));
    }
    const players = this.d.tstore.players(tour.id).map((p) => p.userId);
    const sel = selectFinalists(this.system(tour), players, tables, this.random());
    if (sel.finalists.length < TABLE) return this.refuse(i, t(loc, 'refusal.tournament/too-few'));
    const now = this.d.now();
    this.d.tstore.transaction(() => {
      this.d.tstore.addTables(tour.id, FINAL_ROUND, [sel.finalists]);
      this.d.tstore.setFinalLot(tour.id, sel.lot, now);
      const fresh = this.d.tstore.get(tour.id)!;
      this.d.outbox.add(fresh.holderGameId, channelDest(fresh.channelId), 'post', finalPayload(fresh, sel.table, sel.finalists, sel.lot), now, { meta: { what: 'tournament-final' }, key: 'finalists' });
      this.refresh(fresh);
    });
    this.d.deliverer.kick();
    await this.say(i, t(loc, 'tour.finalReady'));
  }

  private async startCommand(i: ChatInputCommandInteraction, loc: Locale, tour: TournamentRow): Promise<void> {
    const round = i.options.getInteger('round', true);
    const table = i.options.getInteger('table', true);
    const channel = i.options.getChannel('channel');
    const subs: Record<string, string> = {};
    for (const suffix of ['', '2']) {
      const missing = i.options.getUser(`missing${suffix}`);
      const sub = i.options.getUser(`substitute${suffix}`);
      if (!missing && !sub) continue;
      if (!missing || !sub) return this.refuse(i, t(loc, 'refusal.tournament/sub-pair'));
      if (sub.bot) return this.refuse(i, t(loc, 'refusal.substitute/bot'));
      subs[missing.id] = sub.id;
    }
    if (channel && channel.type !== 0) return this.refuse(i, t(loc, 'refusal.tournament/channel-kind'));
    await i.deferReply({ flags: MessageFlags.Ephemeral });
    await this.serial(tour.id, () => this.start(i, loc, tour.id, round, table, channel?.id ?? null, subs));
  }

  /**
   * Starts one table's game: its channel (the table's own, the one the host named, or a new one
   * under the tournament's category), its players (the draw's, with substitutes for the missing),
   * the tournament's timers; the game carries the tournament's id.
   */
  private async start(i: Any, loc: Locale, id: number, round: number, tableNo: number, channelId: string | null, subs: Record<string, string>): Promise<void> {
    const tour = this.d.tstore.get(id)!;
    if (tour.status !== 'running') return this.refuse(i, t(loc, tour.status === 'registration' ? 'refusal.tournament/not-drawn' : 'refusal.tournament/over'));
    const tables = this.views(tour);
    const tv = tables.find((x) => x.round === round && x.table === tableNo);
    if (!tv) return this.refuse(i, t(loc, 'refusal.tournament/no-table', { round, table: tableNo }));
    const phase = this.phase(tour, tables);
    const current = (phase.kind === 'qualifying' && phase.round === round) || (phase.kind === 'final' && round === FINAL_ROUND);
    if (tv.results) return this.refuse(i, t(loc, 'refusal.tournament/table-finished'));
    const existing = tv.gameId !== null ? this.d.store.getGame(tv.gameId) : null;
    if (existing && ['running', 'post-game'].includes(existing.status)) return this.refuse(i, t(loc, 'refusal.tournament/table-playing', { game: existing.id }));
    if (!current) return this.refuse(i, t(loc, 'refusal.tournament/not-now', { round: phase.kind === 'qualifying' ? phase.round : FINAL_ROUND }));
    // The players: the draw's, each missing one replaced by his substitute.
    for (const [missing, sub] of Object.entries(subs)) {
      if (!tv.seats.includes(missing)) return this.refuse(i, t(loc, 'refusal.tournament/not-at-table', { user: `<@${missing}>` }));
      if (tv.seats.includes(sub) || Object.values(subs).filter((s) => s === sub).length > 1) return this.refuse(i, t(loc, 'refusal.tournament/sub-at-table', { user: `<@${sub}>` }));
    }
    // A substitute who still has a game of his own this round to play cannot sit at two tables.
    for (const sub of Object.values(subs)) {
      const elsewhere = tables.find((x) => x.round === round && x !== tv && !x.results && x.seats.map((u) => x.subs[u] ?? u).includes(sub));
      if (elsewhere) return this.refuse(i, t(loc, 'refusal.tournament/sub-busy', { user: `<@${sub}>`, table: elsewhere.table }));
    }
    const members = tv.seats.map((u) => subs[u] ?? u);
    const absent = await this.absent(tour.guildId, members);
    if (absent.length > 0) {
      return this.refuse(i, t(loc, 'refusal.tournament/missing', { users: absent.map((u) => `<@${u}>`).join(', '), round, table: tableNo }));
    }
    // The channel.
    const channel = await this.channelFor(tour, tv, channelId);
    if (!channel.ok) return this.refuse(i, channel.text(loc));
    // The table's own lobby (a start cut short) is taken up again; any other game there is in the way.
    const busy = this.d.store.activeGamesInChannel(channel.id).filter((g) => g.id !== existing?.id);
    if (busy.length > 0) return this.refuse(i, t(loc, 'refusal.tournament/channel-busy', { channel: `<#${channel.id}>` }));
    // The game: a lobby with the table's players, then the deal.
    const registered = new Map(this.d.tstore.players(tour.id).map((p) => [p.userId, p]));
    const names: Record<string, string> = {};
    const locales: Record<string, string> = {};
    for (const u of members) {
      const p = registered.get(u);
      const user = this.d.client.users.cache.get(u);
      names[u] = (p?.name ?? user?.displayName ?? user?.username ?? u).slice(0, 60);
      if (p?.locale) locales[u] = p.locale;
    }
    // The lobby and its link to the table in one transaction: a crash leaves both or neither.
    const game = this.d.tstore.transaction(() => {
      const g =
        existing?.status === 'lobby' && existing.channelId === channel.id
          ? existing
          : this.d.service.createLobby({
              guildId: tour.guildId,
              channelId: channel.id,
              hostId: i.user.id,
              ruleset: tour.ruleset,
              pace: 'live',
              options: tour.options,
              lobby: { members, names, locales },
              ui: { locale: tour.locale },
            });
      this.d.tstore.setTableGame(tour.id, round, tableNo, g.id, subs);
      this.refresh(this.d.tstore.get(tour.id)!);
      return g;
    });
    this.d.deliverer.kick();
    // Before dealing: who can get DMs; those who cannot play from the channel's private panels.
    const unreachable: string[] = [];
    const startedAt = this.d.service.now();
    await Promise.all(
      members.map(async (u) => {
        const ok = await this.d.deliverer.probeDm(u, { content: t(toLocale(locales[u]) ?? (tour.locale as Locale), 'lobby.dmCheck', { id: game.id }), allowed_mentions: mentions() }, undefined, { startedAt });
        if (!ok) unreachable.push(u);
      }),
    );
    await this.d.service.updateLobby(game.id, (l) => ({ ...l, members, fallback: unreachable, unreachable: [] }));
    const deal = this.d.dealer(members, tour.ruleset);
    const r = await this.d.service.start(game.id, deal.seats, deal.roles);
    if (!r.ok) return this.refuse(i, refusalText(loc, r.code));
    await this.say(i, t(loc, 'tour.started', { game: game.id, channel: `<#${channel.id}>`, round, table: tableNo }) + (unreachable.length > 0 ? `\n${t(loc, 'lobby.unreachableHost', { users: unreachable.map((u) => `<@${u}>`).join(', ') })}` : ''));
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
  private async channelFor(tour: TournamentRow, tv: TableView, named: string | null): Promise<{ ok: true; id: string } | { ok: false; text: (loc: Locale) => string }> {
    if (named) {
      // The bot must be able to run a game there: see it, write, and (for who may write) manage it.
      const ch = this.d.client.channels.cache.get(named);
      const me = this.d.client.user;
      const perms = ch && me && 'permissionsFor' in ch ? (ch as GuildTextBasedChannel).permissionsFor(me) : null;
      if (!perms?.has([PermissionFlagsBits.ViewChannel, PermissionFlagsBits.SendMessages])) return { ok: false, text: (l) => t(l, 'refusal.tournament/channel-forbidden', { channel: `<#${named}>` }) };
      this.d.tstore.setTableChannel(tour.id, tv.round, tv.table, named);
      return { ok: true, id: named };
    }
    if (tv.channelId && (await this.exists(tv.channelId))) return { ok: true, id: tv.channelId };
    const loc = tour.locale as Locale;
    const noPermission = { ok: false as const, text: (l: Locale) => t(l, 'refusal.tournament/no-channel', { round: tv.round, table: tv.table }) };
    try {
      let category = tour.categoryId && (await this.exists(tour.categoryId)) ? tour.categoryId : null;
      if (!category) {
        const cat = (await this.d.client.rest.post(Routes.guildChannels(tour.guildId), { body: { name: t(loc, 'tour.category', { name: tour.name }).slice(0, 100), type: 4 } })) as { id: string };
        category = cat.id;
        this.d.tstore.setCategory(tour.id, category, this.d.now());
      }
      const name = tv.round === FINAL_ROUND ? t(loc, 'tour.channel.final') : t(loc, 'tour.channel.table', { round: tv.round, table: tv.table });
      const ch = (await this.d.client.rest.post(Routes.guildChannels(tour.guildId), { body: { name, type: 0, parent_id: category } })) as { id: string };
      this.d.tstore.setTableChannel(tour.id, tv.round, tv.table, ch.id);
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
    for (let n = 0; n < 60 && !this.d.client.channels.cache.has(channelId); n++) await new Promise((r) => setTimeout(r, 50));
  }

  /** T-3: the live standings, paginated; the final result with the winner; CSV on request. */
  private async standings(i: Any, loc: Locale, tour: TournamentRow, page: number, csv: boolean, ephemeral: boolean): Promise<void> {
    const tables = this.views(tour);
    const players = this.d.tstore.players(tour.id);
    const table = tournamentStandings(this.system(tour), players.map((p) => p.userId), tables);
    const counted = tables.filter((x) => x.results).length;
    const total = tables.length === 0 ? 0 : Math.max(tables.length, tables.filter((x) => x.round < FINAL_ROUND).length + 1);
    // A public message speaks the tournament's language; one only the clicker sees, his own.
    const isPublic = i.isChatInputCommand() ? true : !ephemeral && !(i as Component).message.flags.has(MessageFlags.Ephemeral);
    const payload = standingsPayload(tour, isPublic ? (tour.locale as Locale) : loc, table, counted, total, page, tour.status === 'finished');
    const files = csv ? [this.csvFile(tour, tables)] : [];
    const body = { embeds: payload.embeds, components: payload.components, allowedMentions: { parse: [] as [] }, files, ...(ephemeral ? { flags: MessageFlags.Ephemeral as const } : {}) };
    if (i.isChatInputCommand() || ephemeral) await i.reply(body);
    else await (i as Component).update({ embeds: payload.embeds!, components: payload.components!, allowedMentions: { parse: [] } });
  }

  private csvFile(tour: TournamentRow, tables: TableView[]): AttachmentBuilder {
    const names = new Map(this.d.tstore.players(tour.id).map((p) => [p.userId, p.name]));
    const csv = tournamentCsv(tables, (u) => names.get(u) ?? this.d.client.users.cache.get(u)?.username ?? '');
    return new AttachmentBuilder(Buffer.from(csv, 'utf8'), { name: `tournament-${tour.id}.csv`, description: tour.name });
  }

  // -------------------------------------------------------------------------------------------
  // Buttons

  async component(i: Component, id: TourId): Promise<void> {
    const loc = toLocale(i.locale) ?? 'en';
    const tour = this.d.tstore.get(id.tournament);
    if (!tour || !i.inGuild() || tour.guildId !== i.guildId) return this.refuse(i, t(loc, 'refusal.input/forged'));
    switch (id.op) {
      case 'page':
        return this.standings(i, loc, tour, id.a ?? 1, false, false);
      case 'mine':
        return this.standings(i, loc, tour, 1, false, true);
      case 'csv': {
        const tables = this.views(tour);
        return this.say(i, t(loc, 'tour.standings.csvReady'), { files: [this.csvFile(tour, tables)] });
      }
      default:
        break;
    }
    // Everything else belongs to the tournament's own messages.
    if (i.channelId !== tour.channelId) return this.refuse(i, t(loc, 'refusal.input/forged'));
    switch (id.op) {
      case 'join':
      case 'leave':
        return this.serial(tour.id, () => this.register(i, loc, tour.id, id.op === 'join'));
      case 'draw':
        if (!this.canRun(i, tour)) return this.refuse(i, t(loc, 'refusal.tournament/not-host'));
        return this.serial(tour.id, () => this.draw(i, loc, tour.id));
      case 'final':
        if (!this.canRun(i, tour)) return this.refuse(i, t(loc, 'refusal.tournament/not-host'));
        return this.serial(tour.id, () => this.final(i, loc, tour.id));
      case 'start': {
        if (!this.canRun(i, tour)) return this.refuse(i, t(loc, 'refusal.tournament/not-host'));
        if (id.a === undefined || id.b === undefined) return this.refuse(i, t(loc, 'refusal.input/forged'));
        await i.deferReply({ flags: MessageFlags.Ephemeral });
        return this.serial(tour.id, () => this.start(i, loc, tour.id, id.a!, id.b!, null, {}));
      }
    }
  }

  /** T-1: the head host takes a player off the list before the draw (a count that does not fit, a no-show). */
  private async removePlayer(i: ChatInputCommandInteraction, loc: Locale, id: number, userId: string): Promise<void> {
    const tour = this.d.tstore.get(id)!;
    if (tour.status !== 'registration') return this.refuse(i, t(loc, 'refusal.tournament/closed'));
    const removed = this.d.tstore.transaction(() => {
      if (!this.d.tstore.leave(id, userId)) return false;
      this.refresh(tour);
      return true;
    });
    if (!removed) return this.refuse(i, t(loc, 'refusal.tournament/not-registered', { user: `<@${userId}>` }));
    this.d.deliverer.kick();
    await this.say(i, t(loc, 'tour.removed', { user: `<@${userId}>`, count: this.d.tstore.players(id).length }));
  }

  /** Join / Leave: the board itself shows the change (the click updates it for free). */
  private async register(i: Component, loc: Locale, id: number, join: boolean): Promise<void> {
    const tour = this.d.tstore.get(id)!;
    if (tour.status !== 'registration') return this.refuse(i, t(loc, 'refusal.tournament/closed'));
    if (i.user.bot) return this.refuse(i, t(loc, 'refusal.substitute/bot'));
    const now = this.d.now();
    const name = ((i.member && 'displayName' in i.member ? i.member.displayName : null) ?? i.user.displayName ?? i.user.username).slice(0, 60);
    const code = this.d.tstore.transaction(() => {
      if (join) {
        if (this.d.tstore.players(id).length >= MAX_PLAYERS) return 'tournament/full';
        if (!this.d.tstore.join(id, { userId: i.user.id, name, locale: i.locale }, now)) return 'tournament/already-joined';
      } else if (!this.d.tstore.leave(id, i.user.id)) return 'tournament/not-joined';
      this.refresh(tour);
      return null;
    });
    if (code) return this.refuse(i, t(loc, `refusal.${code}` as never));
    const slot = this.d.outbox.slot(tour.holderGameId, 'board');
    if (slot && slot.messageId === i.message.id) {
      await i.update({ ...toBody(JSON.parse(slot.payload) as Payload) });
      this.shown(tour.holderGameId, 'board', slot.version, i.message.id);
    } else {
      await i.deferUpdate();
      this.d.deliverer.kick();
    }
  }
}

function toBody(p: Payload) {
  return { content: p.content ?? '', embeds: p.embeds ?? [], components: p.components ?? [], allowedMentions: { parse: [] as [] } };
}

