// The lobby's DM check (issue 6 and issue 24): a short DM to each player that says the bot can
// reach him, sent when he joins, when the host starts, and by `/mafia setup check dms:true`. One
// text and one way of sending it for all three.
import type { GameRow } from '../db/store';
import type { Deliverer } from '../delivery/deliverer';
import { t, toLocale, type Locale } from '../i18n';
import { mentions } from './render/common';

/** The DM check's text, in the player's language (the one he joined with, else `fallbackLoc`). */
export function dmCheckPayload(game: GameRow, userId: string, fallbackLoc: Locale) {
  const loc = toLocale(game.lobby.locales?.[userId]) ?? fallbackLoc;
  return { content: t(loc, 'lobby.dmCheck', { id: game.id }), allowed_mentions: mentions() };
}

/**
 * Every one of `users` checked at once, as of `startedAt` (a DM closed earlier is tried again): the
 * deliverer sends them together, in the order lobbies asked, at the pace its budget allows. Returns
 * the players the bot cannot reach, in the lobby's order.
 */
export async function unreachablePlayers(
  deliverer: Deliverer,
  game: GameRow,
  users: readonly string[],
  fallbackLoc: Locale,
  startedAt: number,
): Promise<string[]> {
  const ok = await Promise.all(
    users.map(async (u) => {
      await deliverer.forgetClosed(u);
      return deliverer.probeDm(u, dmCheckPayload(game, u, fallbackLoc), undefined, { startedAt });
    }),
  );
  const out = users.filter((_, k) => !ok[k]);
  return game.lobby.members.filter((u) => out.includes(u));
}
