// What players are told of the host's toolkit (issue 11), planned in the change's own transaction
// like everything else (the planner calls these): an annulled game, a new host, an undo, and the
// results channel of the server's settings.
import type { GameEffect } from '../app/game-service';
import type { OutboxStore } from '../db/outbox-store';
import type { Action, GameState } from '../engine/types';
import { t } from '../i18n';
import { userLocale, type Contexts } from './context';
import { mentions, seatTag, userOf, type GameCtx, type Payload } from './render/common';
import { mafiaTalkOpen } from '../engine/view';
import { panelPayload } from './render/panel';
import type { ServerSettings } from '../app/settings';

const ch = (id: string) => `ch:${id}` as const;

/** The settings a game was created with (a snapshot; older games have none). */
export function gameSettings(ctx: { game: { ui: Record<string, unknown> } }): Partial<ServerSettings> {
  const s = ctx.game.ui.settings;
  return typeof s === 'object' && s !== null ? (s as Partial<ServerSettings>) : {};
}

export async function planHostNews(
  outbox: OutboxStore,
  contexts: Contexts,
  e: Extract<GameEffect, { kind: 'annulled' | 'transferred' }>,
  now: number,
): Promise<void> {
  const ctx = await contexts.fromRow(e.game);
  const loc = ctx.pub;
  if (e.kind === 'annulled') {
    // Announced where its result was posted: the game's channel and the server's results channel.
    const why = e.reason ? `\n${t(loc, 'audit.reason', { reason: e.reason })}` : '';
    const by = e.by.startsWith('host:') ? `<@${e.by.slice(5)}>` : t(loc, 'audit.system');
    const here = t(loc, 'event.annulled', { id: e.game.id, by });
    await outbox.add(
      e.game.id,
      ch(e.game.channelId),
      'post',
      { content: `${here}${why}`, allowed_mentions: mentions() },
      now,
      { meta: { what: 'annulled' } },
    );
    const there = t(loc, 'event.annulledResults', { id: e.game.id, by, channel: `<#${e.game.channelId}>` });
    await resultsElsewhere(outbox, ctx, { content: `${there}${why}`, allowed_mentions: mentions() }, now, 'annulled');
    return;
  }
  await outbox.add(
    e.game.id,
    ch(e.game.channelId),
    'post',
    { content: t(loc, 'event.transferred', { id: e.game.id, to: `<@${e.to}>` }), allowed_mentions: mentions([e.to]) },
    now,
    { meta: { what: 'transferred' } },
  );
}

/**
 * G-7: after an undo, what players were told is corrected. The stage's own message (the vote's
 * count, the nominations) is re-rendered by the planner from the restored state; by day the
 * channel is also told that the host took an action back. At night nothing public changes (N-13):
 * only the actor's own panel shows his choice gone, so he may choose again.
 */
export async function undoNews(
  outbox: OutboxStore,
  ctx: GameCtx,
  prev: GameState,
  undone: Action,
  lines: string[],
  now: number,
): Promise<void> {
  if (prev.stage.kind !== 'night') {
    lines.push(t(ctx.pub, 'event.undone'));
    return;
  }
  if (!('seat' in undone)) return;
  const slot = await outbox.slot(ctx.game.id, `panel:${prev.seq}:${undone.seat}`);
  const u = userOf(ctx, undone.seat);
  if (slot && u)
    await outbox.setSlot(
      ctx.game.id,
      slot.key,
      'message',
      slot.dest,
      panelPayload(ctx, undone.seat, userLocale(ctx, u)),
      now,
    );
  // A shot's "gesture" went to the teammates (the planner's tellMafia): they are told it is void.
  if (undone.kind === 'shoot') await tellShotUndone(outbox, ctx, undone.seat, now);
}

/** The same audience as a shot's gesture: the open mafia thread, else the teammates still to shoot. */
async function tellShotUndone(outbox: OutboxStore, ctx: GameCtx, seat: number, now: number): Promise<void> {
  const s = ctx.state!;
  const tag = seatTag(ctx, seat);
  const thread = await outbox.slot(ctx.game.id, 'thread');
  if (thread?.messageId && mafiaTalkOpen(s)) {
    await outbox.add(
      ctx.game.id,
      `th:${ctx.game.id}`,
      'post',
      { content: t(ctx.pub, 'dm.shotUndone', { seat: tag }), allowed_mentions: mentions() },
      now,
      { meta: { what: 'gesture' } },
    );
    return;
  }
  const shots = s.stage.kind === 'night' ? s.stage.acts.shots : [];
  for (const p of s.players) {
    if (!p.alive || p.seat === seat || (p.role !== 'mafia' && p.role !== 'don') || (shots[p.seat - 1] ?? 0) !== 0)
      continue;
    const to = userOf(ctx, p.seat);
    if (to)
      await outbox.add(
        ctx.game.id,
        `dm:${to}`,
        'post',
        { content: t(userLocale(ctx, to), 'dm.shotUndone', { seat: tag }), allowed_mentions: mentions() },
        now,
        { meta: { seat: p.seat, what: 'gesture' } },
      );
  }
}

/** The server's results channel (as the game was created) gets the points too, and their annulment. */
export async function resultsElsewhere(
  outbox: OutboxStore,
  ctx: GameCtx,
  payload: Payload,
  now: number,
  what: 'results' | 'annulled' = 'results',
): Promise<void> {
  const channel = gameSettings(ctx).resultsChannel;
  if (!channel || channel === ctx.game.channelId) return;
  await outbox.add(ctx.game.id, ch(channel), 'post', payload, now, { meta: { what } });
}
