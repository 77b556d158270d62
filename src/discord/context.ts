// Per-game context for rendering: the game row, the state, who sits where, names and languages.
// (The Discord ids of what the bot sends are in the outbox's slots, not here.)
import type { GameService } from '../app/game-service';
import type { GameRow, Store } from '../db/store';
import { toLocale, type Locale } from '../i18n';
import type { GameCtx, SeatInfo } from './render/common';

/** What the bot keeps about a game outside the engine's state (games.ui): its public language. */
export interface Ui {
  /** Public language of this game, fixed at creation. */
  locale?: Locale;
}

export function uiOf(game: GameRow): Ui {
  return game.ui as Ui;
}

export class Contexts {
  constructor(
    private readonly store: Store,
    private readonly service: GameService,
    private readonly defaultLocale: Locale,
  ) {}

  /** The public language for a new game in a server (server setting, guild locale, default). */
  async publicLocale(guildId: string, guildLocale: string | null | undefined): Promise<Locale> {
    const server = await this.store.getServer(guildId);
    return toLocale(server?.locale) ?? toLocale(guildLocale) ?? this.defaultLocale;
  }

  /** The game's seats (read once per transaction: Store.players). */
  async seats(gameId: number): Promise<void> {
    await this.store.players(gameId);
  }

  row(gameId: number): Promise<GameRow | null> {
    return this.store.getGame(gameId);
  }

  async build(gameId: number): Promise<GameCtx | null> {
    const game = await this.store.getGame(gameId);
    if (!game) return null;
    return this.fromRow(game);
  }

  async fromRow(game: GameRow): Promise<GameCtx> {
    const state =
      game.status === 'lobby' ? null : ((await this.service.state(game.id)) ?? (await this.store.getState(game.id)));
    const locales = game.lobby.locales ?? {};
    const seats: SeatInfo[] = (await this.store.players(game.id)).map((p) => ({
      ...p,
      locale: toLocale(locales[p.userId]),
    }));
    const names = new Map(Object.entries(game.lobby.names ?? {}));
    return { game, state, seats, pub: uiOf(game).locale ?? this.defaultLocale, names };
  }

  /** The stored end of the game's current timer (later than the engine's if its message was seen late). */
  deadline(gameId: number): Promise<{ stageSeq: number; dueAt: number } | null> {
    return this.store.deadlineOf(gameId);
  }
}

export function seatOfUser(ctx: GameCtx, userId: string): number | null {
  return ctx.seats.find((s) => s.userId === userId)?.seat ?? null;
}

/** The language for a private message to a player: his client's, else the game's. */
export function userLocale(ctx: GameCtx, userId: string): Locale {
  return ctx.seats.find((s) => s.userId === userId)?.locale ?? toLocale(ctx.game.lobby.locales?.[userId]) ?? ctx.pub;
}
