// Tournaments (RULES T-1..T-4), their rules: registration, the qualifying draw, the tables' games,
// the final and its cut, the standings and the result. One change at a time per tournament (a
// keyed queue). What players see is written by a TournamentView (the Discord shell renders the
// board and the rounds' messages into the outbox) inside the change's transaction. No discord.js
// here: this is tested on its own.
import { randomInt } from 'node:crypto';
import type { GameRow, Store } from '../db/store';
import type { RegisteredPlayer, TournamentRow, TournamentStore } from '../db/tournament-store';
import { optionOverridesSchema } from '../engine/options';
import { RULESETS } from '../engine/rulesets';
import { TABLE, drawQualifiers, type ScoringSystem, type StandingRow } from '../engine/standings';
import {
  FINAL_ROUND,
  drawFit,
  phaseOf,
  selectFinalists,
  tournamentCsv,
  tournamentStandings,
  type Phase,
  type TournamentTable,
} from '../engine/tournament';
import type { OptionOverrides, RefusalCode, RulesetId, Timers } from '../engine/types';
import type { Dealer } from './dealer';
import { seededRng } from '../sim/random-play';
import type { GameEffect, GameService } from './game-service';
import { KeyedQueue } from './keyed-queue';

/** The 10-player rule sets: T-1's tables are of 10. */
export const TOURNAMENT_RULESETS: readonly RulesetId[] = ['chnu-2016', 'classic-10'];

/**
 * The most players a tournament takes: 15 tables a round: a round fits one message (Discord: 6000
 * characters, 25 buttons).
 */
export const MAX_PLAYERS = 150;

/** A table as the tournament shows it: the draw's seats, its game's results, its channel, substitutes. */
export type TableView = TournamentTable & {
  channelId: string | null;
  subs: Record<string, string>;
  status: string | null;
};

export type { Dealer } from './dealer';

/** A refusal: the code of its message (`refusal.<code>`) and its parameters. */
export interface TourRefusal {
  ok: false;
  code: RefusalCode;
  params?: Record<string, string | number>;
}

const refusal = (code: RefusalCode, params?: Record<string, string | number>): TourRefusal =>
  params ? { ok: false, code, params } : { ok: false, code };

/** What the draw saw: the players, and how many to add or remove when their count does not fit. */
export interface DrawMisfit {
  ok: false;
  fit: { players: RegisteredPlayer[]; add: number; remove: number };
}

/** The tournament as its messages show it. */
export interface TournamentSnapshot {
  players: RegisteredPlayer[];
  tables: TableView[];
  phase: Phase;
  /** The winners (place 1) once the tournament is finished. */
  winners: string[];
}

/**
 * What players see of a tournament, written where the rules say. Every method is called inside a
 * transaction, and awaits nothing but storage.
 */
export interface TournamentView {
  /** The board and every round's message (slots: only changed ones are edited). */
  refresh(tour: TournamentRow, snapshot: TournamentSnapshot, now: number): Promise<void>;
  /** T-3: the final is over: the result, with the winner. */
  result(tour: TournamentRow, standings: readonly StandingRow[], now: number): Promise<void>;
  /** T-2: the finalists (and the lot at the cut, if there was one). */
  finalists(
    tour: TournamentRow,
    standings: readonly StandingRow[],
    finalists: readonly string[],
    lot: TournamentRow['finalLot'],
    now: number,
  ): Promise<void>;
}

export interface TournamentRulesDeps {
  service: GameService;
  store: Store;
  tstore: TournamentStore;
  view: TournamentView;
  dealer: Dealer;
  now: () => number;
  /** The deliverer's cue: something was written to the outbox outside a game's change. */
  kick: () => void;
  log: { error(msg: string, err?: unknown): void };
  /** The head host's lot (the draw, a lot at the final's cut): crypto-random by default. */
  random?: () => number;
}

/** Each lot from a fresh crypto-random seed (the draw's local search asks for many numbers). */
const cryptoLot = () => seededRng(randomInt(0, 2 ** 32));

/** What a start needs once its table is checked: the table, its game so far and its players. */
export interface StartPlan {
  ok: true;
  tour: TournamentRow;
  tables: TableView[];
  tv: TableView;
  existing: GameRow | null;
  /** The draw's players, each missing one replaced by his substitute. */
  members: string[];
}

export class TournamentRules {
  private readonly queue = new KeyedQueue<number>();
  private readonly random: () => () => number;

  constructor(private readonly d: TournamentRulesDeps) {
    const fixed = d.random;
    this.random = fixed ? () => fixed : cryptoLot;
  }

  /** One change at a time per tournament (two clicks on Start never race). */
  serial<T>(id: number, task: () => Promise<T>): Promise<T> {
    return this.queue.run(id, task);
  }

  /** How many tournaments have changes queued or running (tests: none once idle; a key is dropped when its queue empties). */
  get queued(): number {
    return this.queue.size;
  }

  /** Resolves when the tournament's queued changes (or all) have finished. */
  idle(id?: number): Promise<void> {
    return this.queue.idle(id);
  }

  // -------------------------------------------------------------------------------------------
  // Reading

  get(id: number): Promise<TournamentRow | null> {
    return this.d.tstore.get(id);
  }

  players(id: number): Promise<RegisteredPlayer[]> {
    return this.d.tstore.players(id);
  }

  /** The tournament a command means: the one named (in this server), else the server's current (or latest) one. */
  async pick(guildId: string, id: number | null): Promise<TournamentRow | null> {
    if (id !== null) {
      const tour = await this.d.tstore.get(id);
      return tour && tour.guildId === guildId ? tour : null;
    }
    return (await this.d.tstore.current(guildId)) ?? (await this.d.tstore.latest(guildId));
  }

  /** Scoring system of the tournament's rule set (S-5 tie-breaks). */
  private system(tour: TournamentRow): ScoringSystem {
    return RULESETS[tour.ruleset].scoring as ScoringSystem;
  }

  views(tour: TournamentRow): Promise<TableView[]> {
    return this.d.tstore.withResults(tour.id);
  }

  async phase(tour: TournamentRow, known?: TableView[]): Promise<Phase> {
    return phaseOf(tour.status, known ?? (await this.views(tour)));
  }

  /** T-3: the live standings, how many tables are counted, and of how many in all. */
  async standings(
    tour: TournamentRow,
  ): Promise<{ table: StandingRow[]; tables: TableView[]; counted: number; total: number }> {
    const tables = await this.views(tour);
    const players = await this.d.tstore.players(tour.id);
    const table = tournamentStandings(
      this.system(tour),
      players.map((p) => p.userId),
      tables,
    );
    const counted = tables.filter((x) => x.results).length;
    const qualifiers = tables.filter((x) => x.round < FINAL_ROUND).length;
    const total = tables.length === 0 ? 0 : Math.max(tables.length, qualifiers + 1);
    return { table, tables, counted, total };
  }

  /** The tables as CSV: registered names, else `nameOf` (e.g. the user's name on Discord). */
  async csv(
    tour: TournamentRow,
    tables: readonly TableView[],
    nameOf: (userId: string) => string | undefined,
  ): Promise<string> {
    const names = new Map((await this.d.tstore.players(tour.id)).map((p) => [p.userId, p.name]));
    return tournamentCsv(tables, (u) => names.get(u) ?? nameOf(u) ?? '');
  }

  // -------------------------------------------------------------------------------------------
  // What players see

  /** Writes the board and every round's message. */
  private async refresh(tour: TournamentRow): Promise<void> {
    const tables = await this.views(tour);
    const phase = await this.phase(tour, tables);
    const players = await this.d.tstore.players(tour.id);
    const winners =
      tour.status === 'finished'
        ? tournamentStandings(
            this.system(tour),
            players.map((p) => p.userId),
            tables,
          )
            .filter((r) => r.place === 1)
            .map((r) => r.player)
        : [];
    await this.d.view.refresh(tour, { players, tables, phase, winners }, this.d.now());
  }

  /**
   * Inside a game's own transaction (the planner's hook): a tournament game that started, ended or
   * was cancelled changes its round's message; the last game of the final ends the tournament.
   */
  async plan(e: GameEffect): Promise<void> {
    // Its own savepoint: should the tournament's part fail, the game's change still goes through
    // (the tournament's messages catch up at their next change or the next restart).
    try {
      await this.d.tstore.transaction(() => this.planTournament(e));
    } catch (err) {
      this.d.log.error(`tournament: could not follow game ${e.game.id}`, err);
    }
  }

  /**
   * A tournament game changed outside the game service's effects (issue 11's annul: an annulled
   * game no longer counts, and its table may be played again): its tournament's messages follow.
   */
  async gameChanged(gameId: number): Promise<void> {
    const link = await this.d.tstore.tableOfGame(gameId);
    const known = link ? await this.d.tstore.get(link.tournamentId) : null;
    if (!known || known.status === 'cancelled' || known.status === 'registration') return;
    await this.d.tstore.transaction(async () => {
      const tour = (await this.d.tstore.get(known.id))!;
      // The final annulled after the result: the tournament is back to its final.
      const back = tour.status === 'finished' && phaseOf('running', await this.views(tour)).kind !== 'finished';
      if (back) await this.d.tstore.setStatus(tour.id, 'running', this.d.now());
      await this.refresh((await this.d.tstore.get(tour.id))!);
    });
    this.d.kick();
  }

  private async planTournament(e: GameEffect): Promise<void> {
    const relevant =
      e.kind === 'started' ||
      e.kind === 'cancelled' ||
      (e.kind === 'action' && e.state.stage.kind === 'over' && e.prev.stage.kind !== 'over');
    if (!relevant) return;
    const link = await this.d.tstore.tableOfGame(e.game.id);
    if (!link) return;
    const tour = await this.d.tstore.get(link.tournamentId);
    if (!tour || tour.status !== 'running') return;
    const tables = await this.views(tour);
    const before = await this.phase(tour, tables);
    if (before.kind === 'finished') {
      // T-3: the final is over: the result, with the winner.
      await this.d.tstore.setStatus(tour.id, 'finished', this.d.now());
      const done = (await this.d.tstore.get(tour.id))!;
      const table = tournamentStandings(
        this.system(done),
        (await this.d.tstore.players(done.id)).map((p) => p.userId),
        tables,
      );
      await this.d.view.result(done, table, this.d.now());
      await this.refresh(done);
      return;
    }
    await this.refresh(tour);
  }

  // -------------------------------------------------------------------------------------------
  // Changes (each through serial() where two could race)

  /** A tournament's name (spaces squeezed, at most 60 characters, no markup) and rule set (of 10 players). */
  checkCreate(rawName: string, ruleset: string): TourRefusal | { ok: true; name: string } {
    const name = rawName.replace(/\s+/g, ' ').trim().slice(0, 60);
    if (name.length === 0 || /[<>@`*~|]/.test(name)) return refusal('tournament/name');
    if (!(TOURNAMENT_RULESETS as string[]).includes(ruleset)) return refusal('tournament/ruleset');
    return { ok: true, name };
  }

  /** A new tournament in registration (the caller checked the permission and the timers). */
  async create(input: {
    guildId: string;
    channelId: string;
    hostId: string;
    name: string;
    ruleset: string;
    timers: Partial<Timers>;
    locale: string;
  }): Promise<TourRefusal | { ok: true; tour: TournamentRow; name: string }> {
    const checked = this.checkCreate(input.name, input.ruleset);
    if (!checked.ok) return checked;
    const name = checked.name;
    const options: OptionOverrides = Object.keys(input.timers).length > 0 ? { timers: input.timers } : {};
    const parsed = optionOverridesSchema.safeParse(options);
    if (!parsed.success) return refusal('create/options');
    const now = this.d.now();
    const tour = await this.d.tstore.transaction(async () => {
      const created = await this.d.tstore.create({
        guildId: input.guildId,
        channelId: input.channelId,
        hostId: input.hostId,
        name,
        ruleset: input.ruleset as RulesetId,
        options: parsed.data as OptionOverrides,
        locale: input.locale,
        now,
      });
      await this.refresh(created);
      return created;
    });
    this.d.kick();
    return { ok: true, tour, name };
  }

  /** T-1: the qualifying draw, stored; one message per round. */
  async draw(id: number): Promise<TourRefusal | DrawMisfit | { ok: true; tables: number }> {
    const tour = (await this.d.tstore.get(id))!;
    if (tour.status !== 'registration') return refusal('tournament/drawn');
    const players = await this.d.tstore.players(tour.id);
    const fit = drawFit(players.length);
    if (!fit.ok) return { ok: false, fit: { players, add: fit.add, remove: fit.remove } };
    const draw = drawQualifiers(
      players.map((p) => p.userId),
      this.random(),
    );
    if (!draw.ok) return { ok: false, fit: { players, add: draw.add, remove: draw.remove } };
    const now = this.d.now();
    await this.d.tstore.transaction(async () => {
      for (const [r, round] of draw.rounds.entries()) await this.d.tstore.addTables(tour.id, r + 1, round);
      await this.d.tstore.setStatus(tour.id, 'running', now);
      await this.refresh((await this.d.tstore.get(tour.id))!);
    });
    this.d.kick();
    return { ok: true, tables: fit.tables };
  }

  /** T-2: the 10 best after the qualifiers play the final (ties by S-5, then by lot). */
  async final(id: number): Promise<TourRefusal | { ok: true }> {
    const tour = (await this.d.tstore.get(id))!;
    const tables = await this.views(tour);
    const phase = await this.phase(tour, tables);
    if (phase.kind !== 'qualified') {
      if (phase.kind === 'registration') return refusal('tournament/not-drawn', {});
      if (phase.kind === 'qualifying') return refusal('tournament/qualifying', { round: phase.round });
      return refusal('tournament/final-exists', {});
    }
    const players = (await this.d.tstore.players(tour.id)).map((p) => p.userId);
    const sel = selectFinalists(this.system(tour), players, tables, this.random());
    if (sel.finalists.length < TABLE) return refusal('tournament/too-few');
    const now = this.d.now();
    await this.d.tstore.transaction(async () => {
      await this.d.tstore.addTables(tour.id, FINAL_ROUND, [sel.finalists]);
      await this.d.tstore.setFinalLot(tour.id, sel.lot, now);
      const fresh = (await this.d.tstore.get(tour.id))!;
      await this.d.view.finalists(fresh, sel.table, sel.finalists, sel.lot, now);
      await this.refresh(fresh);
    });
    this.d.kick();
    return { ok: true };
  }

  /** T-1: the head host takes a player off the list before the draw (a count that does not fit, a no-show). */
  async removePlayer(id: number, userId: string): Promise<TourRefusal | { ok: true; count: number }> {
    const tour = (await this.d.tstore.get(id))!;
    if (tour.status !== 'registration') return refusal('tournament/closed');
    const removed = await this.d.tstore.transaction(async () => {
      if (!(await this.d.tstore.leave(id, userId))) return false;
      await this.refresh(tour);
      return true;
    });
    if (!removed) return refusal('tournament/not-registered', { user: `<@${userId}>` });
    this.d.kick();
    return { ok: true, count: (await this.d.tstore.players(id)).length };
  }

  /**
   * Join / Leave (the caller shows the board: the click's answer updates it for free, so the
   * deliverer is not cued here).
   */
  async register(
    id: number,
    join: boolean,
    user: RegisteredPlayer & { bot: boolean },
  ): Promise<TourRefusal | { ok: true; tour: TournamentRow }> {
    const tour = (await this.d.tstore.get(id))!;
    if (tour.status !== 'registration') return refusal('tournament/closed');
    if (user.bot) return refusal('substitute/bot');
    const now = this.d.now();
    const code = await this.d.tstore.transaction(async (): Promise<RefusalCode | null> => {
      if (join) {
        if ((await this.d.tstore.players(id)).length >= MAX_PLAYERS) return 'tournament/full';
        const p = { userId: user.userId, name: user.name, locale: user.locale };
        if (!(await this.d.tstore.join(id, p, now))) return 'tournament/already-joined';
      } else if (!(await this.d.tstore.leave(id, user.userId))) return 'tournament/not-joined';
      await this.refresh(tour);
      return null;
    });
    return code ? refusal(code) : { ok: true, tour };
  }

  // -------------------------------------------------------------------------------------------
  // Starting a table's game: checked here, its channel found by the shell, then opened and dealt

  /** Whether the table may start now, with these substitutes (each missing player's). */
  async checkStart(
    id: number,
    round: number,
    tableNo: number,
    subs: Record<string, string>,
  ): Promise<TourRefusal | StartPlan> {
    const tour = (await this.d.tstore.get(id))!;
    if (tour.status !== 'running') {
      return refusal(tour.status === 'registration' ? 'tournament/not-drawn' : 'tournament/over');
    }
    const tables = await this.views(tour);
    const tv = tables.find((x) => x.round === round && x.table === tableNo);
    if (!tv) return refusal('tournament/no-table', { round, table: tableNo });
    const phase = await this.phase(tour, tables);
    const current =
      (phase.kind === 'qualifying' && phase.round === round) || (phase.kind === 'final' && round === FINAL_ROUND);
    if (tv.results) return refusal('tournament/table-finished');
    const existing = tv.gameId !== null ? await this.d.store.getGame(tv.gameId) : null;
    if (existing && ['running', 'post-game'].includes(existing.status)) {
      return refusal('tournament/table-playing', { game: existing.id });
    }
    if (!current) {
      return refusal('tournament/not-now', { round: phase.kind === 'qualifying' ? phase.round : FINAL_ROUND });
    }
    // The players: the draw's, each missing one replaced by his substitute.
    for (const [missing, sub] of Object.entries(subs)) {
      if (!tv.seats.includes(missing)) return refusal('tournament/not-at-table', { user: `<@${missing}>` });
      const twice = Object.values(subs).filter((s) => s === sub).length > 1;
      if (tv.seats.includes(sub) || twice) return refusal('tournament/sub-at-table', { user: `<@${sub}>` });
    }
    // A substitute who still has a game of his own this round to play cannot sit at two tables.
    for (const sub of Object.values(subs)) {
      const elsewhere = tables.find(
        (x) => x.round === round && x !== tv && !x.results && x.seats.map((u) => x.subs[u] ?? u).includes(sub),
      );
      if (elsewhere) return refusal('tournament/sub-busy', { user: `<@${sub}>`, table: elsewhere.table });
    }
    const members = tv.seats.map((u) => subs[u] ?? u);
    return { ok: true, tour, tables, tv, existing, members };
  }

  /** The table's game is to be played in a channel the host named. */
  setTableChannel(tour: TournamentRow, tv: TableView, channelId: string): Promise<void> {
    return this.d.tstore.setTableChannel(tour.id, tv.round, tv.table, channelId);
  }

  /** The category the shell created for the tournament's channels. */
  setCategory(tour: TournamentRow, categoryId: string): Promise<void> {
    return this.d.tstore.setCategory(tour.id, categoryId, this.d.now());
  }

  /**
   * The table's lobby in its channel (its own lobby, a start cut short, is taken up again) linked
   * to the table, in one transaction: a crash leaves both or neither. Names: the registered ones,
   * else `nameOf` (the user's name on Discord).
   */
  async openTable(
    plan: StartPlan,
    channelId: string,
    subs: Record<string, string>,
    hostId: string,
    nameOf: (userId: string) => string | undefined,
  ): Promise<TourRefusal | { ok: true; game: GameRow; locales: Record<string, string> }> {
    const { tour, tv, existing, members } = plan;
    // Any other game in the channel is in the way.
    const busy = (await this.d.store.activeGamesInChannel(channelId)).filter((g) => g.id !== existing?.id);
    if (busy.length > 0) return refusal('tournament/channel-busy', { channel: `<#${channelId}>` });
    // The game: a lobby with the table's players, then the deal.
    const registered = new Map((await this.d.tstore.players(tour.id)).map((p) => [p.userId, p]));
    const names: Record<string, string> = {};
    const locales: Record<string, string> = {};
    for (const u of members) {
      const p = registered.get(u);
      names[u] = (p?.name ?? nameOf(u) ?? u).slice(0, 60);
      if (p?.locale) locales[u] = p.locale;
    }
    const game = await this.d.tstore.transaction(async () => {
      const g =
        existing?.status === 'lobby' && existing.channelId === channelId
          ? existing
          : await this.d.service.createLobby({
              guildId: tour.guildId,
              channelId,
              hostId,
              ruleset: tour.ruleset,
              pace: 'live',
              options: tour.options,
              lobby: { members, names, locales },
              ui: { locale: tour.locale },
            });
      await this.d.tstore.setTableGame(tour.id, tv.round, tv.table, g.id, subs);
      await this.refresh((await this.d.tstore.get(tour.id))!);
      return g;
    });
    this.d.kick();
    return { ok: true, game, locales };
  }

  /** The deal: those who cannot get DMs (`unreachable`) play from the channel's private panels. */
  async deal(plan: StartPlan, game: GameRow, unreachable: string[]): Promise<TourRefusal | { ok: true }> {
    const members = plan.members;
    await this.d.service.updateLobby(game.id, (l) => ({ ...l, members, fallback: unreachable, unreachable: [] }));
    const deal = this.d.dealer(members, plan.tour.ruleset);
    const r = await this.d.service.start(game.id, deal.seats, deal.roles);
    return r.ok ? { ok: true } : refusal(r.code);
  }
}
