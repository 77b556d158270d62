// Permanent delivery failures, surfaced once: a player whose DMs are closed is pinged in the game
// channel to use the private panel (the host is named in the same message); a channel the bot may
// not post in is reported to the host by DM.
//
// Nothing here depends on a role (issue 20): the notice does not say what the DM was, and it is
// said only for a DM every living player gets alike (the role card, the night's panel or its
// "nothing to do tonight"), so neither its words nor its moment mark a night role. A DM only some
// roles get (a check's answer, a gesture, a reminder of a night action) fails silently: the player
// has already been told, or will be at the next DM everyone gets.
import type { GameService } from '../app/game-service';
import type { GameRow, Store } from '../db/store';
import { Routes, type REST } from 'discord.js';
import type { Failure } from '../delivery/errors';
import type { Dest, OutboxStore, PostMeta } from '../db/outbox-store';
import { t, type Locale } from '../i18n';
import { UNIFORM_DM_KINDS } from './audience';
import { uiOf } from './context';
import type { Contexts } from './context';
import { channelDest, dmDest } from './destinations';
import { mentions } from './render/common';

export interface NoticeLogger {
  warn(msg: string): void;
  error(msg: string, e?: unknown): void;
}

export class Notices {
  constructor(
    /** For the one message that cannot wait for the outbox: the database itself failed. */
    private readonly rest: REST,
    private readonly outbox: OutboxStore,
    private readonly store: Store,
    private readonly contexts: Contexts,
    private readonly service: GameService,
    private readonly log: NoticeLogger,
    /** Whether a game is suspended (issue 20: its channel is gone or out of the bot's reach). */
    private readonly suspended: (gameId: number) => boolean | Promise<boolean> = () => false,
  ) {}

  async permanent(row: { gameId: number; dest: Dest; meta: PostMeta }, failure: Failure): Promise<void> {
    try {
      const game = await this.store.getGame(row.gameId);
      if (!game || !['lobby', 'running', 'post-game'].includes(game.status)) return;
      const ctx = await this.contexts.fromRow(game);
      const now = this.service.now();
      if (failure === 'dm-closed' && row.dest.startsWith('dm:')) {
        if (!UNIFORM_DM_KINDS.has(row.meta.what ?? '')) {
          this.log.warn(`delivery: game ${game.id}: a ${row.meta.what ?? 'DM'} to ${row.dest} failed (DMs closed)`);
          return;
        }
        const userId = row.dest.slice(3);
        await this.outbox.add(
          game.id,
          channelDest(game.channelId),
          'notice',
          {
            content: `📪 ${t(ctx.pub, 'delivery.dmClosed', { user: `<@${userId}>`, host: `<@${game.hostId}>` })}`,
            allowed_mentions: mentions([userId, game.hostId]),
          },
          now,
          { key: `dm-closed:${userId}`, meta: { what: 'notice' } },
        );
      } else if (failure === 'forbidden' && (row.dest.startsWith('ch:') || row.dest.startsWith('tm:'))) {
        const channel = row.dest.slice(3).split(':')[0]!;
        await this.outbox.add(
          game.id,
          dmDest(game.hostId),
          'notice',
          { content: t(ctx.pub, 'delivery.channelForbidden', { id: game.id, channel }), allowed_mentions: mentions() },
          now,
          { key: `forbidden:${channel}`, meta: { what: 'notice' } },
        );
      } else {
        this.log.warn(
          `delivery: game ${game.id}: ${row.meta.what ?? 'message'} to ${row.dest} failed for good (${failure})`,
        );
        return;
      }
    } catch (e) {
      this.log.error(`delivery: could not surface a failure of game ${row.gameId}`, e);
    }
  }

  /**
   * The database failed: the host is told directly (the outbox itself may not be writable), in the
   * game's channel. Not for a suspended game: its channel is gone or out of reach (issue 20), so
   * the failure is only logged (the guard that called this has logged it too).
   */
  async storageFailed(gameId: number, e: unknown, defaultLocale: Locale): Promise<void> {
    let game: GameRow | null;
    try {
      game = await this.store.getGame(gameId);
    } catch {
      return;
    }
    if (!game) return;
    const why = String((e as { code?: string }).code ?? (e as Error).message ?? 'error').slice(0, 80);
    let suspended = false;
    try {
      suspended = await this.suspended(gameId);
    } catch {
      // Not known (the database fails under this too): the post is tried; a channel out of reach refuses it.
    }
    if (suspended) {
      this.log.warn(
        `game ${gameId}: storage error (${why}); the game is suspended (its channel out of reach), so nothing is posted there`,
      );
      return;
    }
    const loc = uiOf(game).locale ?? defaultLocale;
    const content = t(loc, 'delivery.storage', { id: gameId, why });
    try {
      const body = { content, allowed_mentions: { parse: [], users: [game.hostId] } };
      await this.rest.post(Routes.channelMessages(game.channelId), { body });
    } catch (err) {
      this.log.warn(`could not tell game ${gameId} about the storage error: ${(err as Error).message}`);
    }
  }
}
